// Fix-the-sink exercises on the Sandbox tab. The server renders each exercise (article[data-exercise]: title, task,
// starter code in a <pre>), readable without JavaScript; this module turns each starter into the same editor the
// snippets use (editor.js) with Check (button, Ctrl/Cmd+Enter) and Reset. Check posts {source, attempt} to
// POST /api/exercises/{id}/check, with a fresh attempt id per Check that is kept when the request is sent again
// after a network failure, so the server records each check exactly once. The result shows every scenario, passed
// or failed, with its verdicts ("duplicate write of o3 after replay from offset 2"), whether the exercise passed,
// and compile errors listed and marked at their lines as in the sandbox. The server records the check itself (an
// `exercise.check` event); this module announces it with `lesson:exercise-check` {exercise, passed, status} for
// progress.js, which shows the checkmark. Verdicts, output and messages are program text: textContent only. A
// deep link to an exercise (#sandbox/exercise/<id>, where the quiz's verdict questions point) brings it into view
// once the editors are built (they change the page's layout). After a first check of their own, a learner can open
// the exercise's reference solution (read-only, below the results): its button shows once the server has a check of
// theirs recorded (the server refuses the solution before that).

import { loadEditor, createEditor, showDiagnostics } from './editor.js';
import { uuid } from './uuid.js';
import { reveal } from './tabs.js';
import { button } from './dom.js';

const slot = document.querySelector('[data-exercises]');
const RESENDS = 2;   // after a network failure, the same attempt is sent again this many times
// Exercises this learner has a recorded check of: their reference solution is open. progress.js announces the
// server's progress with `lesson:progress`; a check made here opens it at once.
const unlocked = new Set();
const byId = new Map();
document.addEventListener('lesson:progress', (event) => {
  for (const [id, checks] of Object.entries(event.detail?.exercises || {})) {
    if (checks.checks > 0) unlock(id);
  }
});

function unlock(id) {
  unlocked.add(id);
  const exercise = byId.get(id);
  if (exercise) exercise.solutionButton.hidden = false;
}

if (slot) init();

async function init() {
  slot.querySelector('.fix-exercises-needs-js')?.remove();
  const hasCodeMirror = await loadEditor();
  const exercises = [...slot.querySelectorAll('article[data-exercise]')].map((el) => new Exercise(el, hasCodeMirror));
  // A deep link to an exercise (#sandbox/exercise/<id>, as the quiz's verdict questions link) was routed before the
  // editors changed the layout: bring it into view again.
  const linked = exercises.find((e) => decodeURIComponent(location.hash.slice(1)) === e.element.id);
  if (linked) reveal(linked.element, true);
  // An editor made while the Sandbox tab was hidden measures itself again when the tab is shown.
  document.addEventListener('lesson:route', (event) => {
    if (event.detail && event.detail.tab === 'sandbox') for (const e of exercises) e.editor.refresh();
  });
}

class Exercise {
  constructor(el, hasCodeMirror) {
    this.element = el;
    this.id = el.dataset.exercise;
    this.title = el.querySelector('.fix-exercise-name')?.textContent || this.id;
    const pre = el.querySelector('pre[data-source]');
    this.starter = pre.textContent;
    this.checking = false;
    this.marks = [];
    this.editor = createEditor(pre, {
      text: this.starter,
      label: 'Java source of the exercise ' + this.title + ' (Ctrl+Enter checks)',
      run: () => this.run(),
      hasCodeMirror,
    });

    const toolbar = document.createElement('div');
    toolbar.className = 'sandbox-toolbar fix-exercise-toolbar';
    toolbar.setAttribute('role', 'toolbar');
    toolbar.setAttribute('aria-label', 'Exercise ' + this.title);
    this.checkButton = button('Check', () => this.run());
    this.checkButton.className = 'sandbox-run';
    this.checkButton.dataset.check = this.id;
    this.checkButton.setAttribute('aria-keyshortcuts', 'Control+Enter Meta+Enter');
    this.solutionButton = button('Reference solution', () => this.showSolution());
    this.solutionButton.dataset.solution = this.id;
    this.solutionButton.hidden = !unlocked.has(this.id);
    byId.set(this.id, this);
    toolbar.append(this.checkButton, button('Reset', () => this.reset()), this.solutionButton);
    el.append(toolbar);
    el.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.run();
      }
    });

    this.status = document.createElement('p');
    this.status.className = 'sandbox-status fix-exercise-status';
    this.status.setAttribute('role', 'status');
    this.status.dataset.status = '';
    this.status.textContent = 'Not checked yet.';
    this.diagnostics = document.createElement('ul');
    this.diagnostics.className = 'sandbox-diagnostics';
    this.diagnostics.setAttribute('aria-label', 'Diagnostics');
    this.diagnostics.dataset.diagnostics = '';
    this.diagnostics.hidden = true;
    this.scenarios = document.createElement('ol');
    this.scenarios.className = 'fix-exercise-scenarios';
    this.scenarios.setAttribute('aria-label', 'Scenarios');
    this.scenarios.dataset.scenarios = '';
    this.scenarios.hidden = true;
    this.output = document.createElement('details');
    this.output.className = 'fix-exercise-output';
    this.output.hidden = true;
    const summary = document.createElement('summary');
    summary.textContent = 'Program output';
    this.stdout = document.createElement('pre');
    this.stdout.dataset.stdout = '';
    this.stderr = document.createElement('pre');
    this.stderr.dataset.stderr = '';
    this.output.append(summary, this.stdout, this.stderr);
    this.solution = document.createElement('details');
    this.solution.className = 'fix-exercise-solution';
    this.solution.hidden = true;
    const solutionSummary = document.createElement('summary');
    solutionSummary.textContent = 'Reference solution';
    const solutionNote = document.createElement('p');
    solutionNote.textContent = 'One way to pass every scenario; yours may differ and still pass. Your code in the editor '
      + 'stays as it is.';
    this.solutionSource = document.createElement('pre');
    this.solutionSource.dataset.solutionSource = '';
    this.solution.append(solutionSummary, solutionNote, this.solutionSource);
    el.append(this.status, this.diagnostics, this.scenarios, this.output, this.solution);
  }

  async run() {
    if (this.checking) return;
    this.checking = true;
    this.checkButton.disabled = true;
    this.element.dataset.state = 'running';
    this.clear();
    this.say('Checking: running your sink under every crash point\u2026');
    try {
      const { response, body } = await this.send(JSON.stringify({ source: this.editor.get(), attempt: uuid() }));
      if (response.status === 429) this.finish('busy', 'The sandbox is busy. Try again in a moment.');
      else if (!response.ok) this.finish('error', 'Rejected by the server: ' + (body.error || `HTTP ${response.status}`));
      else this.show(body);
    } catch {
      this.finish('error', 'Could not reach the server. Check your connection and try again.');
    } finally {
      this.checking = false;
      this.checkButton.disabled = false;
    }
  }

  /** The reference solution, which the server gives once this learner has checked an attempt of their own. */
  async showSolution() {
    try {
      const response = await fetch(`/api/exercises/${encodeURIComponent(this.id)}/solution`,
        { headers: { Accept: 'application/json' } });
      const body = await response.json().catch(() => ({}));
      if (!response.ok) {
        this.say(body.error ? body.error.charAt(0).toUpperCase() + body.error.slice(1) + '.' : `Could not load the solution (HTTP ${response.status}).`);
        return;
      }
      this.solutionSource.textContent = body.source;
      this.solution.hidden = false;
      this.solution.open = true;
      this.solution.scrollIntoView({ block: 'nearest' });
    } catch {
      this.say('Could not reach the server. Check your connection and try again.');
    }
  }

  /** Posts one check; a network failure sends the same body (the same attempt) again, so it is recorded once. */
  async send(body) {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(`/api/exercises/${encodeURIComponent(this.id)}/check`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body,
        });
        return { response, body: await response.json().catch(() => ({})) };
      } catch (error) {
        if (attempt >= RESENDS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
      }
    }
  }

  show(result) {
    if (result.recordedAt) {
      unlock(this.id);
      document.dispatchEvent(new CustomEvent('lesson:exercise-check',
        { detail: { exercise: this.id, passed: Boolean(result.passed), status: result.status, attempt: result.attempt } }));
    }
    const diagnostics = result.diagnostics || [];
    this.marks.push(...showDiagnostics(this.diagnostics, diagnostics, this.editor));
    const scenarios = result.scenarios || [];
    this.scenarios.replaceChildren();
    this.scenarios.hidden = scenarios.length === 0;
    for (const s of scenarios) {
      const item = document.createElement('li');
      item.className = 'fix-exercise-scenario';
      item.dataset.scenario = s.name;
      item.dataset.passed = String(!!s.passed);
      const head = document.createElement('span');
      head.className = 'fix-exercise-scenario-name';
      head.textContent = `${s.passed ? '\u2713 Passed' : '\u2717 Failed'}: ${s.name}`;
      item.append(head);
      if (s.verdicts && s.verdicts.length) {
        const verdicts = document.createElement('ul');
        for (const v of s.verdicts) {
          const li = document.createElement('li');
          li.className = 'fix-exercise-verdict';
          li.textContent = v;
          verdicts.append(li);
        }
        item.append(verdicts);
      }
      this.scenarios.append(item);
    }
    this.stdout.textContent = result.stdout || '';
    this.stderr.textContent = result.stderr || '';
    this.stderr.hidden = !result.stderr;
    this.output.hidden = !result.stdout && !result.stderr;
    const first = diagnostics[0];
    const where = first && first.line > 0 ? ` (line ${first.line})` : '';
    if (result.passed) {
      this.finish('passed', `Passed: all ${scenarios.length} scenarios hold \u00B7 ${result.elapsedMs} ms`);
    } else if (result.status === 'compile_error') {
      this.finish('compile_error', `Compile error${diagnostics.length > 1 ? `s (${diagnostics.length})` : ''}${where}`);
    } else if (result.status && result.status !== 'ok') {
      this.finish(result.status, `Not passed: the run ended with ${result.status.replace(/_/g, ' ')}${first ? ': ' + first.message + where : ''}`);
    } else {
      const failed = scenarios.filter((s) => !s.passed).length;
      this.finish('failed', `Not passed: ${failed} of ${scenarios.length} scenarios failed`);
    }
  }

  clear() {
    for (const unmark of this.marks.splice(0)) unmark();
    this.diagnostics.replaceChildren();
    this.diagnostics.hidden = true;
    this.scenarios.replaceChildren();
    this.scenarios.hidden = true;
    this.output.hidden = true;
  }

  reset() {
    this.editor.set(this.starter);
    this.clear();
    this.element.dataset.state = 'idle';
    this.say('Reset to the starter code.');
  }

  finish(state, message) {
    this.element.dataset.state = state;
    this.say(message);
  }

  say(message) {
    this.status.textContent = message;
  }
}
