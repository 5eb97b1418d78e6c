// What a runnable snippet (sandbox.js) and a fix-the-sink exercise (exercises.js) have in common: a button and
// Ctrl/Cmd+Enter that start a run, the widget's `data-state` (running, then the outcome), the status line, the
// diagnostics list with its marks in the editor, and what the learner is told when the sandbox is busy (429, with
// Retry-After), the server refuses the request or cannot be reached. Messages go into textContent only.
// A run shows as running only once it has taken SHOW_RUNNING_AFTER_MS, so a fast one does not flicker. Its end
// brings the status line and the results into view without moving the focus (the learner keeps typing or turning
// a knob); the status line is role=status, so screen readers announce the outcome.
// The widget always shows the outcome of the learner's last action: each request (a run, or the snippet's own such as
// setting its knobs) supersedes the ones before it, and an answer that arrives after it was superseded is ignored, so
// a slow run cannot overwrite what a later knob change, reset or run shows.

import { showDiagnostics } from './editor.js';

const SHOW_RUNNING_AFTER_MS = 150;

export class RunWidget {
  /**
   * @param element the widget (its `data-state` follows the run)
   * @param parts `button` starts `run`, as Ctrl/Cmd+Enter anywhere in `element` does; `status` is the status line;
   *   `diagnostics` the list for compile errors; `editor` the editor (editor.js) their marks go into; `results` the
   *   panels under the status line that a finished run fills, brought into view with it; `clear` empties them (the
   *   old results must not pass for those of a run that failed)
   */
  constructor(element, { button, status, diagnostics, editor, run, clear, results = [] }) {
    this.element = element;
    this.results = results;
    this.clear = clear;
    this.button = button;
    this.status = status;
    this.diagnostics = diagnostics;
    this.editor = editor;
    this.marks = [];
    this.running = false;
    this.latest = 0;   // the number of the learner's last request; answers to earlier ones are ignored
    this.timer = null;
    button.addEventListener('click', () => run());
    element.addEventListener('keydown', (event) => {
      // CodeMirror runs on its own Ctrl/Cmd+Enter and marks the key handled: one key press is one run.
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.defaultPrevented) {
        event.preventDefault();
        run();
      }
    });
  }

  /**
   * Starts the learner's next request: whatever the widget was waiting for is superseded (no longer running, its
   * answer ignored). Returns whether that request is still the last one, for the caller to ask when its answer comes.
   */
  supersede() {
    this.idle();
    const request = ++this.latest;
    return () => request === this.latest;
  }

  idle() {
    clearTimeout(this.timer);
    this.running = false;
    this.button.disabled = false;
  }

  /**
   * Sends a run (`send` returns a fetch promise) while the status says `working`, and hands the JSON of a successful
   * answer to `show`; a failure clears the old results and says why. With `retryWhenBusy`, a busy sandbox is asked
   * once more after its Retry-After (1 to 30 s); otherwise, or when it is still busy, the widget ends `busy`. An answer
   * to a run that a later request superseded changes nothing.
   */
  async request(send, show, { working, retryWhenBusy = false }) {
    const latest = this.supersede();
    this.running = true;
    this.button.disabled = true;
    this.timer = setTimeout(() => {
      this.element.dataset.state = 'running';
      this.say(working);
    }, SHOW_RUNNING_AFTER_MS);
    try {
      let response = await send();
      if (response.status === 429 && retryWhenBusy && latest()) {
        clearTimeout(this.timer);
        this.element.dataset.state = 'running';
        const wait = Math.min(30, Math.max(1, Number(response.headers.get('Retry-After')) || 1));
        this.say(`The sandbox is busy: retrying in ${wait} s\u2026`);
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        if (latest()) {
          this.say(working);
          response = await send();
        }
      }
      const body = await response.json().catch(() => ({}));
      if (!latest()) return;
      if (response.status === 429) {
        this.fail('busy', retryWhenBusy ? 'The sandbox is still busy. Try again in a moment.'
          : 'The sandbox is busy. Try again in a moment.');
      } else if (!response.ok) {
        this.fail('error', 'Rejected by the server: ' + (body.error || `HTTP ${response.status}`));
      } else {
        show(body);
      }
    } catch {
      if (latest()) this.fail('error', 'Could not reach the server. Check your connection and try again.');
    } finally {
      if (latest()) this.idle();   // a superseded run leaves the widget to the request that superseded it
    }
  }

  fail(state, message) {
    this.clear();
    this.finish(state, message);
  }

  /** Lists the run's diagnostics and marks their lines in the editor. */
  showDiagnostics(diagnostics) {
    this.marks.push(...showDiagnostics(this.diagnostics, diagnostics, this.editor));
  }

  clearDiagnostics() {
    for (const unmark of this.marks.splice(0)) unmark();
    this.diagnostics.replaceChildren();
    this.diagnostics.hidden = true;
  }

  /** Ends a run: its outcome, announced on the status line, which comes into view with the results. */
  finish(state, message) {
    this.element.dataset.state = state;
    this.say(message);
    this.reveal();
  }

  /**
   * Scrolls the status line and the results under it into view when any of it is outside the viewport: the status
   * line goes to the top (below the sticky tab bar, its scroll-margin), so as much of the results as fits shows
   * under it. The focus stays where it is.
   */
  reveal() {
    const shown = [this.status, ...this.results].filter((e) => !e.hidden && e.getClientRects().length);
    const top = this.status.getBoundingClientRect().top;
    const bottom = Math.max(...shown.map((e) => e.getBoundingClientRect().bottom));
    const margin = parseFloat(getComputedStyle(this.status).scrollMarginTop) || 0;
    if (top < margin || bottom > window.innerHeight) this.status.scrollIntoView({ block: 'start' });
  }

  say(message) {
    this.status.textContent = message;
  }
}

/** " (line 3)" for the first diagnostic that has a line, or "". */
export function where(diagnostics) {
  const first = diagnostics[0];
  return first && first.line > 0 ? ` (line ${first.line})` : '';
}

/** "Compile error (line 3)", or "Compile errors (2) (line 3)". */
export function compileErrors(diagnostics) {
  return `Compile error${diagnostics.length > 1 ? `s (${diagnostics.length})` : ''}${where(diagnostics)}`;
}
