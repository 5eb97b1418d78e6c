// What the learner does that counts as study progress, recorded through progress-state.js (the outbox sends each
// event exactly once): section.read when the end of a section scrolls into view; map.node / map.edge on
// `lesson:map-select` (map.js) or a deep link to a node or edge; ladder.reveal when a ladder answer is opened;
// snippet.run on `lesson:run` (sandbox.js). Each item is recorded once until progress is reset, except runs (the
// latest counts). Self-ratings come from the rating buttons (progress-view.js).

import { el } from './dom.js';
import { state, track } from './progress-state.js';

/** `rendered` runs when a ladder answer opens or closes without a new event (the rating buttons follow it). */
export function watch(rendered) {
  watchSections();
  watchLadder(rendered);
  document.addEventListener('lesson:map-select', (e) => explore(e.detail?.kind, e.detail?.id));
  document.addEventListener('lesson:route', (e) => {
    const { tab, path = [] } = e.detail || {};
    if (tab === 'maps' && (path[0] === 'node' || path[0] === 'edge') && path[1]) explore(path[0], path[1]);
  });
  // sandbox.js announces a run only when the server ran it, with the server's outcome.
  document.addEventListener('lesson:run', (e) => {
    const { snippet, status } = e.detail || {};
    if (snippet && status) track('snippet.run', snippet, { status });
  });
}

function explore(kind, id) {
  if (kind === 'node' && id && !state.nodes.has(id)) track('map.node', id);
  if (kind === 'edge' && id && !state.edges.has(id)) track('map.edge', id);
}

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
    const id = itemId(section);
    if (!id) continue;
    const end = el('span', { class: 'section-end', 'data-section-end': id, 'aria-hidden': 'true' });
    section.append(end); // reaching the end of a section is reading it
    observer.observe(end);
  }
}

function watchLadder(rendered) {
  for (const item of ladderItems()) {
    const details = item.querySelector(':scope > details');
    const id = itemId(item);
    details?.addEventListener('toggle', () => {
      if (!details.open || details.hasAttribute('data-held')) return rendered(); // held back by an instructor: not revealed
      if (!state.rungs.get(id)?.revealed) track('ladder.reveal', id);
      else rendered();
    });
  }
}

export function ladderItems() {
  return [...document.querySelectorAll('[data-ladder] .ladder-item[id]')];
}

/** An element's item id: its page id without the tab ("qa/L3" is L3). */
export function itemId(element) {
  return element.id.split('/').slice(1).join('/');
}
