// On a lesson page whose ladder answers an instructor holds back (the server marks them data-held and leaves the
// answer out; progress.js does not count opening a held answer as a reveal): when the instructor releases items,
// fetch the page again and swap the released answers in.
const meta = document.querySelector('meta[name="eolab-class"]');
const classId = meta?.content;

async function release(items) {
  const res = await fetch(location.pathname, { credentials: 'same-origin' });
  if (!res.ok) return;
  const fresh = new DOMParser().parseFromString(await res.text(), 'text/html');
  for (const item of items) {
    const held = document.querySelector(`details[data-held="${CSS.escape(item)}"]`);
    const answer = fresh.querySelector(`li.ladder-item[id$="/${CSS.escape(item)}"] details.answer:not([data-held])`);
    if (!held || !answer) continue;
    // Keep the element (other widgets listen to its toggle); swap in the answer and drop the mark.
    held.replaceChildren(...[...answer.childNodes].map((n) => document.importNode(n, true)));
    held.removeAttribute('data-held');
  }
}

if (classId) {
  const stream = new EventSource(`/api/classes/${encodeURIComponent(classId)}/stream`);
  stream.addEventListener('release', (e) => release(JSON.parse(e.data).items));
  for (const name of ['closed', 'removed']) stream.addEventListener(name, () => stream.close());
}
