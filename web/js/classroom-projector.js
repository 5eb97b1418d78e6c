// The projector: the room's screen, run from its buttons or their keys (R reveal, N next, L leaderboard, E end).
// Its stream carries the live panel as drawn for the room; nothing here builds HTML from text a user typed.
import { send, insertFragment, countDown } from './classroom-common.js';
import { sentence } from './dom.js';

const page = document.querySelector('.projector-page[data-class]');
const classId = page?.dataset.class;
const status = document.getElementById('projector-status');
const body = document.getElementById('projector-body');
const countsBox = document.getElementById('projector-counts');
const anonymousBox = document.getElementById('projector-anonymous');
const boardButton = document.querySelector('button[data-action="leaderboard"]');

function say(text) {
  if (status) status.textContent = text;
}

async function call(path, payload = {}) {
  try {
    const res = await send('POST', `/api/teach/classes/${classId}${path}`, payload);
    if (!res.ok) say(res.body?.error ? sentence(res.body.error) : `Request failed (${res.status}).`);
    return res;
  } catch {
    say('The server cannot be reached; try again.');
    return { ok: false };
  }
}

/** The class's board as the last panel drew it: off, named or anonymous. */
const boardMode = () => body.querySelector('.projector-live')?.dataset.leaderboard ?? 'off';

async function leaderboard(show) {
  const res = await call('/live/leaderboard', { show, anonymous: anonymousBox.checked });
  if (res.ok) say(show ? 'Leaderboard on.' : 'Leaderboard off.');
}

const actions = {
  reveal: async () => { if ((await call('/live/reveal')).ok) say('Answer revealed.'); },
  next: async () => {
    const res = await call('/live/next');
    if (res.ok) say(res.body.deadline ? 'Next question pushed, timed.' : 'Next question pushed.');
  },
  leaderboard: () => leaderboard(boardMode() === 'off'),
  // one stray key must not end a class's game: ending asks first (the next question would start a clean board)
  end: async () => {
    if (!confirm('End this session? Its podium shows, and the next question starts a new session with a clean '
      + 'board.')) return;
    if ((await call('/live/end')).ok) say('Live session ended.');
  },
};

/** Keys typed into a field are text, never commands; a key with a modifier belongs to the browser. */
function isTyping(e) {
  const t = e.target;
  const field = 'input:not([type=checkbox], [type=radio], [type=button]), textarea, select, [contenteditable]';
  return t instanceof Element && t.closest(field) !== null;
}

function syncBoardButton() {
  boardButton?.setAttribute('aria-pressed', String(boardMode() !== 'off'));
  if (anonymousBox && boardMode() !== 'off') anonymousBox.checked = boardMode() === 'anonymous';
}

/** Reopens the page with live counts on or off: the server draws the panel, so it must know what the room may see. */
function setCounts(live) {
  const url = new URL(location.href);
  if (live) url.searchParams.set('counts', 'live');
  else url.searchParams.delete('counts');
  location.replace(url);
}

if (classId) {
  document.addEventListener('click', (e) => {
    const button = e.target.closest('button[data-action]');
    if (button && actions[button.dataset.action]) actions[button.dataset.action]();
  });
  document.addEventListener('keydown', (e) => {
    if (e.repeat || e.ctrlKey || e.metaKey || e.altKey || isTyping(e)) return;
    const button = document.querySelector(`button[data-key="${CSS.escape(e.key.toLowerCase())}"]`);
    if (!button) return;
    e.preventDefault();
    actions[button.dataset.action]();
  });
  countsBox?.addEventListener('change', () => setCounts(countsBox.checked));
  anonymousBox?.addEventListener('change', () => { if (boardMode() !== 'off') leaderboard(true); });

  countDown(body);
  syncBoardButton();
  const live = new URL(location.href).searchParams.get('counts') === 'live' ? '?counts=live' : '';
  const stream = new EventSource(`/api/teach/classes/${classId}/projector/stream${live}`);
  stream.addEventListener('live', (e) => {
    insertFragment(body, JSON.parse(e.data).html);
    countDown(body);
    syncBoardButton();
  });
  stream.addEventListener('open', () => say('Live.'));
  stream.addEventListener('error', () => say('Connection lost; reconnecting…'));
}
