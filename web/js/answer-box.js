// Answers in your own words: each question the server lists in `data-rubrics` (ladder, interview and the design
// scenario's) gets an answer box and "Check my answer". The server matches the answer against the key points of the
// model answer (the page never holds the rubric); the points made and missed appear above the model answer, which
// opens, and the self-rating buttons (progress-view.js) rate it as before. The suggested rating is only shown, never
// pressed. Without JavaScript the answers are revealed as before.

import { el, div, span, button } from './dom.js';

const root = document.querySelector('[data-lesson][data-rubrics]');
if (root) init(root);

function init(lessonElement) {
  const lesson = lessonElement.dataset.lesson;
  const questions = new Set(readList(lessonElement.dataset.rubrics));
  const ratingLabels = readList(lessonElement.dataset.ratingLabels);
  const maxChars = Number(lessonElement.dataset.rubricMaxChars) || 4000;
  for (const item of lessonElement.querySelectorAll('.ladder-item[id], .interview-item[id], .scenario-question[id]')) {
    const question = item.id.split('/').slice(1).join('/');
    if (questions.has(question)) addBox(item, { lesson, question, ratingLabels, maxChars });
  }
}

function addBox(item, options) {
  const details = item.querySelector(':scope > details');
  const result = div('answer-score');
  result.setAttribute('aria-live', 'polite');
  result.hidden = true;
  let field = item.querySelector(':scope > textarea');
  const check = button('Check my answer', () => submit(field, check, result, details, options),
    { class: 'answer-check' });
  if (field) {
    field.after(div('answer-actions', check));
  } else {
    const fieldId = `${item.id}/typed`;
    field = el('textarea', { id: fieldId, name: fieldId, rows: '4', class: 'answer-field' });
    const question = item.querySelector(':scope > .question');
    if (question) {
      question.id ||= `${item.id}/question`;
      field.setAttribute('aria-describedby', question.id);
    }
    details.before(el('label', { for: fieldId, class: 'answer-label', text: 'Your answer' }), field,
      div('answer-actions', check));
  }
  field.maxLength = options.maxChars;
  details.before(result);
}

async function submit(field, check, result, details, { lesson, question, ratingLabels }) {
  const answer = field.value.trim();
  if (!answer) {
    show(result, [el('p', { text: 'Type your answer first, then check it against the key points.' })]);
    field.focus();
    return;
  }
  check.disabled = true;
  show(result, [el('p', { text: 'Checking…' })]);
  try {
    const response = await fetch(`/api/lessons/${encodeURIComponent(lesson)}/questions/${encodeURIComponent(question)}/score`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ answer }),
    });
    const body = await response.json().catch(() => null);
    if (!response.ok) {
      show(result, [el('p', { text: body?.error || `The answer could not be checked (HTTP ${response.status}).` })]);
      return;
    }
    show(result, render(body, ratingLabels));
    if (body.scored && details && !details.hasAttribute('data-held')) details.open = true;
  } catch {
    show(result, [el('p', { text: 'The answer could not be checked now (is the server reachable?). Try again later.' })]);
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

function readList(text) {
  try {
    const list = JSON.parse(text || '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}
