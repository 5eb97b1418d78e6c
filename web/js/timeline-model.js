// The replay timeline's model, free of the DOM: a run's trace (RunResult.trace, see lessons/SCHEMA.md) in seq order
// with its sinks, their kinds and the consumers to draw (buildModel), the state after any step (stateAt), and any
// event in words (describe). timeline.js draws it.
//
// How a sink keeps its rows comes from the trace alone: its `sink` event (Trace.sink(name, kind)) says "append"
// (every write adds a row) or "upsert" (a write replaces the row with the same key). A sink the trace never declares
// is treated as appending, so a replayed write shows up as a duplicate rather than being hidden. In an appending sink
// a duplicate is one source record (the offset of the read with the write's key, or else the key and value) visible
// twice; in an upserting sink a newer row for a key marks the older one overwritten. The program's printed output
// plays no part: editing a print line changes nothing here.
//
// A consumer's `stack` is how many of its sightings share one event's column at most (its lane grows to hold them).

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
        model.consumers.push({ key: level, label: `${level} reader`, stack: 1, derived: false });
      }
    }
    for (const e of consumes) {
      if (!model.consumers.some((c) => c.key === e.isolation)) {
        model.consumers.push({ key: e.isolation, label: `${e.isolation} reader`, stack: 1, derived: false });
      }
    }
  } else {
    const transactional = sinks.filter((s) => events.some((e) => e.sink === s && e.type === 'write'
      && (e.txn != null || e.visible === false)));
    if (transactional.length) {
      const end = stateAt(model, events.length - 1);
      for (const level of ['read_uncommitted', 'read_committed']) {
        const sightings = end.sightings[level];
        model.consumers.push({ key: level, label: `${level} reader of ${transactional.join(', ')}`,
          stack: Math.max(1, ...countPerColumn(sightings)), derived: true, sightings });
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
export function kindLabel(model, sink) {
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
    case 'abort': {
      const orphan = unfinishedCheckpointOf(model, index);
      return orphan == null
        ? `${at}${e.sink} aborts transaction ${e.txn}: its rows are discarded`
        : `${at}${e.sink} aborts transaction ${e.txn}, pre-committed for checkpoint ${orphan}, which never completed:`
          + ' its rows are discarded';
    }
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

/**
 * For an abort at `index` of a transaction its sink pre-committed at a checkpoint's barrier, that checkpoint's id
 * when the checkpoint had not completed by then; otherwise null.
 */
function unfinishedCheckpointOf(model, index) {
  const abort = model.events[index];
  let barrier = null;
  let checkpoint = null;
  for (let i = 0; i < index; i++) {
    const e = model.events[i];
    if (e.type === 'barrier') barrier = e.checkpoint;
    if (e.type === 'precommit' && e.sink === abort.sink && e.txn === abort.txn) checkpoint = barrier;
  }
  if (checkpoint == null) return null;
  const completed = model.events.slice(0, index).some((e) => e.type === 'checkpoint' && e.checkpoint === checkpoint);
  return completed ? null : checkpoint;
}
