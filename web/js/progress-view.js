// Study progress as the lesson page shows it (built by JavaScript only: without it the page reads as before): a
// meter per tab in the tab bar and at the top of each panel, checkmarks on read sections, revealed ladder answers,
// explored map nodes and edges, run snippets and passed exercises, Again/Hard/Good/Easy self-rating after a ladder
// reveal (keys 1-4; each button says when the question comes back, and a tap is confirmed: "Rated Hard — back in
// 2 min"), "Resume where you left off", the saving status and "Reset progress".

import { el } from './dom.js';
import { lesson, state, tabs, ratingLabels, count, known, track, reset } from './progress-state.js';
import { ladderItems, itemId } from './progress-record.js';
import { loadIntervals, intervalsOf, dropIntervals } from './rating-intervals.js';

let statusLine;
let resumeBox;

/** The toolbar in the lesson header: `before`, the saving status, Reset progress, `after` (nodes of other widgets). */
export function buildToolbar(root, { before, after }) {
  statusLine = el('span', { class: 'progress-sync', role: 'status', 'aria-live': 'polite' });
  resumeBox = el('p', { class: 'progress-resume', hidden: true });
  const toolbar = el('div', { class: 'progress-toolbar', role: 'group', 'aria-label': 'Your progress' },
    before, statusLine, el('button', { type: 'button', class: 'progress-reset', text: 'Reset progress', onclick: resetProgress }),
    after);
  const header = root.querySelector('.lesson-header') || root;
  header.append(resumeBox, toolbar);
}

export function buildTabMeters() {
  for (const tab of tabs) {
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

export function buildRatings() {
  for (const item of ladderItems()) {
    const id = itemId(item);
    // Polite, and there before it is filled, so screen readers announce the confirmation.
    const confirmation = el('p', { class: 'self-rating-confirm', role: 'status' });
    const rate = (rating) => {
      const label = ratingLabels[rating - 1];
      const when = intervalsOf(id)?.[rating - 1]; // what this tap schedules: the intervals as the server gave them
      track('self.rating', id, { rating });
      dropIntervals(id);
      showIntervals();
      confirmation.textContent = when ? `Rated ${label} — back in ${when}` : `Rated ${label}`;
    };
    const group = el('div', {
      class: 'self-rating', role: 'group', 'aria-label': 'How well did you know it? (keys 1 to 4)', hidden: true,
    }, el('span', { class: 'self-rating-label', text: 'How well did you know it?' }));
    ratingLabels.forEach((label, index) => {
      group.append(el('button', {
        type: 'button', 'data-rating': String(index + 1), 'aria-pressed': 'false', 'aria-keyshortcuts': String(index + 1),
        onclick: () => rate(index + 1),
      }, el('kbd', { text: String(index + 1) }), ` ${label}`, el('span', { class: 'self-rating-when' })));
    });
    group.append(confirmation);
    item.append(group);
    item.addEventListener('keydown', (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || group.hidden) return;
      if (event.target.closest('input, textarea, select, [contenteditable]')) return;
      const rating = Number(event.key);
      if (rating >= 1 && rating <= ratingLabels.length) {
        event.preventDefault();
        rate(rating);
        group.querySelector(`[data-rating="${rating}"]`).focus();
      }
    });
  }
}

/** Each rating button's interval ("Again: 1 min"), where the server gave the rung's; none where it did not. */
export function showIntervals() {
  for (const item of ladderItems()) {
    const intervals = intervalsOf(itemId(item));
    for (const when of item.querySelectorAll('.self-rating .self-rating-when')) {
      const rating = Number(when.closest('button').dataset.rating);
      when.textContent = intervals ? `: ${intervals[rating - 1]}` : '';
    }
  }
}

/** Closes every revealed ladder answer: after a reset nothing counts as seen. */
export function closeAnswers() {
  for (const d of document.querySelectorAll('[data-ladder] .ladder-item > details')) d.open = false;
}

async function resetProgress() {
  if (!window.confirm('Reset your progress in this lesson? Checkmarks, ratings and the resume point start again from zero.')) return;
  try {
    await reset();
    closeAnswers();
    render();
    resumeBox.hidden = true;
    statusLine.textContent = 'Progress reset.';
  } catch (error) {
    statusLine.textContent = 'Could not reset progress now (is the server reachable?). Try again later.';
  }
}

export function render() {
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
  let ratingsShown = false;
  for (const item of ladderItems()) {
    const rung = state.rungs.get(itemId(item));
    const open = item.querySelector(':scope > details')?.open;
    mark(item.querySelector('.question-meta') || item, Boolean(rung?.revealed),
      rung?.ratingLabel ? `Answer seen, rated ${rung.ratingLabel}` : 'Answer seen');
    const group = item.querySelector('.self-rating');
    if (group) {
      group.hidden = !(open || rung?.rating);
      ratingsShown ||= !group.hidden;
      for (const button of group.querySelectorAll('button')) {
        button.setAttribute('aria-pressed', String(Number(button.dataset.rating) === rung?.rating));
      }
    }
  }
  if (ratingsShown) loadIntervals(lesson).then(showIntervals);
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
    check = el('span', { class: 'progress-check', role: 'img' });
    target.append(check);
  }
  check.textContent = '✓';
  check.title = label;
  check.setAttribute('aria-label', label);
  target.closest('[id]')?.classList.add('is-done');
}

function renderMeters() {
  for (const tab of tabs) {
    const { done, total } = count(tab);
    const fraction = total ? done / total : 0;
    const fill = document.querySelector(`#tab-${tab} .tab-meter-fill`);
    if (fill) fill.style.width = `${Math.round(fraction * 100)}%`;
    const box = document.querySelector(`[data-progress-tab="${tab}"]`);
    if (!box) continue;
    box.hidden = !known();
    box.dataset.complete = String(total > 0 && done === total);
    const meter = box.querySelector('progress');
    meter.max = Math.max(total, 1);
    meter.value = done;
    box.querySelector('.tab-progress-text').textContent = `${done} of ${total} done`;
  }
}

export function showStatus(status) {
  if (!statusLine) return;
  if (status.pending === 0) statusLine.textContent = 'All progress saved.';
  else {
    const what = `${status.pending} ${status.pending === 1 ? 'change' : 'changes'} waiting to be saved`;
    statusLine.textContent = status.state === 'sending' ? `Saving ${status.pending}…`
      : `${what}${status.state === 'offline' || status.lastError ? ' (offline: will retry)' : ''}.`;
  }
  statusLine.dataset.state = status.state;
}

let hashAtLoad = location.hash;
window.addEventListener('hashchange', () => { hashAtLoad = location.hash; });

/** "Resume where you left off", offered on page load only, and only when the page was opened without a deep link. */
export function offerToResume() {
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
