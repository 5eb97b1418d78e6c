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
// once the editors are built (they change the page's layout).

import { loadEditor, createEditor, showDiagnostics } from './editor.js';
import { uuid } from './uuid.js';
import { reveal } from './tabs.js';
import { button } from './dom.js';

const slot = document.querySelector('[data-exercises]');
const RESENDS = 2;   // after a network failure, the same attempt is sent again this many times

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
    toolbar.append(this.checkButton, button('Reset', () => this.reset()));
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
    el.append(this.status, this.diagnostics, this.scenarios, this.output);
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
