// The student's class page: shows the question the instructor pushed (a fragment the server rendered) and sends
// the chosen option once, with a client-generated id that is kept until the server acknowledges it, so a retry
// after a lost response is recorded only once.
import { uuid, send, insertFragment, countDown } from './classroom-common.js';
import { sentence } from './dom.js';

const live = document.getElementById('live');
const classId = live?.dataset.class;
const body = document.getElementById('live-body');
const connection = document.getElementById('connection');

const key = (round) => `eolab-answer:${classId}:${round}`;

function stored(round) {
  try { return JSON.parse(sessionStorage.getItem(key(round))); } catch { return null; }
}

function markMine() {
  const card = body.querySelector('[data-round]');
  if (!card) return;
  const mine = stored(card.dataset.round);
  if (!mine) return;
  for (const b of card.querySelectorAll('button[data-choice]')) {
    const chosen = Number(b.dataset.choice) === mine.choice;
    b.setAttribute('aria-pressed', String(chosen));
    b.classList.toggle('mine', chosen);
    b.disabled = true;
  }
  if (card.dataset.state === 'open') {
    card.dataset.state = 'answered';
    card.querySelector('.live-status').textContent = mine.acked ? 'Answer recorded. Wait for the reveal.' : 'Sending your answer…';
  }
}

/** The countdown reached zero: the buttons close at once (the server refuses late answers and says so too). */
function timeUp(el) {
  const card = el.closest('[data-round]');
  if (!card || card.dataset.state !== 'open') return;
  card.dataset.state = 'timeup';
  for (const b of card.querySelectorAll('button[data-choice]')) b.disabled = true;
  card.querySelector('.live-status').textContent = 'Time is up: answers are closed.';
}

async function deliver(round, attempt = 0) {
  const answer = stored(round);
  if (!answer || answer.acked) return;
  let res;
  try {
    res = await send('POST', `/api/classes/${classId}/answers`, { id: answer.id, round, choice: answer.choice });
  } catch {
    setTimeout(() => deliver(round, attempt + 1), Math.min(10000, 500 * 2 ** attempt));
    return;
  }
  const card = body.querySelector(`[data-round="${CSS.escape(round)}"]`);
  const line = card?.querySelector('.live-status');
  if (res.ok) {
    sessionStorage.setItem(key(round), JSON.stringify({ ...answer, acked: true }));
    if (line && card.dataset.state !== 'revealed') line.textContent = 'Answer recorded. Wait for the reveal.';
  } else if (res.status === 429 || res.status >= 500) {
    setTimeout(() => deliver(round, attempt + 1), Math.min(10000, 1000 * 2 ** attempt));
  } else {
    sessionStorage.removeItem(key(round));
    if (line) line.textContent = res.body?.error ? sentence(res.body.error) : `Your answer was not accepted (${res.status}).`;
  }
}

if (classId) {
  body.addEventListener('click', (e) => {
    const button = e.target.closest('button[data-choice]');
    const card = button?.closest('[data-round]');
    if (!button || !card || card.dataset.state !== 'open' || stored(card.dataset.round)) return;
    const round = card.dataset.round;
    sessionStorage.setItem(key(round), JSON.stringify({ id: uuid(), choice: Number(button.dataset.choice), acked: false }));
    markMine();
    deliver(round);
  });

  const stream = new EventSource(`/api/classes/${classId}/stream`);
  const show = (e) => {
    insertFragment(body, JSON.parse(e.data).html);
    markMine();
    countDown(body, timeUp);
    const card = body.querySelector('[data-round]');
    if (card) deliver(card.dataset.round);
  };
  for (const name of ['question', 'reveal', 'timeup', 'idle']) stream.addEventListener(name, show);
  countDown(body, timeUp);
  stream.addEventListener('leaderboard', (e) => insertFragment(document.getElementById('leaderboard-body'), JSON.parse(e.data).html));
  for (const name of ['closed', 'removed']) {
    stream.addEventListener(name, (e) => {
      insertFragment(body, JSON.parse(e.data).html);
      insertFragment(document.getElementById('leaderboard-body'), '');
      stream.close();
      connection.textContent = '';
    });
  }
  stream.addEventListener('open', () => { connection.textContent = 'Connected.'; });
  stream.addEventListener('error', () => {
    if (stream.readyState !== EventSource.CLOSED) connection.textContent = 'Connection lost; reconnecting…';
  });
}
