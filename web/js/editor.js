// The Java editor shared by the sandbox snippets (sandbox.js) and the fix-the-sink exercises (exercises.js):
// CodeMirror 5 from its WebJar, or a plain text area when CodeMirror fails to load, behind one small interface
// ({get, set, replace, onChange, focusLine, mark}); and the diagnostics list, each entry a button that jumps to its line, with the
// line marked in the editor. Diagnostic messages come from the compiler and go into textContent only.

// The server names the WebJar's folder (its version is pom.xml's) on the body: data-codemirror.
const CM_BASE = document.body.dataset.codemirror;
let loading = null;

/**
 * Calls `start` once the lesson tab holding `element` is shown: at once when it shows now or the element is in no tab.
 * Editors wait for it, so a learner who reads the Gist on a phone never downloads CodeMirror (more than half of the
 * page's weight) nor pays for editors out of sight. tabs.js shows the first tab before this module's code runs.
 */
export function whenShown(element, start) {
  const panel = element.closest('.tab-panel');
  if (!panel || !panel.hidden) {
    start();
    return;
  }
  const shown = () => {
    if (panel.hidden) return;
    document.removeEventListener('lesson:route', shown);
    start();
  };
  document.addEventListener('lesson:route', shown);
}

/** Resolves to true when CodeMirror is available, false when its files could not be loaded. */
export function loadEditor() {
  // One promise for every caller: window.CodeMirror exists as soon as its core script ran, before the Java mode has
  // loaded, so it must not be taken as "ready".
  if (!loading && window.CodeMirror) loading = Promise.resolve(true);
  if (!loading && !CM_BASE) loading = Promise.resolve(false);
  if (!loading) {
    const css = document.createElement('link');
    css.rel = 'stylesheet';
    css.href = CM_BASE + 'lib/codemirror.css';
    document.head.prepend(css);   // before our stylesheets, so the theme rules win
    loading = script(CM_BASE + 'lib/codemirror.js')
      .then(() => script(CM_BASE + 'mode/clike/clike.js'))
      .then(() => true, () => false);
  }
  return loading;
}

function script(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error('could not load ' + src));
    document.head.append(s);
  });
}

/**
 * Replaces `pre` with an editor holding `text`. `label` names it for screen readers; `run` is called on
 * Ctrl/Cmd+Enter. Tab leaves the editor (keyboard users must not be trapped).
 */
export function createEditor(pre, { text, label, run, hasCodeMirror }) {
  return hasCodeMirror ? codeMirror(pre, text, label, run) : textArea(pre, text, label);
}

function codeMirror(pre, text, label, run) {
  const host = document.createElement('div');
  host.className = 'sandbox-editor';
  pre.replaceWith(host);
  const cm = window.CodeMirror(host, {
    value: text,
    mode: 'text/x-java',
    lineNumbers: true,
    indentUnit: 4,
    tabSize: 4,
    viewportMargin: Infinity,
    gutters: ['sandbox-gutter', 'CodeMirror-linenumbers'],
    extraKeys: { Tab: false, 'Shift-Tab': false, 'Ctrl-Enter': () => run(), 'Cmd-Enter': () => run() },
  });
  cm.getInputField().setAttribute('aria-label', label);
  // A long source scrolls inside the editor: let the keyboard reach that scrolling region too.
  const scroller = cm.getScrollerElement();
  scroller.tabIndex = 0;
  scroller.setAttribute('role', 'region');
  scroller.setAttribute('aria-label', 'Scrollable view of ' + label.replace(/ \(.*\)$/, ''));
  return {
    get: () => cm.getValue(),
    set: (value) => cm.setValue(value),
    // Only the changed stretch is replaced, so the cursor and the scroll position stay where the learner left them.
    replace: (value) => {
      const old = cm.getValue();
      if (old === value) return;
      const { start, oldEnd, newEnd } = changedStretch(old, value);
      cm.replaceRange(value.slice(start, newEnd), cm.posFromIndex(start), cm.posFromIndex(oldEnd));
    },
    onChange: (listener) => cm.on('changes', () => listener()),
    refresh: () => cm.refresh(),   // after the editor was laid out while hidden
    focusLine: (line) => {
      cm.focus();
      cm.setCursor({ line: line - 1, ch: 0 });
      cm.scrollIntoView({ line: line - 1, ch: 0 }, 80);
    },
    mark: (line, message) => {
      const index = Math.min(Math.max(line - 1, 0), cm.lineCount() - 1);
      const marker = document.createElement('span');
      marker.className = 'sandbox-marker';
      marker.textContent = '\u25CF';
      marker.title = message;
      cm.setGutterMarker(index, 'sandbox-gutter', marker);
      const handle = cm.addLineClass(index, 'background', 'sandbox-error-line');
      return () => {
        cm.setGutterMarker(handle, 'sandbox-gutter', null);
        cm.removeLineClass(handle, 'background', 'sandbox-error-line');
      };
    },
  };
}

/** Without CodeMirror (its files failed to load) a plain text area still edits and runs. */
function textArea(pre, text, label) {
  const area = document.createElement('textarea');
  area.className = 'sandbox-textarea';
  area.value = text;
  area.spellcheck = false;
  area.rows = Math.min(30, text.split('\n').length + 1);
  area.setAttribute('aria-label', label);
  pre.replaceWith(area);
  return {
    get: () => area.value,
    set: (value) => { area.value = value; },
    replace: (value) => {
      if (area.value === value) return;
      const { start, oldEnd, newEnd } = changedStretch(area.value, value);
      area.setRangeText(value.slice(start, newEnd), start, oldEnd, 'preserve');
    },
    onChange: (listener) => area.addEventListener('input', () => listener()),
    refresh: () => {},
    focusLine: () => area.focus(),
    mark: () => () => {},
  };
}

/** Where `after` differs from `before`: [start, oldEnd) of `before` became [start, newEnd) of `after`. */
function changedStretch(before, after) {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let oldEnd = before.length;
  let newEnd = after.length;
  while (oldEnd > start && newEnd > start && before[oldEnd - 1] === after[newEnd - 1]) {
    oldEnd--;
    newEnd--;
  }
  return { start, oldEnd, newEnd };
}

/**
 * Lists `diagnostics` ({line, column, message}) in `list`, marks their lines in `editor`, and returns the functions
 * that remove those marks.
 */
export function showDiagnostics(list, diagnostics, editor) {
  const unmarks = [];
  list.replaceChildren();
  list.hidden = diagnostics.length === 0;
  for (const d of diagnostics) {
    const item = document.createElement('li');
    if (d.line > 0) {
      const jump = document.createElement('button');
      jump.type = 'button';
      jump.className = 'sandbox-jump';
      jump.textContent = `Line ${d.line}${d.column > 0 ? `, column ${d.column}` : ''}`;
      jump.addEventListener('click', () => editor.focusLine(d.line));
      item.append(jump, document.createTextNode(': ' + d.message));
      unmarks.push(editor.mark(d.line, d.message));
    } else {
      item.textContent = d.message;
    }
    list.append(item);
  }
  return unmarks;
}
