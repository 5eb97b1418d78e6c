// The learner's progress in this lesson as the page knows it: the server's copy (GET /api/progress/{lesson}, cached
// in localStorage for offline reloads) with the events still waiting in the outbox applied on top, so that what the
// learner just did shows at once and while offline.
//
// The names are the server's, read from the lesson element: `data-tabs` (the tab ids), `data-rating-labels` (the
// self-rating labels, 1 to 4) and `data-progress-kinds` (each study-progress event type and the kind of item it marks
// done). What counts on which tab is the server's too: each tab of the progress JSON lists the keys ("kind:id") of
// its items, and `done` the keys of the items done; the page counts a tab by membership in those lists.

import { record, pending, discard } from './outbox.js';

const root = document.querySelector('[data-lesson]');
export const lesson = root?.dataset.lesson;
export const tabs = readList('tabs');
export const ratingLabels = readList('ratingLabels');
const kinds = root ? JSON.parse(root.dataset.progressKinds || '{}') : {};
/** The study-progress event types: "Reset progress" discards the waiting ones. */
export const progressTypes = new Set(Object.keys(kinds));
const CACHE_PREFIX = 'exactly-once-lab:progress:';
const CACHE = CACHE_PREFIX + lesson;

let server = null; // the last progress the server sent (or the cached copy)
/** What the page shows: sets and maps by item id, `done` by item key, and where the learner was last. */
export let state = emptyState();
let changed = () => {};

function readList(name) {
  return root ? JSON.parse(root.dataset[name] || '[]') : [];
}

function emptyState() {
  return { read: new Set(), nodes: new Set(), edges: new Set(), rungs: new Map(), snippets: new Map(), exercises: new Map(),
    done: new Set(), last: null };
}

/** `listener` runs after every change of `state`. */
export function onChange(listener) {
  changed = listener;
}

/** Whether the server (or the cache) has sent progress yet: before that the totals are unknown. */
export function known() {
  return server != null;
}

/** Starts from the cached copy. */
export function load() {
  server = readCache();
  rebuild();
}

/**
 * Fetches the server's progress and announces it as `lesson:progress`. Resolves to 'fetched', 'refused' (the server
 * answered with an error) or 'offline'.
 */
export async function refresh() {
  try {
    const response = await fetch(`/api/progress/${encodeURIComponent(lesson)}`, { credentials: 'same-origin' });
    if (!response.ok) return 'refused';
    replace(await response.json());
    document.dispatchEvent(new CustomEvent('lesson:progress', { detail: server }));
    return 'fetched';
  } catch {
    return 'offline';
  }
}

/** Deletes this lesson's progress on the server (and the waiting events); throws when the server refuses. */
export async function reset() {
  discard((e) => e.lesson === lesson && progressTypes.has(e.type));
  const response = await fetch(`/api/progress/${encodeURIComponent(lesson)}`, { method: 'DELETE', credentials: 'same-origin' });
  if (!response.ok) throw new Error(`server answered ${response.status}`);
  replace(await response.json());
}

/** After "forget me": nothing cached is left, for any lesson. */
export function forget() {
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(CACHE_PREFIX)) localStorage.removeItem(key);
  } catch {
    // storage blocked: nothing cached
  }
  server = null;
  rebuild();
}

function replace(progress) {
  server = progress;
  writeCache(progress);
  rebuild();
}

/** Server progress plus the events still waiting in the outbox. */
export function rebuild() {
  state = emptyState();
  if (server) {
    server.sectionsRead.forEach((s) => state.read.add(s));
    server.nodesExplored.forEach((n) => state.nodes.add(n));
    server.edgesExplored.forEach((n) => state.edges.add(n));
    for (const [id, rung] of Object.entries(server.rungs)) state.rungs.set(id, { ...rung });
    for (const [id, runs] of Object.entries(server.snippets)) state.snippets.set(id, { ...runs });
    for (const [id, checks] of Object.entries(server.exercises || {})) state.exercises.set(id, { ...checks });
    (server.done || []).forEach((key) => state.done.add(key));
    state.last = server.last;
  }
  for (const event of pending((e) => e.lesson === lesson)) apply(event);
  changed();
}

/** Records an event through the outbox and shows it at once. */
export function track(type, item, data = {}) {
  apply(record(type, lesson, item, data));
  changed();
}

function apply(event) {
  const { type, item, data } = event;
  if (kinds[type]) state.done.add(`${kinds[type]}:${item}`);
  if (type === 'section.read') state.read.add(item);
  else if (type === 'map.node') state.nodes.add(item);
  else if (type === 'map.edge') state.edges.add(item);
  else if (type === 'ladder.reveal') state.rungs.set(item, { ...(state.rungs.get(item) || {}), revealed: true });
  else if (type === 'self.rating') {
    state.rungs.set(item, { revealed: true, rating: data.rating, ratingLabel: ratingLabels[data.rating - 1] });
  } else if (type === 'snippet.run') {
    const runs = state.snippets.get(item)?.runs || 0;
    state.snippets.set(item, { runs: runs + 1, status: data.status });
  }
}

/** Items done and in total on `tab`: the server's items for the tab that are done here. */
export function count(tab) {
  const items = server?.tabs?.[tab]?.items ?? [];
  return { done: items.filter((key) => state.done.has(key)).length, total: items.length };
}

function readCache() {
  try {
    return JSON.parse(localStorage.getItem(CACHE) || 'null');
  } catch {
    return null;
  }
}

function writeCache(progress) {
  try {
    localStorage.setItem(CACHE, JSON.stringify(progress));
  } catch {
    // storage blocked: progress is fetched again next time
  }
}
