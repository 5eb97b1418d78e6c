// Study progress on the lesson page: records what the learner does (through the outbox, exactly once) and shows
// it: a meter per tab in the tab bar and at the top of each panel, checkmarks on read sections, revealed ladder
// answers, explored map nodes and edges and run snippets, Again/Hard/Good/Easy self-rating after a ladder reveal
// (keys 1-4), "Resume where you left off", and "Reset progress".
//
// What is recorded: section.read when the end of a section scrolls into view; map.node / map.edge on
// `lesson:map-select` (map.js) or a deep link to a node or edge; ladder.reveal when a ladder answer is opened;
// self.rating from the rating buttons; snippet.run on `lesson:run` (sandbox.js). Each item is recorded once until
// progress is reset, except runs and ratings (the latest counts).
//
// The server's GET /api/progress/{lesson} is the truth (announced to other widgets as `lesson:progress`); events
// still in the outbox are applied on top, so the page shows them at once and while offline. The last answer is
// cached in localStorage for offline reloads.

import { record, pending, discard, subscribe } from './outbox.js';

const root = document.querySelector('[data-lesson]');
const lesson = root?.dataset.lesson;
const RATINGS = ['Again', 'Hard', 'Good', 'Easy'];
const TABS = ['gist', 'maps', 'qa', 'sandbox'];
const CACHE = `exactly-once-lab:progress:${lesson}`;
const PROGRESS_TYPES = new Set(['section.read', 'map.node', 'map.edge', 'ladder.reveal', 'self.rating', 'snippet.run']);

let server = null; // the last progress the server sent (or the cached copy)
let state = emptyState();
let hashAtLoad = location.hash;
let statusLine;
let resumeBox;
let runEvents = false; // set once sandbox.js announces runs itself with `lesson:run`
const OUTCOMES = new Set(['ok', 'compile_error', 'rejected', 'runtime_error', 'timeout', 'memory_limit',
  'output_limit', 'internal_error']);

function emptyState() {
  return { read: new Set(), nodes: new Set(), edges: new Set(), rungs: new Map(), snippets: new Map(), exercises: new Map(),
    last: null };
}

function init() {
  buildToolbar();
  buildTabMeters();
  buildRatings();
  watchSections();
  watchLadder();
  document.addEventListener('lesson:map-select', (e) => explore(e.detail?.kind, e.detail?.id));
  document.addEventListener('lesson:route', (e) => {
    const { tab, path = [] } = e.detail || {};
    if (tab === 'maps' && (path[0] === 'node' || path[0] === 'edge') && path[1]) explore(path[0], path[1]);
  });
  document.addEventListener('lesson:run', (e) => {
    const { snippet, status } = e.detail || {};
    runEvents = true;
    if (snippet && OUTCOMES.has(status)) track('snippet.run', snippet, { status });
  });
  // The server records each exercise check itself (exactly once per attempt): ask it for the progress it derives.
  document.addEventListener('lesson:exercise-check', () => refresh());
  watchWidgets();
  subscribe((status, change) => {
    showStatus(status);
    if (change?.rejected && PROGRESS_TYPES.has(change.rejected.type)) rebuild();
  });
  server = readCache();
  rebuild();
  refresh(true);
}

// ---- state ----

/** Fetches the server's progress; `offerResume` only on page load, never in the middle of a session. */
async function refresh(offerResume = false) {
  try {
    const response = await fetch(`/api/progress/${encodeURIComponent(lesson)}`, { credentials: 'same-origin' });
    if (!response.ok) return;
    server = await response.json();
    writeCache(server);
    rebuild();
    document.dispatchEvent(new CustomEvent('lesson:progress', { detail: server }));
    if (offerResume) offerToResume();
  } catch {
    if (offerResume) offerToResume(); // offline: the cached copy may still know where the learner was
  }
}

/** Server progress plus the events still waiting in the outbox, applied the way the server derives them. */
function rebuild() {
  state = emptyState();
  if (server) {
    server.sectionsRead.forEach((s) => state.read.add(s));
    server.nodesExplored.forEach((n) => state.nodes.add(n));
    server.edgesExplored.forEach((n) => state.edges.add(n));
    for (const [id, rung] of Object.entries(server.rungs)) state.rungs.set(id, { ...rung });
    for (const [id, runs] of Object.entries(server.snippets)) state.snippets.set(id, { ...runs });
    for (const [id, checks] of Object.entries(server.exercises || {})) state.exercises.set(id, { ...checks });
    state.last = server.last;
  }
  for (const event of pending((e) => e.lesson === lesson)) apply(event);
  render();
}

function apply(event) {
  const { type, item, data } = event;
  if (type === 'section.read') state.read.add(item);
  else if (type === 'map.node') state.nodes.add(item);
  else if (type === 'map.edge') state.edges.add(item);
  else if (type === 'ladder.reveal') state.rungs.set(item, { ...(state.rungs.get(item) || {}), revealed: true });
  else if (type === 'self.rating') {
    state.rungs.set(item, { revealed: true, rating: data.rating, ratingLabel: RATINGS[data.rating - 1] });
  } else if (type === 'snippet.run') {
    const runs = state.snippets.get(item)?.runs || 0;
    state.snippets.set(item, { runs: runs + 1, status: data.status });
  }
}

function track(type, item, data = {}) {
  const event = record(type, lesson, item, data);
  apply(event);
  render();
}

function explore(kind, id) {
  if (kind === 'node' && id && !state.nodes.has(id)) track('map.node', id);
  if (kind === 'edge' && id && !state.edges.has(id)) track('map.edge', id);
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

// ---- recording ----

function watchSections() {
  if (!('IntersectionObserver' in window)) return;
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const id = entry.target.dataset.sectionEnd;
      if (!state.read.has(id)) track('section.read', id);
    }
  });
  for (const section of document.querySelectorAll('.tab-panel > .lesson-section[id]')) {
    const id = section.id.split('/').slice(1).join('/');
    if (!id) continue;
    const end = document.createElement('span');
    end.className = 'section-end';
    end.dataset.sectionEnd = id;
    end.setAttribute('aria-hidden', 'true');
    section.append(end); // reaching the end of a section is reading it
    observer.observe(end);
  }
}

/**
 * Until map.js and sandbox.js announce `lesson:map-select` and `lesson:run`, learn the same from the state they
 * already show: a map element gaining `is-selected`, a snippet's `data-state` leaving `running` for an outcome
 * (`differs` is a run that ended ok with other output). Harmless once they do: explored items are recorded once,
 * and a run seen as a `lesson:run` is not recorded again from its state.
 */
function watchWidgets() {
  const observer = new MutationObserver((mutations) => {
    for (const m of mutations) {
      const target = m.target;
      if (target.matches('.map-node.is-selected[data-node]')) explore('node', target.dataset.node);
      else if (target.matches('.map-edge.is-selected[data-edge]')) explore('edge', target.dataset.edge);
      else if (target.matches('.sandbox[data-snippet]') && m.oldValue === 'running') {
        const status = target.dataset.state === 'differs' ? 'ok' : target.dataset.state;
        if (!OUTCOMES.has(status)) continue; // busy, or the server could not be reached: no run happened
        setTimeout(() => { if (!runEvents) track('snippet.run', target.dataset.snippet, { status }); }, 100);
      }
    }
  });
  for (const element of document.querySelectorAll('.map-node[data-node], .map-edge[data-edge]')) {
    observer.observe(element, { attributes: true, attributeFilter: ['class'] });
  }
  for (const element of document.querySelectorAll('.sandbox[data-snippet]')) {
    observer.observe(element, { attributes: true, attributeFilter: ['data-state'], attributeOldValue: true });
  }
}

function watchLadder() {
  for (const item of ladderItems()) {
    const details = item.querySelector(':scope > details');
    const id = itemId(item);
    details?.addEventListener('toggle', () => {
      if (!details.open || details.hasAttribute('data-held')) return render(); // held back by an instructor: not revealed
      if (!state.rungs.get(id)?.revealed) track('ladder.reveal', id);
      else render();
    });
  }
}

function ladderItems() {
  return [...document.querySelectorAll('[data-ladder] .ladder-item[id]')];
}

function itemId(element) {
  return element.id.split('/').slice(1).join('/');
}

// ---- building the controls (JavaScript only: without it the page reads as before) ----

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

function buildToolbar() {
  statusLine = el('span', { class: 'progress-sync', role: 'status', 'aria-live': 'polite' });
  resumeBox = el('p', { class: 'progress-resume', hidden: '' });
  const reset = el('button', { type: 'button', class: 'progress-reset', text: 'Reset progress', onclick: resetProgress });
  const toolbar = el('div', { class: 'progress-toolbar', role: 'group', 'aria-label': 'Your progress' },
    statusLine, reset, buildMe());
  toolbar.prepend(whoami);
  const header = root.querySelector('.lesson-header') || root;
  header.append(resumeBox, toolbar);
}

// "Your data": the optional display name, the JSON export and "forget me".
let whoami;

function buildMe() {
  whoami = el('span', { class: 'progress-whoami' });
  const message = el('p', { class: 'progress-me-message', role: 'status', 'aria-live': 'polite' });
  const input = el('input', { type: 'text', name: 'displayName', maxlength: '40', autocomplete: 'nickname', id: 'progress-display-name' });
  const form = el('form', { class: 'progress-me-name' },
    el('label', { for: 'progress-display-name', text: 'Display name (optional)' }), input,
    el('button', { type: 'submit', text: 'Save name' }));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const answer = await send('PUT', '/api/me', { displayName: input.value });
    if (answer.ok) {
      showName(answer.body.displayName);
      message.textContent = answer.body.displayName ? 'Name saved.' : 'Name cleared.';
    } else message.textContent = answer.error;
  });
  const forget = el('button', { type: 'button', class: 'progress-forget', text: 'Forget me' });
  forget.addEventListener('click', async () => {
    if (!window.confirm('Delete everything this site stores about you (progress, ratings, quiz answers, name)? This cannot be undone.')) return;
    discard(() => true);
    const answer = await send('DELETE', '/api/me');
    if (!answer.ok) {
      message.textContent = answer.error;
      return;
    }
    try {
      for (const key of Object.keys(localStorage)) if (key.startsWith('exactly-once-lab:progress:')) localStorage.removeItem(key);
    } catch {
      // storage blocked: nothing cached
    }
    server = null;
    input.value = '';
    showName(null);
    for (const d of document.querySelectorAll('[data-ladder] .ladder-item > details')) d.open = false;
    rebuild();
    await refresh();
    message.textContent = 'Everything about you has been deleted.';
  });
  loadMe(input);
  return el('details', { class: 'progress-me' },
    el('summary', { text: 'Your data' }),
    el('div', { class: 'progress-me-body' },
      form,
      el('p', {}, el('a', { href: '/api/me/export', download: 'exactly-once-lab-my-data.json', text: 'Download my data (JSON)' })),
      el('p', {}, forget),
      message));
}

async function loadMe(input) {
  try {
    const response = await fetch('/api/me', { credentials: 'same-origin' });
    if (!response.ok) return;
    const me = await response.json();
    input.value = me.displayName || '';
    showName(me.displayName);
  } catch {
    // offline: the name shows next time
  }
}

function showName(name) {
  whoami.textContent = name ? `Studying as ${name}` : '';
  whoami.hidden = !name;
}

async function send(method, path, json) {
  try {
    const response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: json ? { 'Content-Type': 'application/json' } : {},
      body: json ? JSON.stringify(json) : undefined,
    });
    const body = await response.json().catch(() => ({}));
    return { ok: response.ok, body, error: body.error || `The server answered ${response.status}.` };
  } catch {
    return { ok: false, body: {}, error: 'The server cannot be reached; try again later.' };
  }
}

function buildTabMeters() {
  for (const tab of TABS) {
    const link = document.getElementById(`tab-${tab}`);
    if (link) {
      link.append(el('span', { class: 'tab-meter', 'aria-hidden': 'true' }, el('span', { class: 'tab-meter-fill' })));
    }
    const panel = document.getElementById(tab);
    const heading = panel?.querySelector(':scope > h2');
    if (!heading) continue;
    const label = `${heading.textContent} progress`;
    heading.after(el('div', { class: 'tab-progress', 'data-progress-tab': tab },
      el('progress', { max: '1', value: '0', 'aria-label': label }),
      el('span', { class: 'tab-progress-text' })));
  }
}

function buildRatings() {
  for (const item of ladderItems()) {
    const id = itemId(item);
    const group = el('div', {
      class: 'self-rating', role: 'group', 'aria-label': 'How well did you know it? (keys 1 to 4)', hidden: '',
    }, el('span', { class: 'self-rating-label', text: 'How well did you know it?' }));
    RATINGS.forEach((label, index) => {
      group.append(el('button', {
        type: 'button', 'data-rating': String(index + 1), 'aria-pressed': 'false', 'aria-keyshortcuts': String(index + 1),
        onclick: () => rate(id, index + 1),
      }, el('kbd', { text: String(index + 1) }), ` ${label}`));
    });
    item.append(group);
    item.addEventListener('keydown', (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || group.hidden) return;
      if (event.target.closest('input, textarea, select, [contenteditable]')) return;
      const rating = Number(event.key);
      if (rating >= 1 && rating <= 4) {
        event.preventDefault();
        rate(id, rating);
        group.querySelector(`[data-rating="${rating}"]`).focus();
      }
    });
  }
}

function rate(id, rating) {
  track('self.rating', id, { rating });
}

async function resetProgress() {
  if (!window.confirm('Reset your progress in this lesson? Checkmarks, ratings and the resume point start again from zero.')) return;
  discard((e) => e.lesson === lesson && PROGRESS_TYPES.has(e.type));
  try {
    const response = await fetch(`/api/progress/${encodeURIComponent(lesson)}`, {
      method: 'DELETE', credentials: 'same-origin',
    });
    if (!response.ok) throw new Error(`server answered ${response.status}`);
    server = await response.json();
    writeCache(server);
    for (const d of document.querySelectorAll('[data-ladder] .ladder-item > details')) d.open = false;
    rebuild();
    resumeBox.hidden = true;
    statusLine.textContent = 'Progress reset.';
  } catch (error) {
    statusLine.textContent = 'Could not reset progress now (is the server reachable?). Try again later.';
  }
}

// ---- showing it ----

function render() {
  for (const section of document.querySelectorAll('.tab-panel > .lesson-section[id]')) {
    mark(section.querySelector('.section-head') || section, state.read.has(itemId(section)), 'Read');
  }
  for (const node of document.querySelectorAll('.map-node[data-node]')) {
    node.classList.toggle('is-explored', state.nodes.has(node.dataset.node));
  }
  for (const edge of document.querySelectorAll('.map-edge[data-edge]')) {
    edge.classList.toggle('is-explored', state.edges.has(edge.dataset.edge));
  }
  for (const entry of document.querySelectorAll('.map-text-item[data-kind][data-ref]')) {
    const set = entry.dataset.kind === 'node' ? state.nodes : state.edges;
    entry.classList.toggle('is-explored', set.has(entry.dataset.ref));
  }
  for (const item of ladderItems()) {
    const rung = state.rungs.get(itemId(item));
    const open = item.querySelector(':scope > details')?.open;
    mark(item.querySelector('.question-meta') || item, Boolean(rung?.revealed),
      rung?.ratingLabel ? `Answer seen, rated ${rung.ratingLabel}` : 'Answer seen');
    const group = item.querySelector('.self-rating');
    if (group) {
      group.hidden = !(open || rung?.rating);
      for (const button of group.querySelectorAll('button')) {
        button.setAttribute('aria-pressed', String(Number(button.dataset.rating) === rung?.rating));
      }
    }
  }
  for (const snippet of document.querySelectorAll('.sandbox[data-snippet]')) {
    const runs = state.snippets.get(snippet.dataset.snippet);
    const title = snippet.querySelector('.sandbox-title') || snippet;
    mark(title, Boolean(runs), runs ? `Ran ${runs.runs} ${runs.runs === 1 ? 'time' : 'times'}, last: ${runs.status.replace('_', ' ')}` : '');
  }
  for (const exercise of document.querySelectorAll('.fix-exercise[data-exercise]')) {
    const checks = state.exercises.get(exercise.dataset.exercise);
    const title = exercise.querySelector('.fix-exercise-title') || exercise;
    mark(title, Boolean(checks?.passed),
      checks?.passed ? `Passed (checked ${checks.checks} ${checks.checks === 1 ? 'time' : 'times'})` : '');
  }
  renderMeters();
}

/** A checkmark after `target`'s text, with its meaning for screen readers. */
function mark(target, done, label) {
  let check = target.querySelector(':scope > .progress-check');
  if (!done) {
    check?.remove();
    target.closest('[id]')?.classList.remove('is-done');
    return;
  }
  if (!check) {
    check = el('span', { class: 'progress-check' });
    target.append(check);
  }
  check.textContent = '✓';
  check.title = label;
  check.setAttribute('role', 'img');
  check.setAttribute('aria-label', label);
  target.closest('[id]')?.classList.add('is-done');
}

function renderMeters() {
  const totals = server?.tabs;
  for (const tab of TABS) {
    const total = totals?.[tab]?.total ?? 0;
    const done = Math.min(total, doneOn(tab));
    const fraction = total ? done / total : 0;
    const fill = document.querySelector(`#tab-${tab} .tab-meter-fill`);
    if (fill) fill.style.width = `${Math.round(fraction * 100)}%`;
    const box = document.querySelector(`[data-progress-tab="${tab}"]`);
    if (!box) continue;
    box.hidden = !totals;
    box.dataset.complete = String(total > 0 && done === total);
    const meter = box.querySelector('progress');
    meter.max = Math.max(total, 1);
    meter.value = done;
    box.querySelector('.tab-progress-text').textContent = `${done} of ${total} done`;
  }
}

function doneOn(tab) {
  const sections = [...state.read].filter((id) => document.getElementById(`${tab}/${id}`)?.classList.contains('lesson-section')).length;
  if (tab === 'maps') return sections + state.nodes.size + state.edges.size;
  if (tab === 'qa') return sections + [...state.rungs.values()].filter((r) => r.revealed).length;
  if (tab === 'sandbox') return sections + state.snippets.size + [...state.exercises.values()].filter((c) => c.passed).length;
  return sections;
}

function showStatus(status) {
  if (!statusLine) return;
  if (status.pending === 0) statusLine.textContent = 'All progress saved.';
  else {
    const what = `${status.pending} ${status.pending === 1 ? 'change' : 'changes'} waiting to be saved`;
    statusLine.textContent = status.state === 'sending' ? `Saving ${status.pending}…`
      : `${what}${status.state === 'offline' || status.lastError ? ' (offline: will retry)' : ''}.`;
  }
  statusLine.dataset.state = status.state;
}

function offerToResume() {
  const last = state.last;
  if (hashAtLoad || !last?.hash || !resumeBox.hidden) return;
  const target = document.getElementById(last.hash.slice(1));
  if (!target) return;
  const heading = target.querySelector('h3, h4, h5, .question, .map-text-title, .sandbox-title') || target;
  let text = heading.textContent.replace(/✓/g, '').replace(/\s+/g, ' ').trim();
  if (!text) text = last.item;
  if (text.length > 80) text = `${text.slice(0, 77)}…`;
  const link = el('a', { href: last.hash, class: 'progress-resume-link' }, `Resume where you left off: ${text}`);
  link.addEventListener('click', () => { resumeBox.hidden = true; });
  resumeBox.replaceChildren(link);
  resumeBox.hidden = false;
}

window.addEventListener('hashchange', () => { hashAtLoad = location.hash; });

if (lesson) init();
