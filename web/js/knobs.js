// Knobs for a runnable snippet: GET /api/snippets/{id} lists them ({name, type, min, max, default, label}); each
// becomes a labelled control (a number input for int/long within min..max, a checkbox for boolean) with its
// default shown, plus a Reset. A change runs the snippet again (debounced) with {snippet, source, params}, so the
// output panel and the timeline show the run with those values.

const DEBOUNCE_MS = 400;

/** Adds the knobs of `widget` (a SnippetWidget from sandbox.js) under its toolbar, if the snippet has any. */
export async function attachKnobs(widget) {
  let knobs;
  try {
    const response = await fetch('/api/snippets/' + encodeURIComponent(widget.id), { headers: { Accept: 'application/json' } });
    if (!response.ok) return;
    knobs = (await response.json()).knobs;
  } catch {
    return;
  }
  if (!Array.isArray(knobs) || knobs.length === 0) return;
  const panel = new KnobPanel(widget, knobs);
  widget.element.querySelector('.sandbox-toolbar').after(panel.element);
}

class KnobPanel {
  constructor(widget, knobs) {
    this.widget = widget;
    this.knobs = knobs;
    this.inputs = new Map();
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
    reset.addEventListener('click', () => this.reset());
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
    input.setAttribute('aria-describedby', hint.id);
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
    this.inputs.set(knob.name, input);
    return row;
  }

  /** The knob values, or null when a number is out of range (the input says so itself). */
  values() {
    const params = {};
    for (const knob of this.knobs) {
      const input = this.inputs.get(knob.name);
      if (knob.type === 'boolean') {
        params[knob.name] = input.checked;
      } else {
        const n = Number(input.value);
        const ok = input.value.trim() !== '' && Number.isInteger(n) && n >= knob.min && n <= knob.max;
        input.setAttribute('aria-invalid', String(!ok));
        if (!ok) return null;
        params[knob.name] = n;
      }
    }
    return params;
  }

  changed() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const params = this.values();
      if (!params) {
        this.widget.say('Each knob must be a whole number within its range.');
        return;
      }
      this.widget.params = params;
      this.widget.run();
    }, DEBOUNCE_MS);
  }

  reset() {
    for (const knob of this.knobs) {
      const input = this.inputs.get(knob.name);
      if (knob.type === 'boolean') input.checked = knob.default === true;
      else input.value = String(knob.default);
      input.removeAttribute('aria-invalid');
    }
    this.changed();
  }
}
