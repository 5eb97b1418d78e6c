// The instructor's dashboard: listens to the class stream and swaps in the panels the server renders; the buttons
// call the instructor API. Nothing here builds HTML from text a user typed.
import { send, insertFragment } from './classroom-common.js';

const head = document.querySelector('[data-class]');
const classId = head?.dataset.class;
const status = document.getElementById('dash-status');

function say(text) {
  if (status) status.textContent = text;
}

async function call(method, path, body) {
  try {
    const res = await send(method, `/api/teach/classes/${classId}${path}`, body);
    if (!res.ok) say(res.body?.error ?? `Request failed (${res.status})`);
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
    const select = document.getElementById('live-question-select');
    const res = await call('POST', '/live/push', { question: select.value });
    if (res.ok) {
      say('Question pushed.');
      if (select.selectedIndex < select.options.length - 1) select.selectedIndex += 1;
    }
  } else if (action === 'reveal') {
    if ((await call('POST', '/live/reveal')).ok) say('Answer revealed.');
  } else if (action === 'end') {
    if ((await call('POST', '/live/end')).ok) say('Live session ended.');
  } else if (action === 'hold-all' || action === 'release-all') {
    for (const box of document.querySelectorAll('input[data-hold]')) box.checked = action === 'hold-all';
    await saveHolds();
  } else if (action === 'holds') {
    await saveHolds();
  }
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
  document.getElementById('lb-show')?.addEventListener('change', leaderboard);
  document.getElementById('lb-anonymous')?.addEventListener('change', leaderboard);

  const stream = new EventSource(`/api/teach/classes/${classId}/stream`);
  for (const panel of ['live', 'roster', 'progress', 'quiz', 'sandbox']) {
    stream.addEventListener(panel, (e) => {
      insertFragment(document.getElementById(`${panel}-body`), JSON.parse(e.data).html);
    });
  }
  stream.addEventListener('open', () => say('Live.'));
  stream.addEventListener('error', () => say('Connection lost; reconnecting…'));
}
