// Answers in your own words: each question the server lists in `data-rubrics` (ladder, interview and the design
// scenario's) gets an answer box and "Check my answer" (answer-score.js); the points made and missed appear above the
// model answer, which opens, and the self-rating buttons (progress-view.js) rate it as before. Without JavaScript the
// answers are revealed as before.

import { el, div, button, dataList } from './dom.js';
import { checkAnswer } from './answer-score.js';

const root = document.querySelector('[data-lesson][data-rubrics]');
if (root) init(root);

function init(lessonElement) {
  const lesson = lessonElement.dataset.lesson;
  const questions = new Set(dataList(lessonElement.dataset.rubrics));
  const ratingLabels = dataList(lessonElement.dataset.ratingLabels);
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

async function submit(field, check, result, details, options) {
  const score = await checkAnswer(field, check, result, options);
  if (score && details && !details.hasAttribute('data-held')) details.open = true;
}
