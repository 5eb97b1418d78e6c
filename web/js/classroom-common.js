// Shared by the classroom widgets: JSON requests that report errors as text, and ids for exactly-once answers.

export { uuid } from './uuid.js';

/** Sends JSON; resolves to {ok, status, body}; rejects only when the network failed. */
export async function send(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  return { ok: res.ok, status: res.status, body: data };
}

/** Replaces an element's content with a fragment the server rendered (and escaped). */
export function insertFragment(el, html) {
  if (el) el.innerHTML = html;
}
