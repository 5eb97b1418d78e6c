// Study progress on the lesson page: progress-record.js records what the learner does (through the outbox, exactly
// once), progress-state.js keeps the server's progress with the waiting events on top, progress-view.js shows it,
// and me.js adds "Your data" to the progress toolbar. The server's progress is announced to other widgets as
// `lesson:progress`.

import { subscribe } from './outbox.js';
import { lesson, progressTypes, onChange, load, refresh, rebuild, forget } from './progress-state.js';
import { watch } from './progress-record.js';
import { buildToolbar, buildTabMeters, buildRatings, render, showStatus, offerToResume, closeAnswers, showIntervals }
  from './progress-view.js';
import { loadIntervals } from './rating-intervals.js';
import { yourData } from './me.js';

if (lesson) init();

function init() {
  // Each rating button's interval comes from the quiz's scheduler; a rating the server now has moved its rung's.
  const intervals = () => loadIntervals(lesson, { again: true }).then(showIntervals);
  const me = yourData({
    forgotten: async () => {
      forget();
      closeAnswers();
      rebuild();
      await refresh();
      intervals();
    },
  });
  buildToolbar(document.querySelector('[data-lesson]'), { before: me.whoami, after: me.details });
  buildTabMeters();
  buildRatings();
  onChange(render);
  watch(render);
  // The server records each exercise check itself (exactly once per attempt): ask it for the progress it derives.
  document.addEventListener('lesson:exercise-check', () => refresh());
  subscribe((status, change) => {
    showStatus(status);
    if (change?.rejected && progressTypes.has(change.rejected.type)) rebuild();
    if (change?.acked?.type === 'self.rating' && change.acked.lesson === lesson) intervals();
  });
  load();
  // Offline, the cached copy may still know where the learner was.
  refresh().then((answer) => { if (answer !== 'refused') offerToResume(); });
}
