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

/**
 * Counts down each `.countdown` under `root` from the milliseconds the server said were left when it rendered it
 * (never from the device's clock, which may be wrong); calls `onZero(el)` when one reaches zero.
 */
export function countDown(root, onZero) {
  for (const el of root?.querySelectorAll('.countdown[data-remaining-ms]') ?? []) {
    const ends = performance.now() + Number(el.dataset.remainingMs);
    el.removeAttribute('data-remaining-ms');
    const tick = () => {
      if (!el.isConnected) return;
      const left = Math.max(0, Math.ceil((ends - performance.now()) / 1000));
      el.textContent = left > 0 ? `Time left: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` : 'Time is up.';
      if (left > 0) setTimeout(tick, 250);
      else onZero?.(el);
    };
    tick();
  }
}
