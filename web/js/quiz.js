// Quiz runner: one question at a time, keyboard first. Number keys choose options (or the next step of an
// ordering), Space reveals a model answer, 1-4 rate it, Backspace undoes a step, Enter moves on. A self-graded
// question with key points also takes a typed answer: "Check my answer" scores it, then reveals the model answer.
// Answers are quiz.answer events with client-generated ids, sent through the progress outbox; the server grades
// each id once, so a retry gets the original verdict. User-visible text goes through textContent only.

import { record, subscribe } from './outbox.js';
import { checkAnswer } from './answer-score.js';
import { dataList } from './dom.js';

const root = document.querySelector('.quiz');
if (root) start(root);

function start(root) {
  const session = root.dataset.session;
  const mode = root.dataset.mode;
  const seconds = Number(root.dataset.seconds || 0);
  const resultsUrl = root.dataset.results;
  const questions = Array.from(root.querySelectorAll('.quiz-question'));
  const progress = root.querySelector('.quiz-progress');
  const timerLine = root.querySelector('.quiz-timer');
  const finish = root.querySelector('.quiz-finish');
  const pending = new Set();
  const ratingLabels = dataList(root.dataset.ratingLabels);
  let current = 0;
  let timer = null;

  root.dataset.state = 'running';
  finish.hidden = true;
  questions.forEach((q) => { q.dataset.state = q.dataset.answered === 'yes' ? 'answered' : 'open'; q.hidden = true; });
  // After a reload, carry on at the first question not answered yet (the server marks the answered ones).
  const resumeAt = questions.findIndex((q) => q.dataset.state !== 'answered');
  if (resumeAt < 0) window.location.assign(resultsUrl);
  else show(resumeAt);

  function show(i) {
    stopTimer();
    questions.forEach((q, n) => { q.hidden = n !== i; });
    current = i;
    const q = questions[i];
    progress.textContent = `Question ${i + 1} of ${questions.length}`;
    q.focus();
    if (mode === 'interview') startTimer(q);
  }

  function startTimer(q) {
    let left = seconds;
    timerLine.hidden = false;
    timerLine.textContent = `${left} s left`;
    timer = setInterval(() => {
      left -= 1;
      timerLine.textContent = `${Math.max(left, 0)} s left`;
      if (left === 10) timerLine.setAttribute('aria-live', 'polite');
      if (left <= 0) {
        stopTimer();
        if (q.dataset.state !== 'answered') submit(q, { skip: true });
      }
    }, 1000);
  }

  function stopTimer() {
    if (timer) clearInterval(timer);
    timer = null;
    timerLine.setAttribute('aria-live', 'off');
  }

  // ---- answering -----------------------------------------------------------------------------------------

  function choose(q, index) {
    const button = q.querySelector(`[data-choice="${index}"]`);
    if (!button || q.dataset.state === 'answered') return;
    button.setAttribute('aria-pressed', 'true');
    submit(q, { choice: index });
  }

  function pickStep(q, index) {
    const button = q.querySelector(`[data-step="${index}"]`);
    if (!button || button.disabled || q.dataset.state === 'answered') return;
    button.disabled = true;
    const item = document.createElement('li');
    item.dataset.step = String(index);
    item.textContent = button.textContent.replace(/^\d+\s*/, '');
    q.querySelector('.quiz-picked').append(item);
    q.querySelector('[data-undo]').disabled = false;
    const picked = Array.from(q.querySelectorAll('.quiz-picked li')).map((li) => Number(li.dataset.step));
    if (picked.length === q.querySelectorAll('button[data-step]').length) {
      submit(q, { order: picked });
    } else {
      const next = q.querySelector('button[data-step]:not([disabled])');
      if (next) next.focus();
    }
  }

  function undoStep(q) {
    if (q.dataset.state === 'answered') return;
    const last = q.querySelector('.quiz-picked li:last-child');
    if (!last) return;
    q.querySelector(`button[data-step="${last.dataset.step}"]`).disabled = false;
    last.remove();
    q.querySelector('[data-undo]').disabled = !q.querySelector('.quiz-picked li');
  }

  function reveal(q) {
    const answer = q.querySelector('.quiz-model-answer');
    if (!answer || !answer.hidden) return;
    answer.hidden = false;
    q.querySelector('.quiz-ratings').hidden = false;
    q.querySelector('[data-reveal]').hidden = true;
    q.dataset.revealed = 'yes';
    q.querySelector('[data-rating="3"]').focus();
  }

  /** The typed answer checked against the key points; once scored, the model answer opens beside its points. */
  async function checkTyped(q, check) {
    const score = await checkAnswer(q.querySelector('.answer-field'), check, q.querySelector('.answer-score'),
      { lesson: q.dataset.lesson, question: q.dataset.item, ratingLabels });
    if (score) reveal(q);
  }

  function rate(q, rating) {
    if (q.dataset.revealed !== 'yes' || q.dataset.state === 'answered') return;
    q.querySelector(`[data-rating="${rating}"]`).setAttribute('aria-pressed', 'true');
    submit(q, { rating });
  }

  function submit(q, given) {
    stopTimer();
    q.dataset.state = 'answered';
    q.querySelectorAll('button[data-choice], button[data-step], button[data-rating], [data-undo], [data-reveal]')
      .forEach((b) => { b.disabled = true; });
    const data = { session, question: q.dataset.question, ...given };
    const feedback = q.querySelector('.quiz-feedback');
    const sending = send(q.dataset.lesson, q.dataset.item, data).then((ack) => {
      if (mode === 'practice') showFeedback(q, ack);
    }).catch((error) => {
      feedback.dataset.state = 'error';
      feedback.textContent = `Your answer was not accepted: ${error.message}`;
    }).finally(() => pending.delete(sending));
    pending.add(sending);
    if (mode === 'practice') {
      feedback.textContent = 'Checking…';
      sending.then(() => offerNext(q));
    } else {
      advance();
    }
  }

  function showFeedback(q, ack) {
    const feedback = q.querySelector('.quiz-feedback');
    feedback.replaceChildren();
    const result = ack && ack.result;
    if (!result) {
      feedback.textContent = 'Answer saved; your results page has the verdict.';
      return;
    }
    const verdict = document.createElement('p');
    verdict.className = 'quiz-verdict';
    const selfGraded = q.dataset.kind === 'self-graded';
    verdict.textContent = selfGraded ? 'Rating saved.' : (result.correct ? 'Right.' : 'Not quite.');
    feedback.dataset.state = selfGraded ? 'saved' : (result.correct ? 'right' : 'wrong');
    feedback.append(verdict);
    if (!selfGraded && !result.correct && result.expected) {
      const expected = document.createElement('p');
      expected.append('Right answer: ', ...withCode(result.expected));
      feedback.append(expected);
    }
    if (!selfGraded && result.explanation) {
      const explanation = document.createElement('p');
      explanation.className = 'quiz-explanation';
      explanation.append(...withCode(result.explanation));
      feedback.append(explanation);
    }
    if (result.comesBack) {
      const back = document.createElement('p');
      back.className = 'quiz-comes-back-line';
      back.textContent = `This question comes back ${result.comesBack}.`;
      feedback.append(back);
    }
    if (result.link) {
      const link = document.createElement('a');
      link.href = result.link;
      link.textContent = 'Read about it in the lesson';
      feedback.append(link);
    }
  }

  // Lesson text marks code with backticks, as the options on the page show it; anything else stays plain text.
  function withCode(text) {
    return String(text).split('`').map((part, i) => {
      if (i % 2 === 0) return part;
      const code = document.createElement('code');
      code.textContent = part;
      return code;
    });
  }

  function offerNext(q) {
    const next = q.querySelector('[data-next]');
    next.hidden = false;
    next.querySelector('[data-next-label]').textContent =
      current === questions.length - 1 ? 'See your results' : 'Next question';
    next.focus();
  }

  function advance() {
    if (current < questions.length - 1) {
      show(current + 1);
      return;
    }
    root.dataset.state = 'finishing';
    progress.textContent = 'Saving your answers…';
    Promise.allSettled(Array.from(pending)).then(() => { window.location.assign(resultsUrl); });
  }

  // ---- sending -------------------------------------------------------------------------------------------

  // The progress outbox keeps the event until the server acknowledges it (retrying across failures and reloads)
  // and tells its subscribers when it leaves: acknowledged with the server's response, or refused with a reason.
  function send(lesson, item, data) {
    return new Promise((resolve, reject) => {
      let id = null;
      const early = [];
      const settle = (change) => {
        const event = change.acked || change.rejected;
        if (!event || event.id !== id) return false;
        unsubscribe();
        if (change.acked) resolve(change.response);
        else reject(new Error(change.error));
        return true;
      };
      const unsubscribe = subscribe((status, change) => {
        if (!change) return;
        if (id === null) early.push(change);
        else settle(change);
      });
      id = record('quiz.answer', lesson, item, data).id;
      early.some(settle);
    });
  }

  // ---- input ---------------------------------------------------------------------------------------------

  root.addEventListener('click', (e) => {
    const q = e.target.closest('.quiz-question');
    if (!q) return;
    const button = e.target.closest('button');
    if (!button) return;
    if (button.dataset.choice !== undefined) choose(q, Number(button.dataset.choice));
    else if (button.dataset.step !== undefined) pickStep(q, Number(button.dataset.step));
    else if (button.hasAttribute('data-undo')) undoStep(q);
    else if (button.hasAttribute('data-reveal')) reveal(q);
    else if (button.hasAttribute('data-check')) checkTyped(q, button);
    else if (button.dataset.rating !== undefined) rate(q, Number(button.dataset.rating));
    else if (button.hasAttribute('data-next')) advance();
  });

  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || root.dataset.state !== 'running') return;
    if (e.target.closest('input, textarea, select')) return;
    const q = questions[current];
    const onButton = e.target.tagName === 'BUTTON';
    const kind = q.dataset.kind;
    if (/^[1-9]$/.test(e.key)) {
      const n = Number(e.key);
      e.preventDefault();
      if (kind === 'self-graded') { if (n <= 4) rate(q, n); } else if (kind === 'order') pickStep(q, n - 1);
      else choose(q, n - 1);
    } else if (e.key === ' ' && !onButton && kind === 'self-graded') {
      e.preventDefault();
      reveal(q);
    } else if (e.key === 'Backspace' && kind === 'order') {
      e.preventDefault();
      undoStep(q);
    } else if (e.key === 'Enter' && !onButton && !q.querySelector('[data-next]').hidden) {
      e.preventDefault();
      advance();
    }
  });
}
