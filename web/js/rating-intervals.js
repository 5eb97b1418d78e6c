// When each self-rating brings a ladder question back, as the quiz's scheduler (FSRS) has it for this learner now:
// GET /api/quiz/lessons/{id}/intervals answers {rungs: {L1: ["1 min", "2 min", "2 days", "8 days"], ...}}, Again to
// Easy. The rating buttons show them and the confirmation after a tap names the chosen one. They are asked for when a
// rating group first shows (a page nobody rates on costs the server nothing), and again once the server has a new
// rating, which moved its question's schedule: that rung's are dropped at the tap, so until then, and offline, it
// shows none rather than stale ones.

let rungs = {};
let asked = null; // the request in flight or answered; null until asked, or after a failure

/** Asks the server for every rung's intervals (once, unless `again`); resolves to whether it answered. */
export function loadIntervals(lesson, { again = false } = {}) {
  if (asked && !again) return asked;
  asked = fetch(`/api/quiz/lessons/${encodeURIComponent(lesson)}/intervals`, { credentials: 'same-origin' })
    .then(async (response) => {
      if (!response.ok) throw new Error(`server answered ${response.status}`);
      rungs = (await response.json()).rungs || {};
      return true;
    })
    .catch(() => {
      asked = null; // offline or refused: the buttons go without intervals, and the next showing asks again
      return false;
    });
  return asked;
}

/** The rung's intervals, Again to Easy, or null when not known (yet). */
export function intervalsOf(item) {
  return rungs[item] || null;
}

/** Forgets a rung's intervals: the rating just made changed them. */
export function dropIntervals(item) {
  delete rungs[item];
}
