// Checks a typed answer against the key points of a question's model answer: the server matches it (the page never
// holds the rubric) and the points made and missed are shown in `result`. Shared by the lesson page's answer boxes
// (answer-box.js) and the quiz's self-graded questions (quiz.js). The suggested rating is only shown, never pressed.

import { el, span, sentence } from './dom.js';

/** Scores `field`'s answer into `result`; resolves to the score when the answer was scored, else null. */
export async function checkAnswer(field, check, result, { lesson, question, ratingLabels }) {
  const answer = field.value.trim();
  if (!answer) {
    show(result, [el('p', { text: 'Type your answer first, then check it against the key points.' })]);
    field.focus();
    return null;
  }
  check.disabled = true;
  show(result, [el('p', { text: 'Checking…' })]);
  try {
    const response = await fetch(`/api/lessons/${encodeURIComponent(lesson)}/questions/${encodeURIComponent(question)}/score`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ answer }),
    });
    const body = await response.json().catch(() => null);
    if (!response.ok) {
      show(result, [el('p', { text: body?.error ? sentence(body.error) : `The answer could not be checked (HTTP ${response.status}).` })]);
      return null;
    }
    show(result, render(body, ratingLabels));
    return body.scored ? body : null;
  } catch {
    show(result, [el('p', { text: 'The answer could not be checked now (is the server reachable?). Try again later.' })]);
    return null;
  } finally {
    check.disabled = false;
  }
}

function render(score, ratingLabels) {
  const nodes = [el('p', { class: 'answer-score-note', text: score.note })];
  if (!score.scored) return nodes;
  if (score.hit.length) {
    nodes.push(el('p', { class: 'answer-score-heading', text: 'Points you made' }), el('ul', { class: 'answer-points answer-hit' },
      ...score.hit.map((hit) => el('li', {}, span('✓ ', 'answer-mark'), span(hit.label), ' ',
        span(`(“${hit.evidence}”)`, 'answer-evidence')))));
  }
  if (score.misconceptions?.length) {
    nodes.push(el('p', { class: 'answer-score-heading', text: 'A misconception in your answer' }), el('ul', { class: 'answer-points answer-misconception' },
      ...score.misconceptions.map((m) => el('li', {}, span('⚠ ', 'answer-mark'), span(m.says), ' ',
        span(`(you wrote “${m.evidence}”)`, 'answer-evidence')))));
  }
  if (score.missed.length) {
    nodes.push(el('p', { class: 'answer-score-heading', text: 'Points you missed' }), el('ul', { class: 'answer-points answer-missed' },
      ...score.missed.map((label) => el('li', {}, span('✗ ', 'answer-mark'), span(label)))));
  }
  const suggested = ratingLabels[score.suggested - 1];
  if (suggested) {
    nodes.push(el('p', { class: 'answer-suggestion', text: `Compare with the model answer below. The points suggest `
      + `rating it ${suggested}; how well you knew it is yours to say.` }));
  }
  return nodes;
}

function show(result, nodes) {
  result.replaceChildren(...nodes);
  result.hidden = false;
}
