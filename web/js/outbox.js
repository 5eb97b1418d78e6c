// The browser's outbox for progress and quiz events, so nothing a learner does is lost or counted twice.
//
// record(type, lesson, item, data) first writes the event, with a fresh id (uuid.js), into localStorage,
// then POSTs it to /api/events. Until the server acknowledges it the event stays in the outbox and is retried with
// exponential backoff and jitter (0.5 s doubling to 60 s), at once when the browser comes back online or the page
// is shown again, and on the next page load. The server stores each id once and answers a repeat with the original
// response, so retrying is always safe. Events are sent one at a time, oldest first.
//
// Answers: 2xx (stored, or stored before) and 409 (the id was already used) leave the outbox; other 4xx mean the
// event can never be stored (the server said why) and leave it too, reported as `rejected`; network errors, 408,
// 429 and 5xx are retried.
//
// status() gives {pending, state, lastError}; subscribe(listener) calls listener(status) on every change and
// listener(status, {acked: event, response}) / ({rejected: event, error}) when an event leaves the outbox.

import { uuid } from './uuid.js';

const KEY = 'exactly-once-lab:outbox';
const ENDPOINT = '/api/events';
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 60_000;
const RETRY_STATUSES = new Set([408, 425, 429]);

const listeners = new Set();
let memory = []; // used when localStorage is unavailable (blocked storage): the outbox lasts for this page only
let sending = false;
let timer = null;
let attempt = 0;
let lastError = null;

function load() {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(parsed) ? parsed.filter((e) => e && typeof e.id === 'string') : [];
  } catch {
    return memory;
  }
}

function save(events) {
  memory = events;
  try {
    if (events.length) localStorage.setItem(KEY, JSON.stringify(events));
    else localStorage.removeItem(KEY);
  } catch {
    // storage full or blocked: keep them in memory for this page
  }
}

/** Queues an event and starts sending it. Returns the queued event (with its id). */
export function record(type, lesson, item, data = {}) {
  const event = { id: uuid(), type, lesson, item, data };
  save([...load(), event]);
  notify();
  flushSoon(0);
  return event;
}

/** Events not yet acknowledged, oldest first; optionally only those matching `filter`. */
export function pending(filter = () => true) {
  return load().filter(filter);
}

/** Removes queued events matching `filter` (for example a lesson's progress before it is reset). */
export function discard(filter) {
  save(load().filter((e) => !filter(e)));
  notify();
}

export function status() {
  const count = load().length;
  const state = count === 0 ? 'idle' : sending ? 'sending' : navigator.onLine === false ? 'offline' : 'waiting';
  return { pending: count, state, lastError };
}

export function subscribe(listener) {
  listeners.add(listener);
  listener(status());
  return () => listeners.delete(listener);
}

function notify(change) {
  const current = status();
  for (const listener of listeners) {
    try {
      listener(current, change);
    } catch (error) {
      console.warn('outbox listener failed', error);
    }
  }
}

function flushSoon(delay) {
  clearTimeout(timer);
  timer = setTimeout(flush, delay);
}

function backoff() {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
  attempt += 1;
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2)); // "equal jitter": between half and all of it
}

/** Sends queued events until the outbox is empty or the server cannot be reached. */
export async function flush() {
  if (sending) return;
  sending = true;
  clearTimeout(timer);
  try {
    for (let event = load()[0]; event; event = load()[0]) {
      let response;
      try {
        response = await fetch(ENDPOINT, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(event),
          credentials: 'same-origin',
          keepalive: true,
        });
      } catch (error) {
        lastError = 'offline or server unreachable';
        return retryLater();
      }
      if (response.status >= 500 || RETRY_STATUSES.has(response.status)) {
        lastError = `server answered ${response.status}`;
        return retryLater();
      }
      const body = await response.json().catch(() => ({}));
      remove(event.id);
      attempt = 0;
      if (response.ok || response.status === 409) {
        lastError = null;
        notify({ acked: event, response: response.ok ? body : body.original });
      } else {
        lastError = body.error || `server refused the event (${response.status})`;
        console.warn(`outbox: event ${event.type} ${event.item} refused: ${lastError}`);
        notify({ rejected: event, error: lastError });
      }
    }
  } finally {
    sending = false;
    notify();
  }
}

function retryLater() {
  flushSoon(backoff());
}

function remove(id) {
  save(load().filter((e) => e.id !== id));
}

window.addEventListener('online', () => {
  attempt = 0;
  flushSoon(0);
});
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && load().length) flushSoon(0);
});
// Another tab queued or sent something: refresh the count shown here.
window.addEventListener('storage', (event) => {
  if (event.key === KEY) notify();
});
if (load().length) flushSoon(0);
