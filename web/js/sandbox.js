// Runnable snippets on the Sandbox tab. The server renders each snippet readable without JavaScript (title,
// summary, source, expected output, explanation); this module turns the source into a CodeMirror 5 editor and
// shows the toolbar: Run (button, Ctrl/Cmd+Enter) posts to /api/run and shows the status, output, errors and
// diagnostics (listed and marked at their line; the run widget exercises share, run-widget.js); Reset to starter,
// Copy output and Share link (a short /s/<id> link from POST /api/shares, which opens #sandbox/<snippet>?share=<id>;
// when the server refuses one, the edited source base64url in the fragment, #sandbox/<snippet>?src=...). Program
// output is user text: it only ever goes into textContent. Edits are kept in this browser as they are typed
// (drafts.js) and come back on reload; Reset to starter asks before it discards them.
// A run that returns a trace is drawn below the output by timeline.js; a snippet with knobs gets its controls from
// knobs.js. A changed knob is set in the editor's source by the server (POST /api/snippets/{id}/set-knobs, the rule
// a run with params applies), so the editor shows the code that runs, and that source runs again. A run with knobs
// away from their defaults is the learner's experiment: it is not compared with the lesson's expected output. The knob
// fields follow the editor's source whatever changed it (typing, a share link, a kept draft, a reset), so they never
// disagree with the code that runs (knobs.js). Each
// finished run is announced as `lesson:run` {snippet, status} on document (progress.js records it).
// The status, output and editor show the outcome of the learner's last action: a knob change, a run, a reset or a
// restore supersedes what the widget was waiting for (run-widget.js), and the late answer of a superseded set-knobs or
// run is ignored. Nothing waits for a superseded run to end: a reset during a slow run gets its own run at once.

import { loadEditor, createEditor, whenShown } from './editor.js';
import { Timeline } from './timeline.js';
import { attachKnobs } from './knobs.js';
import { RunWidget, compileErrors, where } from './run-widget.js';
import { draftOf } from './drafts.js';

const widgets = [...document.querySelectorAll('article.sandbox[data-snippet]')];
const byId = new Map();

if (widgets.length) {
  for (const element of widgets) whenShown(element, () => start(element));
  document.addEventListener('lesson:route', (event) => {
    // Editors laid out before the Sandbox tab was hidden and shown again measure themselves again.
    if (event.detail && event.detail.tab === 'sandbox') for (const widget of byId.values()) widget.editor.refresh();
    restoreFrom(location.hash);
  });
}

async function start(element) {
  const hasCodeMirror = await loadEditor();
  byId.set(element.dataset.snippet, new SnippetWidget(element, hasCodeMirror));
  restoreFrom(location.hash, element.dataset.snippet);   // the route that showed it came before its editor
}

/**
 * "#sandbox/sink-demo?src=..." (the code itself) or "?share=<id>" (a stored share) restores that edit into the
 * sink-demo editor; with `only`, when the hash names that snippet.
 */
function restoreFrom(hash, only) {
  let text;
  try {
    text = decodeURIComponent(hash.slice(1));
  } catch {
    return;
  }
  const match = /^sandbox\/([a-z0-9-]+)\?(src|share)=([A-Za-z0-9_-]*)$/.exec(text);
  if (!match || !byId.has(match[1]) || (only && match[1] !== only)) return;
  const widget = byId.get(match[1]);
  if (match[2] === 'src') widget.restore(match[3]);
  else widget.restoreShared(match[3]);
}

class SnippetWidget {
  constructor(element, hasCodeMirror) {
    this.element = element;
    this.id = element.dataset.snippet;
    this.title = element.querySelector('.sandbox-title')?.textContent ?? this.id;
    const pre = element.querySelector('pre[data-source]');
    this.original = pre.textContent;
    this.expected = element.querySelector('[data-expected-output]').textContent;
    this.status = element.querySelector('[data-status]');
    this.output = element.querySelector('[data-output]');
    this.stdout = element.querySelector('[data-stdout]');
    this.stderr = element.querySelector('[data-stderr]');
    this.stderrPanel = element.querySelector('.sandbox-stderr-panel');
    this.diagnostics = element.querySelector('[data-diagnostics]');
    this.expectedPanel = element.querySelector('[data-expected]');
    this.differs = element.querySelector('[data-differs]');
    this.explanation = element.querySelector('[data-explanation]');
    this.params = null;   // knob values ({NAME: value}) as the editor's source sets them (null: no knobs)
    this.draft = draftOf('snippet', this.id);
    this.editor = createEditor(pre, {
      text: this.original,
      label: 'Java source of ' + this.title + ' (Ctrl+Enter runs)',
      run: () => this.run(),
      hasCodeMirror,
    });
    this.widget = new RunWidget(element, {
      button: element.querySelector('[data-run]'), status: this.status, diagnostics: this.diagnostics, editor: this.editor,
      run: () => this.run(), clear: () => this.clearResult(), results: [this.output],
    });

    element.querySelector('.sandbox-toolbar').hidden = false;
    this.status.hidden = false;
    this.expectedPanel.hidden = true;   // shown again after a run
    this.share = document.createElement('p');
    this.share.className = 'sandbox-share';
    this.share.hidden = true;
    const label = document.createElement('label');
    label.textContent = 'Link to this edit ';
    this.shareInput = document.createElement('input');
    this.shareInput.type = 'url';
    this.shareInput.readOnly = true;
    this.shareInput.dataset.shareLink = '';
    label.append(this.shareInput);
    this.share.append(label);
    element.querySelector('.sandbox-toolbar').after(this.share);
    this.timeline = new Timeline(this.title);
    element.querySelector('[data-output]').after(this.timeline.element);
    this.knobs = attachKnobs(this);
    this.restoreDraft();
    this.editor.onChange(() => this.keep());

    element.querySelector('[data-reset]').addEventListener('click', () => this.reset());
    element.querySelector('[data-copy-output]').addEventListener('click', () => this.copyOutput());
    element.querySelector('[data-share]').addEventListener('click', () => this.shareLink());
  }

  run() {
    return this.widget.request(() => this.post(), (body) => this.show(body),
      { working: 'Running\u2026', retryWhenBusy: true });
  }

  post() {
    return fetch('/api/run', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      // The knobs are set in the editor's source already: what runs is what the learner sees.
      body: JSON.stringify({ source: this.editor.get() }),
    });
  }

  /**
   * The knobs' values (valid ones, all of them): the server sets them in the editor's source, then the snippet runs.
   * A later action supersedes this one, and then its answer is not put into the editor.
   */
  async setKnobs(params) {
    const latest = this.widget.supersede();
    let response;
    let body;
    try {
      response = await fetch(`/api/snippets/${encodeURIComponent(this.id)}/set-knobs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ source: this.editor.get(), params }),
      });
      body = await response.json().catch(() => ({}));
    } catch {
      if (latest()) this.refuseKnobs('Could not reach the server. Check your connection and try again.');
      return;
    }
    if (!latest()) return;
    if (!response.ok) {
      this.refuseKnobs('Not run: ' + (body.error || `HTTP ${response.status}`));
      return;
    }
    this.params = params;
    this.editor.replace(body.source);   // kept as an edit (keep), like typing
    this.run();
  }

  /**
   * Nothing runs and the old result goes. A value refused beside its knob (no `message`) does not scroll to the status
   * line: knobs.js keeps that refusal in view. The server's refusal shows on the status line, brought into view. A
   * refusal is the learner's last action too: a run or knob change still under way is superseded.
   */
  refuseKnobs(message) {
    this.widget.supersede();
    this.clearResult();
    if (message) {
      this.finish('error', message);
    } else {
      this.element.dataset.state = 'error';
      this.say('Not run: a knob\u2019s value is refused; the allowed range shows beside it.');
    }
  }

  show(result) {
    this.clearResult();
    const ms = `${result.elapsedMs} ms`;
    const diagnostics = result.diagnostics || [];
    const first = diagnostics[0];
    // Keyed by the server's outcome ids (RunResult.status); an outcome without words here still shows its id.
    // The unchanged demo is answered with what every run of it printed as the server started (RunAnswer.shipped).
    const shipped = result.shipped ? ' \u00B7 the demo as shipped: its output from the server\u2019s start' : '';
    const words = {
      ok: `Finished in ${ms}${shipped}`,
      compile_error: `${compileErrors(diagnostics)} \u00B7 ${ms}`,
      rejected: `Rejected: ${first ? first.message + where(diagnostics) : 'the code uses something the sandbox does not allow'}`,
      runtime_error: `Runtime error \u00B7 ${ms}`,
      timeout: `Timed out \u00B7 stopped after ${ms}`,
      memory_limit: `Memory limit exceeded \u00B7 ${ms}`,
      output_limit: `Output limit reached: the output was cut off \u00B7 ${ms}`,
      internal_error: 'Internal error in the sandbox (not your code). Try again.',
    };
    this.output.hidden = false;
    this.stdout.textContent = result.stdout || '';
    this.stderr.textContent = result.stderr || '';
    this.stderrPanel.hidden = !result.stderr;
    this.widget.showDiagnostics(diagnostics);
    this.timeline.show(result.trace || []);
    document.dispatchEvent(new CustomEvent('lesson:run', { detail: { snippet: this.id, status: result.status } }));
    if (result.status === 'ok' && this.knobs?.isExperiment(this.params)) {
      this.finish('experiment', `${words.ok} \u00B7 You changed the knobs: this run is your experiment`);
      return;
    }
    if (result.status === 'ok') {
      const matches = normalize(result.stdout) === normalize(this.expected);
      this.expectedPanel.hidden = false;
      this.differs.hidden = matches;
      this.explanation.hidden = !matches;
      if (!matches) {
        this.finish('differs', `${words.ok} \u00B7 the output differs from the lesson's`);
        return;
      }
    }
    this.finish(result.status, words[result.status] || `Finished: ${result.status} \u00B7 ${ms}`);
  }

  finish(state, message) {
    this.widget.finish(state, message);
  }

  say(message) {
    this.widget.say(message);
  }

  clearResult() {
    this.widget.clearDiagnostics();
    this.stdout.textContent = '';
    this.stderr.textContent = '';
    this.stderrPanel.hidden = true;
    this.output.hidden = true;
    this.expectedPanel.hidden = true;
    this.timeline.clear();
  }

  /** Keeps the edit in this browser; an editor back at the starter with default knobs keeps nothing. */
  keep() {
    this.followCode();
    const source = this.editor.get();
    if (source === this.original && !this.knobs?.isExperiment(this.params)) this.draft.remove();
    else this.draft.save({ source, params: this.params });
  }

  /** The knob fields show what the editor's source sets, and the values a run's knobs compare with are those. */
  followCode() {
    this.params = this.knobs ? this.knobs.follow(this.editor.get()) : null;
  }

  restoreDraft() {
    const kept = this.draft.load();
    if (!kept || typeof kept.source !== 'string' || kept.source === this.original) return;
    this.editor.set(kept.source);
    this.followCode();
    this.say('Your edits from last time are back. Reset to starter brings back the original.');
  }

  reset() {
    const edited = this.editor.get() !== this.original || this.knobs?.isExperiment(this.params);
    if (edited && !confirm(`Discard your edits to \u201C${this.title}\u201D and go back to the starter code?`)) return;
    this.widget.supersede();
    this.editor.set(this.original);
    this.followCode();
    this.draft.remove();
    this.clearResult();
    this.share.hidden = true;
    this.element.dataset.state = 'idle';
    this.say('Reset to the starter code.');
    if (location.hash.startsWith('#sandbox/' + this.id + '?')) history.replaceState(null, '', '#sandbox/' + this.id);
  }

  async copyOutput() {
    const text = this.stdout.textContent + (this.stderr.textContent ? '\n' + this.stderr.textContent : '');
    if (!text) {
      this.say('Nothing to copy yet: run the snippet first.');
      return;
    }
    if (await copy(text)) this.say('Output copied.');
    else this.say('Could not copy: select the output and copy it by hand.');
  }

  async shareLink() {
    const source = this.editor.get();
    const short = await shortLink(source, this.id);
    const here = `${location.origin}${location.pathname}#sandbox/${this.id}`;
    const url = short.url || `${here}?src=${encode(source)}`;
    history.replaceState(null, '', short.id ? `${here}?share=${short.id}` : url);
    this.shareInput.value = url;
    this.share.hidden = false;
    this.shareInput.select();
    const copied = await copy(url);
    if (short.url) this.say(copied ? 'Share link copied: it opens this edit.' : 'Share link below: copy it to open this edit.');
    else this.say(`No short link (${short.why}), so this long link holds the code itself${copied ? ' (copied)' : ': copy it'}.`);
  }

  async restoreShared(id) {
    if (id === this.linked) return;   // this link was applied already
    this.linked = id;
    let response;
    try {
      response = await fetch(`/api/shares/${id}`, { headers: { Accept: 'application/json' } });
    } catch {
      this.say('The shared code could not be loaded: the server did not answer. Showing the original.');
      return;
    }
    if (!response.ok) {
      this.say('This share link is unknown, so the original is shown.');
      return;
    }
    this.restoreText((await response.json()).source);
  }

  restore(encoded) {
    if (encoded === this.linked) return;   // this link was applied already
    this.linked = encoded;
    let text;
    try {
      text = decode(encoded);
    } catch {
      this.say('The link\u2019s source could not be read; showing the original.');
      return;
    }
    this.restoreText(text);
  }

  restoreText(text) {
    this.widget.supersede();
    this.editor.set(text);
    this.followCode();
    this.clearResult();
    this.element.dataset.state = 'idle';
    this.say('Restored an edited version from the link. Reset to starter brings back the original.');
    this.element.scrollIntoView({ block: 'start' });
  }
}

/** A short link to {source} in {snippet}'s editor: {url, id}, or {why} the server gave none. */
async function shortLink(source, snippet) {
  try {
    const response = await fetch('/api/shares', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ source, snippet }),
    });
    const body = await response.json().catch(() => ({}));
    if (response.ok) return { url: location.origin + body.url, id: body.id };
    return { why: body.error || `the server answered ${response.status}` };
  } catch {
    return { why: 'the server could not be reached' };
  }
}

function normalize(text) {
  return (text || '').replace(/\r\n/g, '\n').replace(/\s+$/, '');
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** UTF-8, then base64url without padding: safe in a URL fragment. */
function encode(text) {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decode(encoded) {
  let base64 = encoded.replace(/-/g, '+').replace(/_/g, '/');
  while (base64.length % 4) base64 += '=';
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}
