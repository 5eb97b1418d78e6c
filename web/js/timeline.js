// The replay timeline: draws the trace of a snippet run (RunResult.trace, see lessons/SCHEMA.md) as an SVG with one
// column per event and one lane each for the source and the job (reads, barriers, checkpoints, the crash, the replay),
// for every sink (its declaration, its rows as they appear: visible, invisible/pre-committed, aborted and struck out,
// duplicates flagged, overwritten rows faded),
// and for what a read_uncommitted and a read_committed consumer see. The consumers come from the trace's `consume`
// events when it has any; otherwise they are derived from the transactional sinks' writes, commits and aborts.
//
// Step back / play-pause / step forward, a scrubber (a range input: arrow keys, Home, End) and the current event in
// words in an aria-live region. Space plays and pauses and the arrow keys step when the drawing has focus. With
// prefers-reduced-motion nothing is animated and steps are instant. Trace values are program output: everything is
// built with DOM APIs and textContent.
//
// How a sink keeps its rows comes from the trace alone: its `sink` event (Trace.sink(name, kind)) says "append"
// (every write adds a row) or "upsert" (a write replaces the row with the same key). A sink the trace never declares
// is drawn as appending, so a replayed write shows up as a duplicate rather than being hidden. In an appending sink a
// duplicate is one source record (the offset of the read with the write's key, or else the key and value) visible
// twice; in an upserting sink a newer row for a key marks the older one overwritten. The program's printed output
// plays no part: editing a print line changes nothing here.

import { button } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
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
    this.element = document.createElement('section');
    this.element.className = 'timeline';
    this.element.hidden = true;
    this.element.dataset.timeline = '';
    const heading = document.createElement('h5');
    heading.className = 'timeline-heading';
    heading.textContent = 'Replay timeline';
    heading.id = 'timeline-' + Math.random().toString(36).slice(2, 10);
    this.element.setAttribute('aria-labelledby', heading.id);
    this.element.append(heading);
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
    this.back = button('Step back', () => this.go(this.step - 1));
    this.back.dataset.timelineBack = '';
    this.playButton = button('Play', () => this.toggle());
    this.playButton.dataset.timelinePlay = '';
    this.forward = button('Step forward', () => this.go(this.step + 1));
    this.forward.dataset.timelineForward = '';
    const scrubLabel = document.createElement('label');
    scrubLabel.className = 'timeline-scrub';
    const scrubText = document.createElement('span');
    scrubText.textContent = 'Event';
    this.scrubber = document.createElement('input');
    this.scrubber.type = 'range';
    this.scrubber.min = '0';
    this.scrubber.max = String(m.events.length - 1);
    this.scrubber.step = '1';
    this.scrubber.dataset.timelineScrubber = '';
    this.scrubber.addEventListener('input', () => {
      this.pause();
      this.go(Number(this.scrubber.value));
    });
    scrubLabel.append(scrubText, this.scrubber);
    controls.append(this.back, this.playButton, this.forward, scrubLabel);

    this.description = document.createElement('p');
    this.description.className = 'timeline-now';
    this.description.setAttribute('aria-live', 'polite');
    this.description.dataset.timelineNow = '';

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
      .concat(m.consumers.map((c) => ({ id: 'consumer', consumer: c, name: c.label, height: c.height })));
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
    const state = document.createElement('ul');
    state.className = 'timeline-state';
    state.setAttribute('aria-label', 'What each lane holds at the current event');
    for (const lane of lanes) {
      const cell = div('timeline-label timeline-label-' + lane.id);
      cell.style.height = lane.height + 'px';
      if (lane.id === 'sink') {
        const kind = document.createElement('span');
        kind.className = 'timeline-label-kind';
        kind.textContent = `(${lane.kind})`;
        cell.append(span(lane.name), ' ', kind);
        cell.dataset.sink = lane.sink;
      } else {
        cell.textContent = lane.id === 'consumer' ? lane.consumer.key : lane.name;
      }
      labels.append(cell);
      if (lane.id !== 'axis') svg.append(svgEl('line', { x1: 0, x2: width, y1: lane.y, y2: lane.y, class: 'tl-lane-rule' }));
      if (lane.id === 'sink' || lane.id === 'consumer') {
        const item = document.createElement('li');
        item.dataset.lane = lane.sink || lane.consumer.key;
        const name = document.createElement('span');
        name.className = 'timeline-lane-name';
        name.textContent = (lane.id === 'sink' ? `${lane.name} (${lane.kind})` : lane.name) + ': ';
        const summary = document.createElement('span');
        summary.className = 'timeline-lane-summary';
        item.append(name, summary);
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
      const item = document.createElement('span');
      item.className = 'timeline-key ' + cls;
      item.textContent = text;
      legend.append(item);
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

/**
 * The trace in seq order plus what does not change with the step: sinks and their kinds, consumers, checkpoint
 * offsets. `kinds` holds the declared sinks only; `keyed` the sinks declared "upsert".
 */
export function buildModel(trace) {
  const events = trace.slice().sort((a, b) => a.seq - b.seq)
    .map((e) => (e.type === 'consume' && !e.isolation ? { ...e, isolation: 'consumer' } : e));
  const sinks = [];
  for (const e of events) if (e.sink && !sinks.includes(e.sink)) sinks.push(e.sink);
  const kinds = new Map();
  for (const e of events) if (e.type === 'sink' && !kinds.has(e.sink)) kinds.set(e.sink, e.kind);
  const keyed = new Set(sinks.filter((s) => kinds.get(s) === 'upsert'));

  // The offset a write belongs to: the offset of the last record read with that key.
  const writeOffset = new Map();
  const checkpointOffset = new Map();
  let lastRead = null;   // the source's position: the checkpoint offset is the one after it
  const offsetOfKey = new Map();
  events.forEach((e, i) => {
    if (e.type === 'read') {
      lastRead = e.offset;
      if (e.key != null) offsetOfKey.set(e.key, e.offset);
    } else if (e.type === 'write') {
      if (e.key != null && offsetOfKey.has(e.key)) writeOffset.set(i, offsetOfKey.get(e.key));
    } else if (e.type === 'checkpoint' || e.type === 'barrier') {
      if (lastRead != null) checkpointOffset.set(i, lastRead + 1);
    } else if (e.type === 'replay') {
      lastRead = e.offset - 1;
    }
  });

  // A consume event reads the latest write of its key (and value) before it: if that row is aborted later, the
  // reader saw output that was taken back.
  const consumeSource = new Map();
  const lastWrite = new Map();   // key, and key=value -> the latest write
  events.forEach((e, i) => {
    if (e.type === 'write' && e.key != null) {
      lastWrite.set(e.key, i);
      lastWrite.set(e.key + '=' + e.value, i);
    }
    if (e.type === 'consume' && e.key != null) {
      const source = lastWrite.get(e.value == null ? e.key : e.key + '=' + e.value);
      if (source != null) consumeSource.set(i, source);
    }
  });

  const model = { events, sinks, kinds, keyed, writeOffset, checkpointOffset, consumeSource, consumers: [] };
  const consumes = events.filter((e) => e.type === 'consume');
  if (consumes.length) {
    for (const level of ['read_uncommitted', 'read_committed']) {
      if (consumes.some((e) => e.isolation === level)) {
        model.consumers.push({ key: level, label: `${level} reader`, height: LANE, derived: false });
      }
    }
    for (const e of consumes) {
      if (!model.consumers.some((c) => c.key === e.isolation)) {
        model.consumers.push({ key: e.isolation, label: `${e.isolation} reader`, height: LANE, derived: false });
      }
    }
  } else {
    const transactional = sinks.filter((s) => events.some((e) => e.sink === s && e.type === 'write'
      && (e.txn != null || e.visible === false)));
    if (transactional.length) {
      const end = stateAt(model, events.length - 1);
      for (const level of ['read_uncommitted', 'read_committed']) {
        const sightings = end.sightings[level];
        const stack = Math.max(1, ...countPerColumn(sightings));
        model.consumers.push({ key: level, label: `${level} reader of ${transactional.join(', ')}`,
          height: Math.max(LANE, stack * (CHIP_H + 4) + 8), derived: true, sightings });
      }
      model.transactional = transactional;
    }
  }
  return model;
}

function countPerColumn(sightings) {
  const count = new Map();
  for (const s of sightings) count.set(s.at, (count.get(s.at) || 0) + 1);
  return [...count.values()];
}

/** How the lane of `sink` is labelled: "upsert by key", "append", or "append, not declared". */
function kindLabel(model, sink) {
  const kind = model.kinds.get(sink);
  if (kind === 'upsert') return 'upsert by key';
  return kind === 'append' ? 'append' : 'append, not declared';
}

/**
 * The state after the events 0..step: every row written so far with its state (visible, invisible, precommitted,
 * aborted) and flags (duplicate, overwritten), what the derived consumers saw, and a summary per lane.
 */
export function stateAt(model, step) {
  const rows = new Map();
  const sightings = { read_uncommitted: [], read_committed: [] };
  const slots = new Map();
  const transactional = model.transactional || null;
  const watch = (sink) => !transactional || transactional.includes(sink);
  const see = (level, row, at) => {
    const k = level + '@' + at;
    const slot = slots.get(k) || 0;
    slots.set(k, slot + 1);
    sightings[level].push({ row, at, slot });
  };
  // A duplicate is the same source record (its offset, or else its key and value) visible twice in a sink that
  // appends; in a sink that overwrites by key the newer row replaces the older one.
  const current = new Map();
  const becomeVisible = (i, at) => {
    const row = rows.get(i);
    row.state = 'visible';
    if (row.key != null) {
      const keyed = model.keyed.has(row.sink);
      const offset = model.writeOffset.get(i);
      const e = model.events[i];
      const id = row.sink + '\u0000' + (keyed ? row.key : offset != null ? '@' + offset : row.key + '=' + e.value);
      const other = current.has(id) ? rows.get(current.get(id)) : null;
      if (other && other.state === 'visible' && !other.overwritten) {
        if (keyed) other.overwritten = true;
        else row.duplicate = true;
      }
      if (!row.duplicate) current.set(id, i);
    }
    if (watch(row.sink)) see('read_committed', i, at);
  };
  const last = Math.min(step, model.events.length - 1);
  for (let i = 0; i <= last; i++) {
    const e = model.events[i];
    if (e.type === 'write') {
      rows.set(i, { sink: e.sink, key: e.key, txn: e.txn ?? null, state: 'invisible', duplicate: false, overwritten: false });
      if (watch(e.sink)) see('read_uncommitted', i, i);
      if (e.visible !== false) becomeVisible(i, i);
    } else if (e.type === 'precommit' || e.type === 'commit' || e.type === 'abort') {
      for (const [j, row] of rows) {
        if (row.sink !== e.sink || row.txn !== e.txn || row.state === 'aborted' || row.state === 'visible') continue;
        if (e.type === 'precommit') row.state = 'precommitted';
        else if (e.type === 'abort') row.state = 'aborted';
        else becomeVisible(j, i);
      }
    }
  }
  const summaries = new Map();
  for (const sink of model.sinks) {
    const mine = [...rows.values()].filter((r) => r.sink === sink);
    const visible = mine.filter((r) => r.state === 'visible' && !r.overwritten).length;
    const pending = mine.filter((r) => r.state === 'invisible' || r.state === 'precommitted').length;
    const aborted = mine.filter((r) => r.state === 'aborted').length;
    const dups = [...new Set(mine.filter((r) => r.duplicate).map((r) => r.key))];
    const parts = [`${visible} visible row${visible === 1 ? '' : 's'}`];
    if (pending) parts.push(`${pending} not yet visible`);
    if (aborted) parts.push(`${aborted} aborted`);
    if (dups.length) parts.push('duplicates: ' + dups.join(', '));
    summaries.set(sink, parts.join(' · '));
  }
  for (const c of model.consumers) {
    let keys;
    if (c.derived) {
      keys = (sightings[c.key] || []).map((s) => model.events[s.row].key + (rows.get(s.row).state === 'aborted' ? ' (aborted)' : ''));
    } else {
      keys = [];
      for (let i = 0; i <= last; i++) {
        const e = model.events[i];
        if (e.type !== 'consume' || e.isolation !== c.key) continue;
        const source = rows.get(model.consumeSource.get(i));
        keys.push((e.key ?? String(e.value)) + (source && source.state === 'aborted' ? ' (aborted)' : ''));
      }
    }
    summaries.set(c.key, keys.length ? 'saw ' + keys.join(', ') : 'nothing yet');
  }
  return { rows, sightings, summaries };
}

/** The event at `index` in words: "t=7: AppendSink writes o3 (offset 2) — visible". */
export function describe(model, index) {
  const e = model.events[index];
  const at = `t=${e.seq}: `;
  const item = e.key ?? String(e.value);
  switch (e.type) {
    case 'sink':
      return e.kind === 'upsert'
        ? `${at}${e.sink} is declared an upsert sink: a write replaces the row with the same key`
        : `${at}${e.sink} is declared an append sink: every write adds a row`;
    case 'read':
      return `${at}the source reads ${item} at offset ${e.offset}`;
    case 'write': {
      const offset = model.writeOffset.get(index);
      const where = offset != null ? ` (offset ${offset})` : '';
      const row = stateAt(model, index).rows.get(index);
      let how = e.visible === false ? `invisible until ${e.txn ?? 'its transaction'} commits` : 'visible';
      if (e.visible !== false && e.txn) how += ` (transaction ${e.txn})`;
      if (row && row.duplicate) how += `, a duplicate of ${item}`;
      return `${at}${e.sink} writes ${item}${where} \u2014 ${how}`;
    }
    case 'barrier':
      return `${at}the barrier of checkpoint ${e.checkpoint} passes`;
    case 'precommit':
      return `${at}${e.sink} pre-commits transaction ${e.txn}: durable, still invisible`;
    case 'checkpoint': {
      const offset = model.checkpointOffset.get(index);
      return `${at}checkpoint ${e.checkpoint} completes${offset != null ? `: recovery would resume at offset ${offset}` : ''}`;
    }
    case 'commit':
      return `${at}${e.sink} commits transaction ${e.txn}: its rows become visible`;
    case 'abort':
      return `${at}${e.sink} aborts transaction ${e.txn}: its rows are discarded`;
    case 'crash':
      return `${at}the job crashes${e.note ? ` (${e.note})` : ''}`;
    case 'replay':
      return `${at}recovery replays the source from offset ${e.offset}`;
    case 'consume':
      return `${at}a ${e.isolation} consumer reads ${item}${e.key != null && e.value != null ? ` = ${e.value}` : ''}`;
    case 'truncated':
      return `${at}the trace stops here: ${e.note || 'too many events'}`;
    default:
      return `${at}${e.type}`;
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

function svgEl(name, attrs) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

function span(text) {
  const el = document.createElement('span');
  el.textContent = text;
  return el;
}

function div(className) {
  const el = document.createElement('div');
  el.className = className;
  return el;
}
