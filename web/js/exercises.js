// Fix-the-sink exercises on the Sandbox tab. The server renders each exercise (article[data-exercise]: title, task,
// starter code in a <pre>), readable without JavaScript, with its toolbar (Check, Reset, Reference solution) and
// result panels hidden; this module turns each starter into the same editor the snippets use (editor.js), shows the
// toolbar and runs Check (button, Ctrl/Cmd+Enter) through the run widget the snippets share (run-widget.js). Edits
// are kept in this browser as they are typed (drafts.js) and come back on reload; Reset to starter asks before it
// discards them. Check posts {source, attempt} to
// POST /api/exercises/{id}/check, with a fresh attempt id per Check that is kept when the request is sent again
// after a network failure, so the server records each check exactly once. A failed check leads with the server's
// digest of it: the first failed scenario and what a reader saw there, the failures grouped by reason, and one hint
// from the exercise's data; below it, collapsed, every scenario, the failed ones first, with its verdicts ("duplicate
// write of o3 after replay from offset 2"). The status line says whether the exercise passed,
// and compile errors listed and marked at their lines as in the sandbox. The server records the check itself (an
// `exercise.check` event); this module announces it with `lesson:exercise-check` {exercise, passed, status} for
// progress.js, which shows the checkmark. Verdicts, output and messages are program text: textContent only. A
// deep link to an exercise (#sandbox/exercise/<id>, where the quiz's verdict questions point) brings it into view
// once the editors are built (they change the page's layout). After a first check of their own, a learner can open
// the exercise's reference solution (read-only, below the results): its button shows once the server has a check of
// theirs recorded (the server refuses the solution before that).

import { loadEditor, createEditor, whenShown } from './editor.js';
import { uuid } from './uuid.js';
import { reveal } from './tabs.js';
import { el, span, sentence } from './dom.js';
import { RunWidget, compileErrors, where } from './run-widget.js';
import { draftOf } from './drafts.js';

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

if (slot) whenShown(slot, init);

async function init() {
  slot.querySelector('.fix-exercises-needs-js')?.remove();
  const hasCodeMirror = await loadEditor();
  const exercises = [...slot.querySelectorAll('article[data-exercise]')].map((element) => new Exercise(element, hasCodeMirror));
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
  constructor(element, hasCodeMirror) {
    this.element = element;
    this.id = element.dataset.exercise;
    this.title = element.querySelector('.fix-exercise-name')?.textContent || this.id;
    const pre = element.querySelector('pre[data-source]');
    this.starter = pre.textContent;
    this.editor = createEditor(pre, {
      text: this.starter,
      label: 'Java source of the exercise ' + this.title + ' (Ctrl+Enter checks)',
      run: () => this.run(),
      hasCodeMirror,
    });
    this.status = element.querySelector('[data-status]');
    this.scenarios = element.querySelector('[data-scenarios]');
    this.digest = element.querySelector('[data-digest]');
    this.all = element.querySelector('[data-all-scenarios]');
    this.allSummary = element.querySelector('[data-all-summary]');
    const diagnostics = element.querySelector('[data-diagnostics]');
    this.widget = new RunWidget(element, {
      button: element.querySelector('[data-check]'), status: this.status, diagnostics,
      editor: this.editor, run: () => this.run(), clear: () => this.clear(),
      results: [diagnostics, this.digest, this.all],
    });
    this.output = element.querySelector('.fix-exercise-output');
    this.stdout = element.querySelector('[data-stdout]');
    this.stderr = element.querySelector('[data-stderr]');
    this.solution = element.querySelector('.fix-exercise-solution');
    this.solutionSource = element.querySelector('[data-solution-source]');
    this.solutionButton = element.querySelector('[data-solution]');
    this.solutionButton.hidden = !unlocked.has(this.id);
    this.solutionButton.addEventListener('click', () => this.showSolution());
    element.querySelector('[data-reset]').addEventListener('click', () => this.reset());
    byId.set(this.id, this);
    element.querySelector('.fix-exercise-toolbar').hidden = false;
    this.status.hidden = false;
    this.draft = draftOf('exercise', this.id);
    const kept = this.draft.load();
    if (typeof kept?.source === 'string' && kept.source !== this.starter) {
      this.editor.set(kept.source);
      this.say('Your edits from last time are back. Reset to starter brings back the starter code.');
    }
    this.editor.onChange(() => this.keep());
  }

  /** Keeps the edit in this browser; an editor back at the starter keeps nothing. */
  keep() {
    const source = this.editor.get();
    if (source === this.starter) this.draft.remove();
    else this.draft.save({ source });
  }

  async run() {
    if (this.widget.running) return;
    const body = JSON.stringify({ source: this.editor.get(), attempt: uuid() });
    await this.widget.request(() => this.send(body), (result) => this.show(result),
      { working: 'Checking: running your sink under every crash point\u2026' });
  }

  /** The reference solution, which the server gives once this learner has checked an attempt of their own. */
  async showSolution() {
    try {
      const response = await fetch(`/api/exercises/${encodeURIComponent(this.id)}/solution`,
        { headers: { Accept: 'application/json' } });
      const body = await response.json().catch(() => ({}));
      if (!response.ok) {
        this.say(body.error ? sentence(body.error) : `Could not load the solution (HTTP ${response.status}).`);
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
        return await fetch(`/api/exercises/${encodeURIComponent(this.id)}/check`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body,
        });
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
    this.clear();
    const diagnostics = result.diagnostics || [];
    this.widget.showDiagnostics(diagnostics);
    const scenarios = result.scenarios || [];
    this.all.hidden = scenarios.length === 0;
    const failures = scenarios.filter((s) => !s.passed).length;
    this.allSummary.textContent = `All ${scenarios.length} scenarios` + (failures ? ` (${failures} failed)` : '');
    if (result.digest) this.showDigest(result.digest);
    else this.all.open = failures > 0;   // no digest to lead with: the list itself
    // The failures first (in the checker's order), so a failed check's list opens with what to fix.
    for (const s of [...scenarios.filter((s) => !s.passed), ...scenarios.filter((s) => s.passed)]) {
      const item = el('li', { class: 'fix-exercise-scenario', 'data-scenario': s.name, 'data-passed': String(!!s.passed) },
        span(`${s.passed ? '\u2713 Passed' : '\u2717 Failed'}: ${s.name}`, 'fix-exercise-scenario-name'));
      if (s.verdicts && s.verdicts.length) {
        item.append(el('ul', {}, ...s.verdicts.map((v) => el('li', { class: 'fix-exercise-verdict', text: v }))));
      }
      this.scenarios.append(item);
    }
    this.stdout.textContent = result.stdout || '';
    this.stderr.textContent = result.stderr || '';
    this.stderr.hidden = !result.stderr;
    this.output.hidden = !result.stdout && !result.stderr;
    const first = diagnostics[0];
    if (result.passed) {
      this.finish('passed', `Passed: all ${scenarios.length} scenarios hold \u00B7 ${result.elapsedMs} ms`);
    } else if (result.status === 'compile_error') {
      this.finish('compile_error', compileErrors(diagnostics));
    } else if (result.status && result.status !== 'ok') {
      this.finish(result.status,
        `Not passed: the run ended with ${result.status.replace(/_/g, ' ')}${first ? ': ' + first.message + where(diagnostics) : ''}`);
    } else {
      const failed = scenarios.filter((s) => !s.passed).length;
      this.finish('failed', `Not passed: ${failed} of ${scenarios.length} scenarios failed`);
    }
  }

  /** The digest of a failed check (CheckDigest on the server): first failure, reasons, hint. Verdicts are text. */
  showDigest(digest) {
    const first = digest.first;
    const seen = (s) => el('li', { class: 'fix-exercise-seen', 'data-seen': '' },
      s.reader ? s.reader[0].toUpperCase() + s.reader.slice(1) + ': ' : '', span(s.verdict, 'fix-exercise-verdict'));
    const reason = (r) => el('li', { class: 'fix-exercise-reason', 'data-reason': '' },
      r.scenarios === digest.failed ? `All ${r.scenarios} failed scenarios: `
        : `${r.scenarios} of ${digest.failed} failed scenarios: `,
      r.label === r.example ? span(r.example, 'fix-exercise-verdict')
        : el('span', {}, r.label, ' (such as ', span(r.example, 'fix-exercise-verdict'), ')'));
    this.digest.replaceChildren(
      el('p', { class: 'fix-exercise-first', 'data-first-failure': '' },
        el('strong', { text: 'First failure: ' }), first.scenario),
      el('ul', { class: 'fix-exercise-seen-list' }, ...first.seen.map(seen)),
      el('p', { class: 'fix-exercise-reasons-heading', text: 'Why the scenarios failed:' }),
      el('ul', { class: 'fix-exercise-reasons', 'data-reasons': '' }, ...digest.reasons.map(reason)),
      digest.hint
        ? el('p', { class: 'fix-exercise-hint', 'data-hint': '' }, el('strong', { text: 'Hint: ' }), digest.hint) : '');
    this.digest.hidden = false;
  }

  clear() {
    this.widget.clearDiagnostics();
    this.scenarios.replaceChildren();
    this.digest.replaceChildren();
    this.digest.hidden = true;
    this.all.hidden = true;
    this.all.open = false;
    this.output.hidden = true;
  }

  reset() {
    if (this.editor.get() !== this.starter
      && !confirm(`Discard your edits to \u201C${this.title}\u201D and go back to the starter code?`)) return;
    this.widget.supersede();   // a check still under way must not show its verdicts over the starter
    this.editor.set(this.starter);
    this.draft.remove();
    this.clear();
    this.element.dataset.state = 'idle';
    this.say('Reset to the starter code.');
  }

  finish(state, message) {
    this.widget.finish(state, message);
  }

  say(message) {
    this.widget.say(message);
  }
}
