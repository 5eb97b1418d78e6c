// The instructor's dashboard: listens to the class stream and swaps in the panels the server renders; the buttons
// call the instructor API. Nothing here builds HTML from text a user typed.
import { send, insertFragment, countDown } from './classroom-common.js';
import { sentence } from './dom.js';

const head = document.querySelector('[data-class]');
const classId = head?.dataset.class;
const status = document.getElementById('dash-status');

function say(text) {
  if (status) status.textContent = text;
}

async function call(method, path, body) {
  try {
    const res = await send(method, `/api/teach/classes/${classId}${path}`, body);
    if (!res.ok) say(res.body?.error ? sentence(res.body.error) : `Request failed (${res.status}).`);
    return res;
  } catch {
    say('The server cannot be reached; try again.');
    return { ok: false };
  }
}

function heldItems() {
  return [...document.querySelectorAll('input[data-hold]')].filter((i) => i.checked).map((i) => i.value);
}

async function act(action, el) {
  if (action === 'code') {
    const res = await call('POST', '/code');
    if (res.ok) {
      document.getElementById('join-code').textContent = res.body.code;
      const link = document.getElementById('join-link');
      link.textContent = res.body.joinLink;
      link.href = res.body.joinLink;
      document.querySelector('img.qr').src = `${res.body.qr}?code=${encodeURIComponent(res.body.code)}`;
      say(`New join code ${res.body.code}; the old one no longer works.`);
    }
  } else if (action === 'close') {
    if (!confirm(el.dataset.confirm)) return;
    const res = await call('POST', '/close');
    if (res.ok) location.reload();
  } else if (action === 'push') {
    await pushQuestion();
  } else if (action === 'reveal') {
    if ((await call('POST', '/live/reveal')).ok) say('Answer revealed.');
  } else if (action === 'end') {
    if ((await call('POST', '/live/end')).ok) say('Live session ended.');
  } else if (action === 'hold-all' || action === 'release-all') {
    for (const box of document.querySelectorAll('input[data-hold]')) box.checked = action === 'hold-all';
    await saveHolds();
  }
}

const chosen = () => document.querySelector('input[name="live-question"]:checked');

async function pushQuestion() {
  const radio = chosen();
  if (!radio) { say('Choose a question first.'); return; }
  const limit = document.getElementById('live-limit').value;
  const res = await call('POST', '/live/push', limit ? { question: radio.value, timeLimit: Number(limit) } : { question: radio.value });
  if (!res.ok) return;
  say(limit ? `Question pushed; students have ${limit} seconds.` : 'Question pushed.');
  const item = radio.closest('.picker-item');
  item.dataset.pushed = 'true';
  let mark = item.querySelector('.picker-pushed');
  if (!mark) {
    mark = document.createElement('span');
    mark.className = 'picker-pushed';
    item.querySelector('.picker-kind').after(mark);
  }
  mark.textContent = `asked at ${res.body.pushedAt.slice(11, 16)} UTC`;
  const visible = [...document.querySelectorAll('.picker-item:not([hidden]) input[name="live-question"]')];
  const next = visible[visible.indexOf(radio) + 1];
  if (next) select(next);
}

/** Checks a question and shows its student card in the preview (a copy of the one the server rendered). */
function select(radio) {
  radio.checked = true;
  preview(radio.value);
}

function preview(id) {
  const card = document.querySelector(`#question-previews [data-question="${CSS.escape(id)}"]`);
  const into = document.getElementById('question-preview');
  if (card && into) into.replaceChildren(card.cloneNode(true));
}

/** Hides the questions whose text (prompt, detail, kind, topic) does not contain every word typed. */
function filter(query) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const group of document.querySelectorAll('.picker-topic')) {
    const topic = group.querySelector('legend').textContent.toLowerCase();
    let inGroup = 0;
    for (const item of group.querySelectorAll('.picker-item')) {
      const text = `${topic} ${item.textContent.toLowerCase()}`;
      const match = words.every((w) => text.includes(w));
      item.hidden = !match;
      if (match) inGroup += 1;
    }
    group.hidden = inGroup === 0;
    shown += inGroup;
  }
  const count = document.getElementById('question-search-count');
  if (count) count.textContent = words.length ? `${shown} question${shown === 1 ? '' : 's'} match.` : '';
}

async function saveHolds() {
  const res = await call('PUT', '/holds', { held: heldItems() });
  if (res.ok) say(res.body.held.length ? `Held: ${res.body.held.join(', ')}` : 'No answers held.');
}

async function leaderboard() {
  const show = document.getElementById('lb-show').checked;
  const anonymous = document.getElementById('lb-anonymous').checked;
  await call('POST', '/live/leaderboard', { show, anonymous });
}

if (classId) {
  document.addEventListener('click', (e) => {
    const button = e.target.closest('button[data-action]');
    if (button) {
      act(button.dataset.action, button);
      return;
    }
    const remove = e.target.closest('button[data-remove]');
    if (remove && confirm(`Remove ${remove.dataset.nickname} from the class?`)) {
      call('DELETE', `/students/${encodeURIComponent(remove.dataset.remove)}`).then((res) => {
        if (res.ok) say(`${res.body.nickname} was removed.`);
      });
    }
  });
  document.addEventListener('change', (e) => {
    if (e.target.matches('input[data-hold]')) saveHolds();
    else if (e.target.matches('input[name="live-question"]')) preview(e.target.value);
  });
  document.getElementById('question-search')?.addEventListener('input', (e) => filter(e.target.value));
  document.getElementById('lb-show')?.addEventListener('change', leaderboard);
  document.getElementById('lb-anonymous')?.addEventListener('change', leaderboard);

  countDown(document.getElementById('live-body'));
  const stream = new EventSource(`/api/teach/classes/${classId}/stream`);
  for (const panel of ['live', 'roster', 'progress', 'quiz', 'sandbox']) {
    stream.addEventListener(panel, (e) => {
      const into = document.getElementById(`${panel}-body`);
      insertFragment(into, JSON.parse(e.data).html);
      if (panel === 'live') countDown(into);
    });
  }
  stream.addEventListener('open', () => say('Live.'));
  stream.addEventListener('error', () => say('Connection lost; reconnecting…'));
}
