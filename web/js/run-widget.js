// What a runnable snippet (sandbox.js) and a fix-the-sink exercise (exercises.js) have in common: a button and
// Ctrl/Cmd+Enter that start a run, the widget's `data-state` (running, then the outcome), the status line, the
// diagnostics list with its marks in the editor, and what the learner is told when the sandbox is busy (429, with
// Retry-After), the server refuses the request or cannot be reached. Messages go into textContent only.
// A run shows as running only once it has taken SHOW_RUNNING_AFTER_MS, so a fast one does not flicker. Its end
// brings the status line and the results into view without moving the focus (the learner keeps typing or turning
// a knob); the status line is role=status, so screen readers announce the outcome.

import { showDiagnostics } from './editor.js';

const SHOW_RUNNING_AFTER_MS = 150;

export class RunWidget {
  /**
   * @param element the widget (its `data-state` follows the run)
   * @param parts `button` starts `run`, as Ctrl/Cmd+Enter anywhere in `element` does; `status` is the status line;
   *   `diagnostics` the list for compile errors; `editor` the editor (editor.js) their marks go into; `results` the
   *   panels under the status line that a finished run fills, brought into view with it
   */
  constructor(element, { button, status, diagnostics, editor, run, results = [] }) {
    this.element = element;
    this.results = results;
    this.button = button;
    this.status = status;
    this.diagnostics = diagnostics;
    this.editor = editor;
    this.marks = [];
    this.running = false;
    button.addEventListener('click', () => run());
    element.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        run();
      }
    });
  }

  /**
   * Sends a request (`send` returns a fetch promise) while the status says `working`, and hands the JSON of a
   * successful answer to `show`. With `retryWhenBusy`, a busy sandbox is asked once more after its Retry-After
   * (1 to 30 s); otherwise, or when it is still busy, the widget ends `busy`. Resolves to whether `show` was called.
   */
  async request(send, show, { working, retryWhenBusy = false }) {
    this.running = true;
    this.button.disabled = true;
    const showRunning = () => {
      this.element.dataset.state = 'running';
      this.say(working);
    };
    const timer = setTimeout(showRunning, SHOW_RUNNING_AFTER_MS);
    try {
      let response = await send();
      if (response.status === 429 && retryWhenBusy) {
        clearTimeout(timer);
        this.element.dataset.state = 'running';
        const wait = Math.min(30, Math.max(1, Number(response.headers.get('Retry-After')) || 1));
        this.say(`The sandbox is busy: retrying in ${wait} s\u2026`);
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        this.say(working);
        response = await send();
      }
      const body = await response.json().catch(() => ({}));
      if (response.status === 429) {
        this.finish('busy', retryWhenBusy ? 'The sandbox is still busy. Try again in a moment.'
          : 'The sandbox is busy. Try again in a moment.');
      } else if (!response.ok) {
        this.finish('error', 'Rejected by the server: ' + (body.error || `HTTP ${response.status}`));
      } else {
        show(body);
        return true;
      }
    } catch {
      this.finish('error', 'Could not reach the server. Check your connection and try again.');
    } finally {
      clearTimeout(timer);
      this.running = false;
      this.button.disabled = false;
    }
    return false;
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
