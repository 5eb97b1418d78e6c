// Knobs for a runnable snippet: the server lists them on the widget as `data-knobs` ({name, type, min, max,
// default, label}); each becomes a labelled control (a number input for int/long within min..max, a checkbox for
// boolean) with its default shown, plus a Reset. A change (debounced) hands the values to the widget, which has the
// server set them in the editor's source and runs it. A value that is not a whole number in range is refused beside
// its control, naming the allowed range, and nothing runs.
// The code is the one truth: the fields follow the editor's source (follow), whoever changed it (a knob, typing, a
// share link, a kept draft), so a field never shows a value the code does not run with. A value the code sets outside
// the knob's range shows with a note; a knob whose declaration the code no longer has is disabled and says so.

/**
 * Each parameter `source` declares, by name: {type, value} (the first declaration of a name wins). `rule` is the
 * server's own pattern for a declaration (SnippetParameters, sent on the widget as `data-declaration`), so the page
 * reads a declaration exactly as the server rewrites one; its groups are (prefix, type, name, literal, suffix).
 */
export function declarations(source, rule) {
  const found = new Map();
  for (const [, , type, name, literal] of source.matchAll(new RegExp(rule, 'g'))) {
    if (found.has(name)) continue;
    const value = type === 'boolean' ? literal === 'true' : Number(literal.replace(/[lL]$/, ''));
    found.set(name, { type, value });
  }
  return found;
}

const DEBOUNCE_MS = 400;

/** Adds the knobs of `widget` (a SnippetWidget from sandbox.js) under its toolbar; null if the snippet has none. */
export function attachKnobs(widget) {
  let knobs;
  try {
    knobs = JSON.parse(widget.element.dataset.knobs || '[]');
  } catch {
    return null;
  }
  if (!Array.isArray(knobs) || knobs.length === 0) return null;
  const panel = new KnobPanel(widget, knobs);
  widget.element.querySelector('.sandbox-toolbar').after(panel.element);
  return panel;
}

class KnobPanel {
  constructor(widget, knobs) {
    this.widget = widget;
    this.knobs = knobs;
    this.inputs = new Map();
    this.errors = new Map();
    this.timer = null;
    this.element = document.createElement('fieldset');
    this.element.className = 'knobs';
    this.element.dataset.knobs = '';
    const legend = document.createElement('legend');
    legend.textContent = 'Knobs: change one and the snippet runs again';
    this.element.append(legend);
    for (const knob of knobs) this.element.append(this.control(knob));
    const reset = document.createElement('button');
    reset.type = 'button';
    reset.textContent = 'Reset knobs';
    reset.dataset.knobsReset = '';
    reset.addEventListener('click', () => {
      this.show(this.defaults());
      this.changed();
    });
    this.element.append(reset);
  }

  control(knob) {
    const id = `knob-${this.widget.id}-${knob.name}`;
    const row = document.createElement('div');
    row.className = 'knob';
    const input = document.createElement('input');
    input.id = id;
    input.name = knob.name;
    input.dataset.knob = knob.name;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = knob.label || knob.name;
    const hint = document.createElement('span');
    hint.className = 'knob-hint';
    hint.id = id + '-hint';
    const error = document.createElement('span');
    error.className = 'knob-error';
    error.id = id + '-error';
    error.dataset.knobError = knob.name;
    error.hidden = true;
    input.setAttribute('aria-describedby', `${hint.id} ${error.id}`);
    if (knob.type === 'boolean') {
      input.type = 'checkbox';
      input.checked = knob.default === true;
      hint.textContent = `${knob.name}, default ${knob.default ? 'on' : 'off'}`;
      row.append(input, label, hint);
      input.addEventListener('change', () => this.changed());
    } else {
      input.type = 'number';
      input.min = String(knob.min);
      input.max = String(knob.max);
      input.step = '1';
      input.required = true;
      input.value = String(knob.default);
      hint.textContent = `${knob.name}, ${knob.min} to ${knob.max}, default ${knob.default}`;
      row.append(label, input, hint);
      input.addEventListener('input', () => this.changed());
    }
    row.append(error);
    this.inputs.set(knob.name, input);
    this.errors.set(knob.name, error);
    return row;
  }

  defaults() {
    return Object.fromEntries(this.knobs.map((knob) => [knob.name, knob.default]));
  }

  /** Whether `params` (null: the defaults) set any knob away from its default. */
  isExperiment(params) {
    return params !== null && this.knobs.some((knob) => params[knob.name] !== knob.default);
  }

  /** Puts `params` (such as kept ones) into the controls, without running. */
  show(params) {
    for (const knob of this.knobs) {
      if (!(knob.name in params)) continue;
      const input = this.inputs.get(knob.name);
      if (knob.type === 'boolean') input.checked = params[knob.name] === true;
      else input.value = String(params[knob.name]);
      this.refuse(knob, null);
    }
  }

  /**
   * Shows the values `source` sets and returns them by name (those in range only: what a run's knobs may hold). An
   * input the learner is changing keeps what they type: the change on its way sets the code, which follows it then.
   */
  follow(source) {
    const declared = declarations(source, this.widget.element.dataset.declaration);
    const values = {};
    for (const knob of this.knobs) {
      const input = this.inputs.get(knob.name);
      const found = declared.get(knob.name);
      const fits = found?.type === knob.type;   // as KnobSettings.apply requires
      input.disabled = !fits;
      if (!fits) {
        this.refuse(knob, 'Not in the code: it no longer declares '
          + `\u2018static final ${knob.type} ${knob.name} = \u2026;\u2019, which this knob sets. Reset to starter brings it back.`);
        continue;
      }
      if (!(this.timer && document.activeElement === input)) {
        if (knob.type === 'boolean') input.checked = found.value;
        else input.value = String(found.value);
      }
      if (knob.type !== 'boolean' && (found.value < knob.min || found.value > knob.max)) {
        this.refuse(knob,
          `The code sets ${found.value}, outside ${knob.min} to ${knob.max}; this knob can set it back in range.`);
        continue;
      }
      this.refuse(knob, null);
      values[knob.name] = found.value;
    }
    return values;
  }

  /** The knob values, or null when one is refused (its message shows beside it). */
  values() {
    const params = {};
    let ok = true;
    for (const knob of this.knobs) {
      const input = this.inputs.get(knob.name);
      if (input.disabled) continue;   // not in the code: nothing to set
      if (knob.type === 'boolean') {
        params[knob.name] = input.checked;
        continue;
      }
      const text = input.value.trim();
      const n = Number(text);
      const allowed = `allowed: a whole number from ${knob.min} to ${knob.max}`;
      if (text === '' || input.validity.badInput || !Number.isInteger(n)) {
        this.refuse(knob, `Not a whole number; ${allowed}.`);
        ok = false;
      } else if (n < knob.min || n > knob.max) {
        this.refuse(knob, `${n} is out of range; ${allowed}.`);
        ok = false;
      } else {
        this.refuse(knob, null);
        params[knob.name] = n;
      }
    }
    return ok ? params : null;
  }

  /** Shows `message` beside the knob's control, or clears it (null). */
  refuse(knob, message) {
    const error = this.errors.get(knob.name);
    error.textContent = message || '';
    error.hidden = !message;
    this.inputs.get(knob.name).setAttribute('aria-invalid', String(Boolean(message)));
  }

  changed() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const params = this.values();
      if (params) {
        this.widget.setKnobs(params);
        return;
      }
      this.widget.refuseKnobs();
      // The old output went, which can move the page: keep the refusal in view.
      [...this.errors.values()].find((error) => !error.hidden)?.scrollIntoView({ block: 'nearest' });
    }, DEBOUNCE_MS);
  }
}
