// The lesson header gives way to the lesson. The server draws the summary whole (it reads without JavaScript); here
// its "More about this lesson" part closes, so a phone's first screen reaches the tabs. Once the reader opens a tab
// (or arrives on a deep link) the header turns compact: a smaller title and the summary behind "About this lesson",
// so a tab's content starts on a laptop's first screen. Loaded before tabs.js: a deep link's target is scrolled to
// after the header has shrunk, not before.

import { tabRoute } from './tab-route.js';

const header = document.querySelector('.lesson-header');
const nav = document.querySelector('nav.tabs');

if (header && nav) init();

function init() {
  const more = header.querySelector('.lesson-more');
  if (more) more.open = false;
  if (tabRoute(location.hash)) compact();

  // tabs.js dispatches this before it scrolls to a deep-linked item, so the scroll lands on the compact layout. Its
  // first one is the page's own start (the hash, handled above, or the first tab): that is not the reader's doing.
  let first = true;
  document.addEventListener('lesson:route', (event) => {
    if (first) {
      first = false;
      return;
    }
    compact();
    if (!event.detail?.path?.length) showPanelStart(event.detail?.tab);
  });
}

function compact() {
  if (header.classList.contains('is-compact')) return;
  header.classList.add('is-compact');
  const more = header.querySelector('.lesson-more');
  if (more) more.open = false;
}

/** A tab opened while reading far down another: its content starts right under the tab bar, not mid-panel. */
function showPanelStart(tabId) {
  const panel = tabId && document.getElementById(tabId);
  if (!panel) return;
  const gap = panel.getBoundingClientRect().top - nav.getBoundingClientRect().bottom;
  if (gap < 0) window.scrollBy({ top: gap, behavior: 'instant' });
}
