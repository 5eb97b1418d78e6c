// On a lesson page whose ladder answers an instructor holds back, the server draws each held answer marked
// data-held="<ladder id>" (progress.js does not count opening one as a reveal) and draws the watcher this module
// reads. When the instructor releases items, it asks the server for their answers and puts each one in place.
import { send, insertFragment } from './classroom-common.js';

const watch = document.querySelector('[data-release-stream]');

async function release(items) {
  for (const item of items) {
    const res = await send('GET', watch.dataset.releasedAnswers + encodeURIComponent(item));
    if (!res.ok) continue;
    for (const answer of res.body) {
      const held = document.getElementById(answer.id)?.querySelector(`[data-held="${CSS.escape(item)}"]`);
      if (!held) continue;
      // Keep the element (other widgets listen to its toggle); put the answer in and drop the mark.
      insertFragment(held, answer.html);
      held.removeAttribute('data-held');
    }
  }
}

if (watch) {
  const stream = new EventSource(watch.dataset.releaseStream);
  stream.addEventListener('release', (e) => release(JSON.parse(e.data).items));
  for (const name of ['closed', 'removed']) stream.addEventListener(name, () => stream.close());
}
