// Reads the gist aloud with Web Speech Synthesis: the lesson summary, the key ideas and the Gist tab's sections,
// one sentence at a time, highlighting the sentence being read. Where the browser has no speech synthesis the
// controls are replaced by a notice.

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
  let sentences = null; // [[span, ...], ...], built on first play
  let index = 0;
  let run = 0; // bumped on stop/restart so late events from cancelled utterances are ignored

  box.hidden = false;
  setState('stopped');

  play.addEventListener('click', () => {
    sentences ??= wrapSentences(document.querySelectorAll('[data-readout]'));
    if (!sentences.length) return;
    index = 0;
    speakFrom(index);
  });
  pause.addEventListener('click', () => {
    if (box.dataset.state === 'playing') {
      synth.pause();
      setState('paused');
    } else if (box.dataset.state === 'paused') {
      synth.resume();
      setState('playing');
    }
  });
  stop.addEventListener('click', halt);
  rate.addEventListener('change', () => {
    // A new rate applies from the sentence being read: restart it at the new speed.
    if (box.dataset.state === 'playing') speakFrom(index);
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
      const utterance = new SpeechSynthesisUtterance(sentences[i].map((s) => s.textContent).join('').replace(/\s+/g, ' ').trim());
      utterance.rate = Number(rate.value) || 1;
      utterance.lang = document.documentElement.lang || 'en';
      utterance.onstart = () => mine === run && highlight(i);
      utterance.onend = () => say(i + 1);
      utterance.onerror = (event) => {
        if (mine !== run || event.error === 'interrupted' || event.error === 'canceled') return;
        status.textContent = 'Voice readout stopped: ' + event.error + '.';
        halt();
      };
      highlight(i);
      synth.speak(utterance);
    };
    say(start);
  }

  function halt() {
    run++;
    synth.cancel();
    highlight(-1);
    setState('stopped');
  }

  function highlight(i) {
    for (const span of document.querySelectorAll('.voice-sentence.is-reading')) span.classList.remove('is-reading');
    if (i < 0) return;
    for (const span of sentences[i]) span.classList.add('is-reading');
    const first = sentences[i][0];
    const rect = first.getBoundingClientRect();
    if (rect.top < 0 || rect.bottom > window.innerHeight) first.scrollIntoView({ block: 'center' });
  }

  function setState(state) {
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
 * Wraps every sentence of the readable blocks in spans (a sentence crossing inline markup gets one span per text
 * node) and returns the sentences in reading order, each as its list of spans.
 */
function wrapSentences(roots) {
  const blocks = [];
  for (const root of roots) {
    for (const el of root.querySelectorAll('p, li, h3, h4, h5, th, td, summary')) {
      if (!el.querySelector('p, li, h3, h4, h5, table, ul, ol') && !el.closest('details:not([open]) > :not(summary)')) {
        blocks.push(el);
      }
    }
  }
  const sentences = [];
  for (const block of blocks) {
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
    for (const spans of spansOf) if (spans.length) sentences.push(spans);
  }
  return sentences;
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
