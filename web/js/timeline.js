// The replay timeline: draws the trace of a snippet run as an SVG with one column per event and one lane each for the
// source and the job (reads, barriers, checkpoints, the crash, the replay), for every sink (its declaration, its rows
// as they appear: visible, invisible/pre-committed, aborted and struck out, duplicates flagged, overwritten rows
// faded), and for what a read_uncommitted and a read_committed consumer see. The consumers come from the trace's
// `consume` events when it has any; otherwise they are derived from the transactional sinks' writes, commits and
// aborts. What each step means is timeline-model.js's; this module only draws it.
//
// Step back / play-pause / step forward, a scrubber (a range input: arrow keys, Home, End) and the current event in
// words in an aria-live region. Space plays and pauses and the arrow keys step when the drawing has focus. With
// prefers-reduced-motion nothing is animated and steps are instant. Trace values are program output: everything is
// built with DOM APIs and textContent.

import { button, div, el, span, svgEl } from './dom.js';
import { buildModel, describe, kindLabel, stateAt } from './timeline-model.js';

const COL = 52;        // width of one event's column
const AXIS = 22;       // height of the time axis
const LANE = 46;       // height of a lane holding one chip per column
const CHIP_H = 20;
const CHIP_W = 44;
const TICK_MS = 700;
const TXN_WORDS = { precommit: 'pre-commit', commit: 'commit', abort: 'abort' };

const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

/** One timeline per snippet widget: `element` goes into the page, `show(trace)` draws a run. */
export class Timeline {
  constructor(title) {
    this.title = title;
    const heading = el('h5', { class: 'timeline-heading', id: 'timeline-' + Math.random().toString(36).slice(2, 10),
      text: 'Replay timeline' });
    this.element = el('section', { class: 'timeline', hidden: true, 'data-timeline': '', 'aria-labelledby': heading.id },
      heading);
    this.model = null;
    this.step = 0;
    this.timer = null;
    this.element.addEventListener('keydown', (event) => this.onKey(event));
    reducedMotion.addEventListener('change', () => this.applyMotion());
    this.applyMotion();
  }

  clear() {
    this.pause();
    this.model = null;
    this.element.hidden = true;
    this.element.replaceChildren(this.element.firstChild);
  }

  show(trace) {
    this.clear();
    if (!Array.isArray(trace) || trace.length === 0) return;
    this.model = buildModel(trace);
    this.draw();
    this.element.hidden = false;
    this.go(0);
  }

  applyMotion() {
    this.element.dataset.motion = reducedMotion.matches ? 'reduce' : 'full';
  }

  draw() {
    const m = this.model;
    const controls = div('timeline-controls');
    controls.setAttribute('role', 'group');
    controls.setAttribute('aria-label', 'Timeline controls for ' + this.title);
    this.back = button('Step back', () => this.go(this.step - 1), { 'data-timeline-back': '' });
    this.playButton = button('Play', () => this.toggle(), { 'data-timeline-play': '' });
    this.forward = button('Step forward', () => this.go(this.step + 1), { 'data-timeline-forward': '' });
    this.scrubber = el('input', { type: 'range', min: 0, max: m.events.length - 1, step: 1, 'data-timeline-scrubber': '',
      oninput: () => {
        this.pause();
        this.go(Number(this.scrubber.value));
      } });
    controls.append(this.back, this.playButton, this.forward,
      el('label', { class: 'timeline-scrub' }, span('Event'), this.scrubber));

    this.description = el('p', { class: 'timeline-now', 'aria-live': 'polite', 'data-timeline-now': '' });

    const body = div('timeline-body');
    const labels = div('timeline-labels');
    this.scroller = div('timeline-scroll');
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute('role', 'group');
    this.scroller.setAttribute('aria-label', 'Timeline drawing (Space plays or pauses, arrow keys step)');
    this.scroller.dataset.timelineDrawing = '';

    const width = m.events.length * COL + 8;
    const lanes = [{ id: 'axis', name: 'Event', height: AXIS }, { id: 'source', name: 'Source and job', height: LANE }]
      .concat(m.sinks.map((s) => ({ id: 'sink', sink: s, name: s, kind: kindLabel(m, s), height: LANE })))
      .concat(m.consumers.map((c) => ({ id: 'consumer', consumer: c, name: c.label, height: Math.max(LANE, c.stack * (CHIP_H + 4) + 8) })));
    let y = 0;
    for (const lane of lanes) {
      lane.y = y;
      y += lane.height;
    }
    const height = y;
    const svg = svgEl('svg', { width, height, viewBox: `0 0 ${width} ${height}`, class: 'timeline-svg' });
    svg.setAttribute('role', 'img');
    this.svg = svg;

    this.laneLabels = new Map();
    const state = el('ul', { class: 'timeline-state', 'aria-label': 'What each lane holds at the current event' });
    for (const lane of lanes) {
      const cell = div('timeline-label timeline-label-' + lane.id);
      cell.style.height = lane.height + 'px';
      if (lane.id === 'sink') {
        cell.append(span(lane.name), ' ', span(`(${lane.kind})`, 'timeline-label-kind'));
        cell.dataset.sink = lane.sink;
      } else {
        cell.textContent = lane.id === 'consumer' ? lane.consumer.key : lane.name;
      }
      labels.append(cell);
      if (lane.id !== 'axis') svg.append(svgEl('line', { x1: 0, x2: width, y1: lane.y, y2: lane.y, class: 'tl-lane-rule' }));
      if (lane.id === 'sink' || lane.id === 'consumer') {
        const summary = el('span', { class: 'timeline-lane-summary' });
        const item = el('li', { 'data-lane': lane.sink || lane.consumer.key },
          span((lane.id === 'sink' ? `${lane.name} (${lane.kind})` : lane.name) + ': ', 'timeline-lane-name'), summary);
        state.append(item);
        this.laneLabels.set(item.dataset.lane, summary);
      }
    }
    this.stateList = state;

    this.cursor = svgEl('rect', { x: 0, y: 0, width: COL, height, class: 'tl-cursor' });
    svg.append(this.cursor);

    const laneY = (id, key) => lanes.find((l) => l.id === id && (key === undefined || l.sink === key
      || (l.consumer && l.consumer.key === key))).y;
    this.columns = [];
    m.events.forEach((e, i) => {
      const x = i * COL + 4;
      const group = svgEl('g', { class: 'tl-event tl-' + e.type });
      group.dataset.index = String(i);
      const tick = svgEl('text', { x: x + COL / 2, y: 15, class: 'tl-axis' });
      tick.textContent = String(e.seq);
      group.append(tick);
      const sy = laneY('source');
      if (e.type === 'read') {
        group.append(chip(x, sy, e.key ?? String(e.value), '@' + e.offset, 'tl-read', `read at offset ${e.offset}`));
      } else if (['barrier', 'checkpoint', 'crash', 'replay', 'truncated'].includes(e.type)) {
        group.append(marker(x, height, e, m.checkpointOffset.get(i)));
      } else if (e.type === 'write') {
        const row = chip(x, laneY('sink', e.sink), e.key ?? String(e.value), null, 'tl-row',
          `${e.sink} writes ${e.key ?? e.value}${e.txn ? ' in ' + e.txn : ''}`);
        row.dataset.sink = e.sink;
        row.dataset.key = e.key ?? '';
        row.dataset.row = String(i);
        group.append(row);
      } else if (e.type === 'sink') {
        group.append(laneMark(x, laneY('sink', e.sink), e.kind, 'declared'));
      } else if (['precommit', 'commit', 'abort'].includes(e.type)) {
        group.append(laneMark(x, laneY('sink', e.sink), TXN_WORDS[e.type], e.txn ?? ''));
      } else if (e.type === 'consume') {
        const c = m.consumers.find((k) => k.key === e.isolation);
        const seen = chip(x, laneY('consumer', c.key), e.key ?? String(e.value), null, 'tl-seen',
          `${c.label} reads ${e.key ?? e.value}`);
        seen.dataset.consumer = c.key;
        seen.dataset.key = e.key ?? '';
        if (m.consumeSource.has(i)) seen.dataset.source = String(m.consumeSource.get(i));
        group.append(seen);
      }
      svg.append(group);
      this.columns.push(group);
    });

    // Derived consumers: one chip per row seen, at the column where it became visible to that reader.
    this.derived = [];
    for (const c of m.consumers.filter((k) => k.derived)) {
      for (const seen of c.sightings) {
        const x = seen.at * COL + 4;
        const cy = laneY('consumer', c.key) + seen.slot * (CHIP_H + 4) - (LANE - CHIP_H) / 2 + 4;
        const e = m.events[seen.row];
        const g = chip(x, cy, e.key ?? String(e.value), null, 'tl-seen',
          `${c.label} sees ${e.key ?? e.value} from ${e.sink}`);
        g.dataset.row = String(seen.row);
        g.dataset.consumer = c.key;
        g.dataset.at = String(seen.at);
        svg.append(g);
        this.derived.push(g);
      }
    }

    this.scroller.append(svg);
    body.append(labels, this.scroller);
    const legend = div('timeline-legend');
    for (const [cls, text] of [['tl-visible', 'visible'], ['tl-invisible', 'written, not visible'],
      ['tl-aborted', 'aborted'], ['tl-duplicate', 'duplicate'], ['tl-overwritten', 'overwritten']]) {
      legend.append(span(text, 'timeline-key ' + cls));
    }
    this.element.append(controls, this.description, body, legend, state);
  }

  go(index) {
    const m = this.model;
    if (!m) return;
    const step = Math.max(0, Math.min(m.events.length - 1, index));
    this.step = step;
    const state = stateAt(m, step);
    this.columns.forEach((g, i) => g.classList.toggle('tl-future', i > step));
    for (const g of this.svg.querySelectorAll('[data-row]:not([data-consumer])')) {
      const row = state.rows.get(Number(g.dataset.row));
      setRowClasses(g, row);
    }
    for (const g of this.derived) {
      const at = Number(g.dataset.at);
      g.classList.toggle('tl-future', at > step);
      const row = state.rows.get(Number(g.dataset.row));
      g.classList.toggle('tl-aborted', !!row && row.state === 'aborted');
    }
    for (const g of this.svg.querySelectorAll('[data-source]')) {
      const row = state.rows.get(Number(g.dataset.source));
      g.classList.toggle('tl-aborted', !!row && row.state === 'aborted');
    }
    this.cursor.setAttribute('x', String(step * COL + 4));
    for (const [key, summary] of this.laneLabels) summary.textContent = state.summaries.get(key) || '';
    this.scrubber.value = String(step);
    const words = describe(m, step);
    this.scrubber.setAttribute('aria-valuetext', words);
    this.description.textContent = words;
    this.svg.setAttribute('aria-label', `Timeline at ${words}. ` + [...state.summaries.entries()]
      .map(([k, v]) => `${k}: ${v}`).join('; '));
    this.back.disabled = step === 0;
    this.forward.disabled = step === m.events.length - 1;
    this.element.dataset.step = String(step);
    this.reveal(step);
  }

  /** Keeps the current column in view inside the horizontally scrolling drawing. */
  reveal(step) {
    const x = step * COL;
    const left = this.scroller.scrollLeft;
    const width = this.scroller.clientWidth;
    if (x >= left + 8 && x + COL <= left + width - 8) return;
    this.scroller.scrollTo({ left: Math.max(0, x - width / 3), behavior: reducedMotion.matches ? 'auto' : 'smooth' });
  }

  toggle() {
    if (this.timer) this.pause();
    else this.play();
  }

  play() {
    if (!this.model) return;
    if (this.step >= this.model.events.length - 1) this.go(0);
    this.playButton.textContent = 'Pause';
    this.element.dataset.playing = 'true';
    this.timer = setInterval(() => {
      if (this.step >= this.model.events.length - 1) this.pause();
      else this.go(this.step + 1);
    }, TICK_MS);
  }

  pause() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.playButton) this.playButton.textContent = 'Play';
    delete this.element.dataset.playing;
  }

  onKey(event) {
    if (!this.model || event.target !== this.scroller) return;
    if (event.key === ' ') {
      event.preventDefault();
      this.toggle();
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      this.pause();
      this.go(this.step + 1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      this.pause();
      this.go(this.step - 1);
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      this.pause();
      this.go(event.key === 'Home' ? 0 : this.model.events.length - 1);
    }
  }
}


function setRowClasses(g, row) {
  for (const c of ['tl-visible', 'tl-invisible', 'tl-precommitted', 'tl-aborted', 'tl-duplicate', 'tl-overwritten']) {
    g.classList.remove(c);
  }
  if (!row) return;
  g.classList.add('tl-' + row.state);
  if (row.state === 'precommitted') g.classList.add('tl-invisible');
  if (row.duplicate) g.classList.add('tl-duplicate');
  if (row.overwritten) g.classList.add('tl-overwritten');
  g.dataset.state = row.state + (row.duplicate ? ' duplicate' : '') + (row.overwritten ? ' overwritten' : '');
}

function chip(x, laneTop, text, sub, cls, title) {
  const g = svgEl('g', { class: 'tl-chip ' + cls });
  const top = laneTop + (LANE - CHIP_H) / 2 - (sub ? 5 : 0);
  g.append(svgEl('rect', { x: x + (COL - CHIP_W) / 2, y: top, width: CHIP_W, height: CHIP_H, rx: 4 }));
  const label = svgEl('text', { x: x + COL / 2, y: top + 14, class: 'tl-chip-text' });
  label.textContent = text;
  g.append(label);
  g.append(svgEl('rect', { x: x + (COL - CHIP_W) / 2 + 3, width: CHIP_W - 6, y: top + CHIP_H / 2 - 1, height: 2,
    class: 'tl-strike' }));
  const badge = svgEl('text', { x: x + (COL + CHIP_W) / 2 - 2, y: top - 1, class: 'tl-badge' });
  badge.textContent = '\u00D72';
  g.append(badge);
  if (sub) {
    const s = svgEl('text', { x: x + COL / 2, y: top + CHIP_H + 11, class: 'tl-sub' });
    s.textContent = sub;
    g.append(s);
  }
  const tip = svgEl('title', {});
  tip.textContent = title;
  g.append(tip);
  return g;
}

function marker(x, height, e, offset) {
  const g = svgEl('g', { class: 'tl-marker' });
  const mid = x + COL / 2;
  g.append(svgEl('line', { x1: mid, x2: mid, y1: AXIS, y2: height, class: 'tl-marker-line' }));
  const label = svgEl('text', { x: mid, y: AXIS + 14, class: 'tl-marker-text' });
  const words = {
    barrier: `barrier ${e.checkpoint}`,
    checkpoint: `ckpt ${e.checkpoint}${offset != null ? ' @' + offset : ''}`,
    crash: 'crash',
    replay: `replay @${e.offset}`,
    truncated: 'cut off',
  };
  label.textContent = words[e.type];
  g.append(label);
  return g;
}

/** A word in a sink's lane with a line under it: a transaction step and its txn, or a declaration and its kind. */
function laneMark(x, laneTop, text, sub) {
  const g = svgEl('g', { class: 'tl-txn' });
  const label = svgEl('text', { x: x + COL / 2, y: laneTop + LANE / 2 + 4, class: 'tl-txn-text' });
  label.textContent = text;
  const below = svgEl('text', { x: x + COL / 2, y: laneTop + LANE / 2 + 16, class: 'tl-sub' });
  below.textContent = sub;
  g.append(label, below);
  return g;
}
