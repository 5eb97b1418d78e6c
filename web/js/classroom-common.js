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
 * (never from the device's clock, which may be wrong); calls `onZero(el)` when one reaches zero. A countdown that
 * knows its whole time (`data-limit-ms`) also shrinks the `.countdown-bar` beside it.
 */
export function countDown(root, onZero) {
  for (const el of root?.querySelectorAll('.countdown[data-remaining-ms]') ?? []) {
    const ends = performance.now() + Number(el.dataset.remainingMs);
    const limit = Number(el.dataset.limitMs);
    const bar = limit > 0 ? el.parentElement?.querySelector('.countdown-bar') : null;
    el.removeAttribute('data-remaining-ms');
    const tick = () => {
      if (!el.isConnected) return;
      const ms = Math.max(0, ends - performance.now());
      // A style property set from script, which the policy allows; the page's own markup carries none.
      if (bar) bar.style.width = `${Math.min(100, (100 * ms) / limit).toFixed(2)}%`;
      const left = Math.ceil(ms / 1000);
      el.textContent = left > 0 ? `Time left: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` : 'Time is up.';
      if (left > 0) setTimeout(tick, 250);
      else onZero?.(el);
    };
    tick();
  }
}
