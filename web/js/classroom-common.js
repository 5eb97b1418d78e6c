// Shared by the classroom widgets: JSON requests that report errors as text, and ids for exactly-once answers.

/** A v4 UUID; crypto.randomUUID only exists on secure origins, and classrooms often use plain http on a LAN. */
export function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

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
