// Turns the lesson page's nav of links and its four <section>s into WAI-ARIA tabs, and owns the URL hash:
// #<tab> or #<tab>/<path...>. After showing a tab it dispatches `lesson:route` ({tab, path}) and brings the
// deep-linked element into view. Tab changes push history; widgets may replaceState, never push.

import { tabRoute } from './tab-route.js';

const nav = document.querySelector('nav.tabs');
const panels = [...document.querySelectorAll('.tab-panel')];

if (nav && panels.length) init();

function init() {
  const list = nav.querySelector('ul');
  const tabs = [...list.querySelectorAll('a')];
  let current = null; // the hash last routed, so popstate and hashchange for one navigation route once
  list.setAttribute('role', 'tablist');
  list.setAttribute('aria-label', nav.getAttribute('aria-label') || 'Lesson tabs');
  nav.removeAttribute('aria-label');
  for (const li of list.children) li.setAttribute('role', 'presentation');
  for (const tab of tabs) {
    const panel = document.getElementById(tab.hash.slice(1));
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-controls', panel.id);
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', tab.id);
    panel.tabIndex = 0;
  }
  document.documentElement.classList.add('tabs-ready');

  list.addEventListener('click', (event) => {
    const tab = event.target.closest('[role=tab]');
    if (!tab || opensElsewhere(event)) return;
    event.preventDefault();
    navigate('#' + tab.getAttribute('aria-controls'), { focus: false });
  });
  list.addEventListener('keydown', (event) => {
    const index = tabs.indexOf(document.activeElement);
    if (index < 0) return;
    const next = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      navigate('#' + tabs[index].getAttribute('aria-controls'), { focus: false });
      return;
    }
    if (next === undefined) return;
    event.preventDefault();
    const target = tabs[(next + tabs.length) % tabs.length];
    target.focus();
    navigate('#' + target.getAttribute('aria-controls'), { focus: false });
  });

  // In-page links to routes (#qa/L3, #maps/node/sink) push history and route without a jump.
  document.addEventListener('click', (event) => {
    const link = event.target.closest('a[href^="#"]');
    if (!link || link.closest('[role=tablist]') || event.defaultPrevented || opensElsewhere(event)) return;
    if (!tabRoute(link.getAttribute('href'))) return;
    event.preventDefault();
    navigate(link.getAttribute('href'), { focus: true });
  });
  // Back/forward (and a hash typed into the address bar); an empty hash is the first tab.
  const fromLocation = () => route(location.hash || '#' + panels[0].id, { focus: true });
  window.addEventListener('popstate', fromLocation);
  window.addEventListener('hashchange', fromLocation);

  const initial = tabRoute(location.hash);
  route(initial ? location.hash : '#' + panels[0].id, { focus: Boolean(initial), force: true });

  // A click always routes (following the same deep link twice scrolls to it again); history gets a new entry
  // only when the hash changes.
  function navigate(hash, options) {
    if (hash !== location.hash) history.pushState(null, '', hash);
    route(hash, { ...options, force: true });
  }

  function route(hash, { focus = false, force = false } = {}) {
    const target = tabRoute(hash);
    if (!target) return;
    if (hash === current && !force) return;
    current = hash;
    show(target.tab);
    document.dispatchEvent(new CustomEvent('lesson:route', { detail: { tab: target.tab, path: target.path } }));
    // A deep-linked item takes focus (screen readers land on it); a bare tab keeps focus where it is.
    if (target.path.length) reveal(document.getElementById(target.tab + '/' + target.path.join('/')), focus);
  }

  function show(tabId) {
    for (const tab of tabs) {
      const selected = tab.getAttribute('aria-controls') === tabId;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      document.getElementById(tab.getAttribute('aria-controls')).hidden = !selected;
    }
  }
}

/** Ctrl/Cmd/Shift-click or a middle click opens the link in a new tab or window: leave it to the browser. */
function opensElsewhere(event) {
  return event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey;
}


/**
 * Opens any closed <details> around the element, scrolls it into view and, if asked, moves focus to it. Exported for
 * widgets that build a deep-link target after the route (exercises.js).
 */
export function reveal(element, focus) {
  if (!element) return;
  for (let d = element.parentElement?.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
  if (element.tagName === 'DETAILS') element.open = true;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  element.scrollIntoView({ block: 'start', behavior: reduce ? 'auto' : 'smooth' });
  if (focus) {
    if (!element.matches('a, button, input, textarea, select, [tabindex]')) element.tabIndex = -1;
    element.focus({ preventScroll: true });
  }
}

// Printing shows every panel (CSS) and every answer; afterprint puts the answers back as they were.
const closedForPrint = [];
window.addEventListener('beforeprint', () => {
  for (const d of document.querySelectorAll('details:not([open])')) {
    d.open = true;
    closedForPrint.push(d);
  }
});
window.addEventListener('afterprint', () => {
  for (const d of closedForPrint.splice(0)) d.open = false;
});
