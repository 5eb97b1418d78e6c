// "Your data": the optional display name (PUT /api/me), the JSON export (/api/me/export) and "Forget me"
// (DELETE /api/me, after the outbox drops everything still waiting). It knows nothing of progress: whoever places it
// is told when everything was forgotten.

import { el, sentence } from './dom.js';
import { discard } from './outbox.js';

/**
 * Builds the controls. `whoami` ("Studying as ...") and `details` (the "Your data" box) go where the caller wants
 * them; `forgotten` runs after the server deleted everything, before the confirmation shows.
 */
export function yourData({ forgotten }) {
  const whoami = el('span', { class: 'progress-whoami' });
  const showName = (name) => {
    whoami.textContent = name ? `Studying as ${name}` : '';
    whoami.hidden = !name;
  };
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
    } else message.textContent = sentence(answer.error);
  });
  const forget = el('button', { type: 'button', class: 'progress-forget', text: 'Forget me' });
  forget.addEventListener('click', async () => {
    if (!window.confirm('Delete everything this site stores about you (progress, ratings, quiz answers, name)? This cannot be undone.')) return;
    discard(() => true);
    const answer = await send('DELETE', '/api/me');
    if (!answer.ok) {
      message.textContent = sentence(answer.error);
      return;
    }
    input.value = '';
    showName(null);
    await forgotten();
    message.textContent = 'Everything about you has been deleted.';
  });
  loadMe(input, showName);
  const details = el('details', { class: 'progress-me' },
    el('summary', { text: 'Your data' }),
    el('div', { class: 'progress-me-body' },
      form,
      el('p', {}, el('a', { href: '/api/me/export', download: 'exactly-once-lab-my-data.json', text: 'Download my data (JSON)' })),
      el('p', {}, forget),
      message));
  return { whoami, details };
}

async function loadMe(input, showName) {
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
