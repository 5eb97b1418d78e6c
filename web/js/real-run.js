// "Run on real Kafka + Flink" beside the sink demo on the Sandbox tab (and "Run on real PostgreSQL + Kafka" beside the
// outbox demo, whose lines are compared as the simulation prints them). The server's engine lab runs the same crash
// on a real Kafka broker and a real Flink job (POST /api/lab/real-runs, then GET /api/lab/real-runs/{id} until it is
// done); this module runs the lesson's simulation with the same knob values (POST /api/run with the sink demo and
// its params), and shows both per reader: the figures, "agree" or where they differ, a progress list through the
// engines' phases, and what the engines did, listed and drawn on a replay timeline like the simulation's
// (timeline.js). Fencing and the timeout gotcha show the real errors. An app started
// without the engine lab says how to turn it on. Everything the server sends goes into textContent only.

import { el, button, sentence } from './dom.js';
import { Timeline } from './timeline.js';

const POLL_MS = 500;
// Each cell carries its column's name too: on a phone the table stacks into one card per reader (real-run.css).
const COLUMNS = ['Reader', 'Simulation', 'Real engines', 'Verdict'];
const BUTTONS = {
  'seed-crash': 'Run on real Kafka + Flink',
  fencing: 'Zombie fencing on real Kafka',
  'timeout-gotcha': 'Timeout gotcha on real Kafka + Flink',
  'outbox-crash': 'Run on real PostgreSQL + Kafka',
};
// The simulations that have a real run, each with the scenarios it offers and how its figures are read.
const LABS = {
  'sink-demo': {
    scenarios: ['seed-crash', 'fencing', 'timeout-gotcha'],
    title: 'The same crash on real Kafka and Flink',
    intro: 'Runs the sink demo\u2019s knob values on a single-node Kafka broker and a Flink MiniCluster on the server, '
      + 'then compares what three consumers read with the simulation.',
    phases: [
      ['starting-broker', 'Starting the Kafka broker'],
      ['starting-flink', 'Starting Flink'],
      ['running', 'Running the job'],
      ['reading-topics', 'Reading the topics'],
    ],
    simulate: simulateSinkDemo,
  },
  'outbox-demo': {
    scenarios: ['outbox-crash'],
    title: 'The same crash on real PostgreSQL, Debezium and Kafka',
    intro: 'Runs the outbox demo\u2019s knob values on a PostgreSQL server, a polling relay or Debezium\u2019s '
      + 'PostgreSQL connector (CDC), and a Kafka broker on the server, then compares each printed line with the '
      + 'simulation\u2019s.',
    phases: [
      ['starting-broker', 'Starting the Kafka broker'],
      ['starting-postgres', 'Starting PostgreSQL'],
      ['running', 'Running the orders, the relay and the consumers'],
      ['reading-figures', 'Reading the tables and the topics'],
    ],
    simulate: (knobs) => simulateLines('outbox-demo', knobs),
  },
};
const READERS = {
  read_committed: 'read_committed consumer',
  read_uncommitted: 'read_uncommitted consumer',
  at_least_once: 'consumer of the at-least-once topic',
};

for (const [snippet, lab] of Object.entries(LABS)) {
  const article = document.querySelector(`article.sandbox[data-snippet="${snippet}"]`);
  if (article) init(article, snippet, lab);
}

async function init(widget, snippet, lab) {
  const titleId = `real-run-title-${snippet}`;
  const section = el('section', { class: 'real-run', 'data-real-run': true, 'aria-labelledby': titleId },
    el('h3', { id: titleId, text: lab.title }));
  widget.append(section);
  let catalog;
  try {
    const response = await fetch('/api/lab/scenarios', { headers: { Accept: 'application/json' } });
    catalog = await response.json();
  } catch {
    section.append(el('p', { text: 'The engine lab could not be reached.' }));
    return;
  }
  if (!catalog.enabled) {
    section.append(el('p', { class: 'real-run-off', 'data-real-run-off': true, text: sentence(catalog.enable) }));
    return;
  }
  new RealRunPanel(widget, section, catalog, lab);
}

class RealRunPanel {
  constructor(widget, section, catalog, lab) {
    const scenarios = catalog.scenarios.filter((scenario) => lab.scenarios.includes(scenario.id));
    this.widget = widget;
    this.lab = lab;
    // The estimate is what the server measured over its latest runs, and says so while the engines still start.
    const starting = catalog.engines === 'warm' ? '' : ' The engines are starting on the server.';
    section.append(el('p', { class: 'real-run-intro',
      text: `${lab.intro} A run takes about ${catalog.typicalRunSeconds} s here.${starting}` }));
    this.buttons = scenarios.map((scenario) => button(BUTTONS[scenario.id] || scenario.title, () => this.run(scenario),
      { 'data-real-run-button': scenario.id, title: scenario.summary }));
    section.append(el('p', { class: 'real-run-buttons' }, ...this.buttons));
    this.status = el('p', { class: 'real-run-status', role: 'status', 'aria-live': 'polite', 'data-real-run-status': true });
    this.phases = el('ol', { class: 'real-run-phases', 'data-real-run-phases': true, hidden: true },
      ...lab.phases.map(([id, text]) => el('li', { 'data-phase': id, text })));
    this.results = el('div', { class: 'real-run-results', 'data-real-run-results': true });
    // The real run's steps drawn like the simulation's trace (the engines send them in its format).
    this.timeline = new Timeline('the real engines');
    this.timeline.element.dataset.realRunTimeline = '';
    section.append(this.status, this.phases, this.results, this.timeline.element);
  }

  /** The sink demo's knob controls as they are set now (knobs.js makes them). */
  knobValues(scenario) {
    const values = {};
    for (const knob of scenario.knobs) {
      const input = this.widget.querySelector(`[data-knob="${knob.name}"]`);
      if (!input) continue;
      values[knob.name] = input.type === 'checkbox' ? input.checked : Number(input.value);
    }
    return values;
  }

  async run(scenario) {
    for (const b of this.buttons) b.disabled = true;
    this.results.replaceChildren();
    this.timeline.clear();
    try {
      const knobs = this.knobValues(scenario);
      const simulation = scenario.simulation ? this.lab.simulate(knobs) : Promise.resolve(null);
      const run = await this.follow(await send('/api/lab/real-runs', { scenario: scenario.id, knobs }));
      if (!run) return;
      this.show(scenario, knobs, run.result, await simulation);
    } finally {
      for (const b of this.buttons) b.disabled = false;
    }
  }

  /** Polls the run until it is done; null (with the reason on the status line) if it is refused or fails. */
  async follow(answer) {
    let { response, body } = answer;
    for (;;) {
      if (!response || !response.ok) {
        this.phases.hidden = true;
        const wait = response && response.status === 429 ? ` Try again in ${response.headers.get('Retry-After') || 'a few'} s.` : '';
        this.status.textContent = sentence(body?.error || 'the engine lab could not be reached') + wait;
        this.status.dataset.state = 'error';
        return null;
      }
      this.progress(body);
      if (body.status === 'done') return body;
      if (body.status === 'failed') {
        this.status.textContent = sentence(body.error || 'the real run failed');
        this.status.dataset.state = 'error';
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      ({ response, body } = await send(`/api/lab/real-runs/${encodeURIComponent(body.id)}`));
    }
  }

  progress(run) {
    const done = run.status === 'done';
    this.status.dataset.state = done ? 'done' : 'working';
    this.status.textContent = done ? 'The real run is done.'
      : run.status === 'queued' ? `Waiting for the engines: number ${run.position} in the queue.`
        : `${(this.lab.phases.find(([id]) => id === run.phase) || [null, 'Working'])[1]}\u2026`;
    this.phases.hidden = done;
    const current = this.lab.phases.findIndex(([id]) => id === run.phase);
    this.phases.querySelectorAll('li').forEach((li, i) => {
      li.classList.toggle('done', current > i || (current === -1 && done));
      if (i === current) li.setAttribute('aria-current', 'step');
      else li.removeAttribute('aria-current');
    });
  }

  show(scenario, knobs, result, simulation) {
    const settings = Object.entries(knobs).map(([name, value]) => `${name}=${value}`).join(', ');
    if (result.lines) {
      this.showLines(`${scenario.title}${settings ? ` with ${settings}` : ''}`, result, simulation);
      this.showEvents(result);
      return;
    }
    const sim = simulation && simulation.figures;
    const rows = Object.entries(result.readers).map(([reader, real]) => {
      const expected = sim ? sim[reader] : null;
      const verdict = expected ? compare(expected, real) : '';
      return el('tr', { 'data-reader': reader },
        el('th', { scope: 'row' }, READERS[reader] || reader, el('br'), el('small', { text: real.topic })),
        el('td', { 'data-simulated': true, 'data-label': COLUMNS[1], text: expected ? figures(expected) : '\u2014' }),
        el('td', { 'data-real': true, 'data-label': COLUMNS[2], text: figures(real) }),
        el('td', { 'data-verdict': true, 'data-label': COLUMNS[3],
          class: verdict === 'agree' ? 'agree' : verdict ? 'differ' : '', text: verdict }));
    });
    const differing = [...rows].filter((row) => row.querySelector('.differ'));
    const summary = !sim ? (simulation && simulation.error ? `The simulation did not run: ${simulation.error}` : '')
      : differing.length === 0 ? 'The simulation and the real engines agree on every reader.'
        : `They differ for: ${differing.map((row) => READERS[row.dataset.reader]).join(', ')}.`;
    this.results.replaceChildren(
      el('p', { class: 'real-run-settings', text: `${scenario.title}${settings ? ` with ${settings}` : ''}` }),
      el('div', { class: 'real-run-table' }, el('table', {},
        el('caption', { text: 'What each consumer read' }),
        el('thead', {}, el('tr', {}, ...COLUMNS.map((h) => el('th', { scope: 'col', text: h })))),
        el('tbody', {}, ...rows))),
      el('p', { class: 'real-run-summary', 'data-real-run-summary': true, text: summary }));
    if (result.errors.length) {
      this.results.append(el('h4', { text: 'What the real clients threw' }), el('ul', { class: 'real-run-errors', 'data-real-run-errors': true },
        ...result.errors.map((e) => el('li', {}, el('code', { text: e.class }), ' ', e.message))));
    }
    this.showEvents(result);
  }

  /**
   * The simulation's printed lines beside the real run's, which the engines print in the same form: one row per
   * line, named by its first word (the orders, then each consumer).
   */
  showLines(settings, result, simulation) {
    const simulated = simulation && simulation.lines;
    const rows = result.lines.map((real) => {
      const name = real.split(' ')[0];
      const expected = simulated ? simulated.find((line) => line.split(' ')[0] === name) : null;
      const verdict = !simulated ? '' : expected === real ? 'agree' : 'differ';
      return el('tr', { 'data-reader': name },
        el('th', { scope: 'row', text: name }),
        el('td', { 'data-simulated': true, 'data-label': COLUMNS[1], text: expected || '\u2014' }),
        el('td', { 'data-real': true, 'data-label': COLUMNS[2], text: real }),
        el('td', { 'data-verdict': true, 'data-label': COLUMNS[3], class: verdict, text: verdict }));
    });
    const differing = rows.filter((row) => row.querySelector('.differ'));
    const failed = simulation && simulation.error ? `The simulation did not run: ${simulation.error}` : '';
    const summary = !simulated ? failed
      : differing.length === 0 ? 'The simulation and the real engines agree on every line.'
        : `They differ for: ${differing.map((row) => row.dataset.reader).join(', ')}.`;
    this.results.replaceChildren(
      el('p', { class: 'real-run-settings', text: settings }),
      el('div', { class: 'real-run-table' }, el('table', {},
        el('caption', { text: 'What the broker held and what each consumer charged' }),
        el('thead', {}, el('tr', {}, ...COLUMNS.map((h) => el('th', { scope: 'col', text: h })))),
        el('tbody', {}, ...rows))),
      el('p', { class: 'real-run-summary', 'data-real-run-summary': true, text: summary }));
  }

  showEvents(result) {
    this.results.append(el('details', { class: 'real-run-events', 'data-real-run-events': true },
      el('summary', { text: `What the engines did (${result.events.length} events)` }),
      el('ol', {}, ...result.events.map((e) => el('li', { 'data-kind': e.kind },
        el('span', { class: 'real-run-ms', text: `${(e.ms / 1000).toFixed(2)} s` }), ' ', e.text)))));
    this.timeline.show(result.events.filter((e) => e.trace).map((e, seq) => ({ seq, ...e.trace })));
  }
}

/** "7 records, sum 220: o1 o2 o3 o4 o3 o4 o5" */
function figures(reader) {
  return `${reader.records} records, sum ${reader.sum}${reader.values.length ? `: ${reader.values.join(' ')}` : ''}`;
}

function compare(simulated, real) {
  const gaps = [];
  if (simulated.records !== real.records) gaps.push(`records ${simulated.records} vs ${real.records}`);
  if (simulated.sum !== real.sum) gaps.push(`sum ${simulated.sum} vs ${real.sum}`);
  if (gaps.length === 0 && simulated.values.join() !== real.values.join()) gaps.push('the order of the records');
  return gaps.length ? `differ: ${gaps.join(', ')}` : 'agree';
}

async function send(path, body) {
  try {
    const response = await fetch(path, body === undefined ? { headers: { Accept: 'application/json' } } : {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
    return { response, body: await response.json() };
  } catch {
    return { response: null, body: null };
  }
}

/** A simulation with the same knobs: the lines its own source (not the editor's edits) prints. */
async function simulateLines(snippet, knobs) {
  const { response, body } = await send('/api/run', { snippet, params: knobs });
  if (!response || !response.ok || body.status !== 'ok') {
    return { error: sentence(body?.error || body?.status || 'the sandbox could not be reached') };
  }
  return { lines: body.stdout.trim().split('\n') };
}

/**
 * The lesson's simulation with the same knobs: the sink demo's own source (not the editor's edits), read the way the
 * real consumers read. The two-phase sink's trace says what a read_committed and a read_uncommitted consumer saw; the
 * append sink stands for the at-least-once topic.
 */
async function simulateSinkDemo(knobs) {
  const { response, body } = await send('/api/run', { snippet: 'sink-demo', params: knobs });
  if (!response || !response.ok || body.status !== 'ok') {
    return { error: sentence(body?.error || body?.status || 'the sandbox could not be reached') };
  }
  const seen = { read_committed: [], read_uncommitted: [], at_least_once: [] };
  for (const event of body.trace || []) {
    if (event.type === 'consume' && seen[event.isolation]) seen[event.isolation].push(event);
    else if (event.type === 'write' && event.sink === 'AppendSink') seen.at_least_once.push(event);
  }
  const figures = {};
  for (const [reader, events] of Object.entries(seen)) {
    figures[reader] = { records: events.length, sum: events.reduce((sum, e) => sum + Number(e.value), 0),
      values: events.map((e) => e.key) };
  }
  return { figures };
}
