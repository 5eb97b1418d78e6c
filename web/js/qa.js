// Q&A tab: the question ladder revealed one level at a time (or all at once), and the design scenario's own
// answers kept in this browser (localStorage, per lesson and question) along with whether the model answer is open.

const lesson = document.querySelector('[data-lesson]')?.dataset.lesson;

for (const ladder of document.querySelectorAll('[data-ladder]')) initLadder(ladder);
for (const scenario of document.querySelectorAll('[data-scenario]')) initScenario(scenario);

function initLadder(ladder) {
  const answers = [...ladder.querySelectorAll('.ladder-item > details')];
  const controls = ladder.querySelector('.ladder-controls');
  const next = ladder.querySelector('[data-ladder-next]');
  const all = ladder.querySelector('[data-ladder-all]');
  const none = ladder.querySelector('[data-ladder-none]');
  const status = ladder.querySelector('.ladder-status');
  controls.hidden = false;

  const update = () => {
    const open = answers.filter((d) => d.open).length;
    next.disabled = open === answers.length;
    all.disabled = open === answers.length;
    none.disabled = open === 0;
    status.textContent = `${open} of ${answers.length} answers shown.`;
  };
  next.addEventListener('click', () => {
    const d = answers.find((a) => !a.open);
    if (!d) return;
    d.open = true;
    const item = d.closest('.ladder-item');
    item.scrollIntoView({ block: 'nearest' });
    update();
  });
  all.addEventListener('click', () => {
    answers.forEach((d) => (d.open = true));
    update();
  });
  none.addEventListener('click', () => {
    answers.forEach((d) => (d.open = false));
    update();
  });
  for (const d of answers) d.addEventListener('toggle', update);
  update();
}

function initScenario(scenario) {
  for (const field of scenario.querySelectorAll('textarea[data-scenario-answer]')) {
    const question = field.dataset.scenarioAnswer;
    const model = scenario.querySelector(`details[data-model-answer="${CSS.escape(question)}"]`);
    const key = `exactly-once-lab:${lesson}:scenario:${question}`;
    const saved = read(key);
    if (saved) {
      field.value = saved.text ?? '';
      if (model && saved.revealed) model.open = true;
    }
    const save = () => write(key, { text: field.value, revealed: Boolean(model?.open) });
    field.addEventListener('input', save);
    model?.addEventListener('toggle', save);
    // A details element's toggle event is queued, not dispatched, when it opens: a reload right after the click
    // would otherwise unload the page before the revealed state is written.
    window.addEventListener('pagehide', save);
  }
}

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || 'null');
  } catch {
    return null; // storage blocked or a value we did not write: start empty
  }
}

function write(key, value) {
  try {
    if (!value.text && !value.revealed) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or blocked: the answer stays on the page for this visit
  }
}
