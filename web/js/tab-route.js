// What a lesson page's hash names: "#qa/L3" is {tab: 'qa', path: ['L3']}; null when it names no tab (for example the
// skip link's #main). A module of its own, with no effect of its own: tabs.js routes by it, and lesson-header.js,
// which must run before tabs.js does, reads the page's first hash by it too.

export function tabRoute(hash) {
  if (!hash || hash.length < 2) return null;
  const [tab, ...path] = decodeURIComponent(hash.slice(1)).split('/');
  if (![...document.querySelectorAll('.tab-panel')].some((panel) => panel.id === tab)) return null;
  return { tab, path: path.filter(Boolean) };
}
