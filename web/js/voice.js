// Reads the gist aloud with Web Speech Synthesis: the lesson summary, the key ideas and the Gist tab's sections,
// one sentence at a time (a table one row at a time, each cell with its column's header), highlighting what is being
// read. While reading, the controls stay on screen (voice bar at the bottom, maps the CSS) and the sentence is
// scrolled into the space between the tab bar and the controls. Leaving the Gist tab or the browser tab pauses.
// Where the browser has no speech synthesis the controls are replaced by a notice.

const box = document.querySelector('[data-voice]');
if (box) init(box);

function init(box) {
  document.querySelector('.voice-needs-js')?.remove();
  const synth = window.speechSynthesis;
  if (!synth || typeof window.SpeechSynthesisUtterance !== 'function') {
    const notice = document.createElement('p');
    notice.className = 'voice-notice';
    notice.textContent = 'Voice readout needs Web Speech Synthesis, which this browser does not provide.';
    box.replaceChildren(box.querySelector('h3') || '', notice);
    box.hidden = false;
    return;
  }

  const play = box.querySelector('[data-voice-play]');
  const pause = box.querySelector('[data-voice-pause]');
  const stop = box.querySelector('[data-voice-stop]');
  const rate = box.querySelector('[data-voice-rate]');
  const status = box.querySelector('.voice-status');
  const controls = box.querySelector('.voice-buttons');
  const panel = box.closest('.tab-panel');
  let sentences = null; // [{text, marks: [element, ...]}, ...], built on first play
  let index = 0;
  let run = 0; // bumped on every cancel so late events from cancelled utterances are ignored

  box.hidden = false;
  setState('stopped');

  play.addEventListener('click', () => {
    sentences ??= readableParts(document.querySelectorAll('[data-readout]'));
    if (!sentences.length) return;
    speakFrom(0);
  });
  pause.addEventListener('click', () => {
    if (box.dataset.state === 'playing') hold('Paused.');
    else if (box.dataset.state === 'paused') speakFrom(index);
  });
  stop.addEventListener('click', halt);
  rate.addEventListener('change', () => {
    // A new rate applies from the sentence being read: restart it at the new speed.
    if (box.dataset.state === 'playing') speakFrom(index);
  });
  // The controls hide with the Gist tab, and a hidden browser tab is not listened to: pause, to resume on return.
  document.addEventListener('lesson:route', (event) => {
    if (event.detail?.tab !== panel?.id && box.dataset.state === 'playing') hold('Paused: you left the Gist tab.');
  });
  document.addEventListener('visibilitychange', () => {
    if (document.hidden && box.dataset.state === 'playing') hold('Paused while this tab was in the background.');
  });
  window.addEventListener('pagehide', () => synth.cancel());

  function speakFrom(start) {
    const mine = ++run;
    synth.cancel();
    setState('playing');
    const say = (i) => {
      if (mine !== run) return;
      if (i >= sentences.length) {
        halt();
        return;
      }
      index = i;
      const utterance = new SpeechSynthesisUtterance(sentences[i].text);
      utterance.rate = Number(rate.value) || 1;
      utterance.lang = document.documentElement.lang || 'en';
      utterance.onstart = () => mine === run && highlight(i);
      utterance.onend = () => say(i + 1);
      utterance.onerror = (event) => {
        if (mine !== run || event.error === 'interrupted' || event.error === 'canceled') return;
        status.textContent = 'Voice readout stopped: ' + explain(event.error, synth.getVoices().length);
        halt();
      };
      highlight(i);
      synth.speak(utterance);
    };
    say(start);
  }

  // Engines differ in how (and whether) they pause an utterance, so a pause cancels it and Resume reads the
  // sentence again from its start.
  function hold(message) {
    run++;
    synth.cancel();
    setState('paused');
    status.textContent = message;
  }

  function halt() {
    run++;
    synth.cancel();
    highlight(-1);
    setState('stopped');
  }

  function highlight(i) {
    for (const el of document.querySelectorAll('.voice-sentence.is-reading')) el.classList.remove('is-reading');
    if (i < 0) return;
    for (const el of sentences[i].marks) el.classList.add('is-reading');
    scrollToReading(sentences[i].marks[0]);
  }

  /** Brings the sentence into the band between the sticky tab bar and the voice bar, never behind either. */
  function scrollToReading(el) {
    const tabs = document.querySelector('nav.tabs');
    const top = Math.max(0, tabs ? tabs.getBoundingClientRect().bottom : 0);
    const bar = controls.getBoundingClientRect();
    const bottom = bar.top > top && bar.top < window.innerHeight ? bar.top : window.innerHeight;
    const rect = el.getBoundingClientRect();
    if (rect.top >= top && rect.bottom <= bottom) return;
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    const middle = top + Math.max(0, (bottom - top - rect.height) / 2);
    window.scrollBy({ top: rect.top - middle, behavior: reduce ? 'auto' : 'smooth' });
  }

  function setState(state) {
    if (state !== 'stopped' && box.dataset.state === 'stopped') {
      // The controls leave the box for the bar: the box keeps its height so the text below does not jump.
      box.style.setProperty('min-height', `${box.offsetHeight}px`);
    } else if (state === 'stopped') {
      box.style.removeProperty('min-height');
    }
    box.dataset.state = state;
    play.disabled = state !== 'stopped';
    pause.disabled = state === 'stopped';
    pause.textContent = state === 'paused' ? 'Resume' : 'Pause';
    stop.disabled = state === 'stopped';
    if (state !== 'stopped' || !status.textContent.startsWith('Voice readout stopped')) {
      status.textContent = { stopped: '', playing: 'Reading the gist aloud.', paused: 'Paused.' }[state];
    }
  }
}

/**
 * What the readout reads, in page order: each sentence of the readable blocks, wrapped in spans (a sentence crossing
 * inline markup gets one span per text node), and each table row as one sentence that names every cell's column.
 */
function readableParts(roots) {
  const parts = [];
  for (const root of roots) {
    for (const el of root.querySelectorAll('p, li, h3, h4, h5, caption, tbody tr, summary')) {
      if (el.closest('details:not([open]) > :not(summary)')) continue;
      if (el.tagName === 'TR') parts.push(row(el));
      else if (!el.closest('tbody') && !el.querySelector('p, li, h3, h4, h5, table, ul, ol')) parts.push(...wrapSentences(el));
    }
  }
  return parts;
}

/** "At-least-once: mechanism, process, then commit; on failure, duplicates; ..." */
function row(tr) {
  const headers = [...(tr.closest('table')?.querySelectorAll('thead th') ?? [])].map((th) => clean(th.textContent));
  const cells = [...tr.children].map((cell) => clean(cell.textContent));
  const [first, ...rest] = cells;
  const said = rest.map((cell, i) => (headers[i + 1] ? lowerFirst(headers[i + 1]) + ', ' : '') + cell.replace(/[.;:]+$/, ''));
  tr.classList.add('voice-sentence');
  return { text: `${first}: ${said.join('; ')}.`, marks: [tr] };
}

function clean(text) {
  return text.replace(/\s+/g, ' ').trim();
}

/** "On failure" reads as "on failure" mid-sentence; "TTL" stays as it is. */
function lowerFirst(text) {
  return /^[A-Z][a-z]/.test(text) ? text[0].toLowerCase() + text.slice(1) : text;
}

/** Wraps every sentence of one block in spans and returns the sentences in reading order. */
function wrapSentences(block) {
  const text = block.textContent;
  const bounds = sentenceEnds(text.replace(/[\r\n]/g, ' ')); // a soft line break in the source ends no sentence
  const texts = [];
  const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n);
  const spansOf = bounds.map(() => []);
  let offset = 0;
  for (const node of texts) {
    const start = offset;
    const end = offset + node.data.length;
    offset = end;
    // Split this text node at every sentence boundary inside it, from the back so offsets stay valid.
    const cuts = bounds.filter((b) => b > start && b < end).map((b) => b - start);
    const pieces = [];
    let rest = node;
    for (const cut of cuts.reverse()) pieces.unshift(rest.splitText(cut));
    pieces.unshift(rest);
    let pieceStart = start;
    for (const piece of pieces) {
      const length = piece.data.length;
      const sentence = bounds.findIndex((b) => pieceStart < b);
      pieceStart += length;
      if (!piece.data.trim()) continue;
      const span = document.createElement('span');
      span.className = 'voice-sentence';
      piece.replaceWith(span);
      span.append(piece);
      spansOf[sentence].push(span);
    }
  }
  return spansOf.filter((spans) => spans.length)
    .map((spans) => ({ text: clean(spans.map((s) => s.textContent).join('')), marks: spans }));
}

/**
 * What a speech error code means for the reader, and what to do about it: the codes themselves
 * ("synthesis-failed") say nothing to a learner.
 */
export function explain(code, voices) {
  if (voices === 0 || code === 'voice-unavailable' || code === 'language-unavailable') {
    return 'this browser has no voice to read English with. Install a text-to-speech voice (on Linux, the '
      + 'speech-dispatcher and espeak-ng packages; on other systems, in the language or speech settings), '
      + 'or open the lesson in another browser.';
  }
  return {
    'synthesis-failed': 'the browser\'s speech engine failed. Press Play to try again; if it fails again, '
      + 'restart the browser or try another one.',
    'synthesis-unavailable': 'the browser\'s speech engine is not available right now. Try again in a moment.',
    'audio-busy': 'the sound device is in use by another program. Close it and press Play again.',
    'audio-hardware': 'no sound output was found. Connect headphones or speakers and press Play again.',
    'not-allowed': 'the browser did not allow speech here. Press Play again (it must follow a click).',
    network: 'the voice needs a network connection the browser could not make. Choose another voice in the '
      + 'system settings, or try again when online.',
    'text-too-long': 'a sentence was too long for this browser\'s voice. Press Play to go on from the next one.',
  }[code] ?? 'the browser stopped reading (' + code + '). Press Play to try again.';
}

/** Offsets where sentences end (exclusive), the last being the text's length. */
function sentenceEnds(text) {
  const ends = [];
  if (typeof Intl !== 'undefined' && Intl.Segmenter) {
    for (const { index, segment } of new Intl.Segmenter('en', { granularity: 'sentence' }).segment(text)) {
      ends.push(index + segment.length);
    }
  } else {
    const re = /[^.!?]+[.!?]*\s*/g;
    let m;
    while ((m = re.exec(text))) ends.push(m.index + m[0].length);
  }
  if (!ends.length || ends[ends.length - 1] !== text.length) ends.push(text.length);
  return ends;
}
