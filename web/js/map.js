// Interactive architecture maps: select a node or edge (click, Enter, Space), move between nodes with the arrow
// keys, clear with Escape. The selection is highlighted, shown in the details panel (copied from the map's text
// list, never built from strings) and kept in the URL (#maps/node/<id>, #maps/edge/<id>) with replaceState.
// Each selection is announced as `lesson:map-select` {kind, id} on document (progress.js records it). Also enables the
// Mermaid export's Copy button. Below the map (most screens) the panel is a sheet pinned to the bottom of the screen
// (maps.css); the selection is scrolled clear of it.

const DIRECTIONS = {
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
  ArrowDown: [0, 1],
  ArrowUp: [0, -1],
};

function initMap(root) {
  const panel = root.querySelector('.map-details');
  const hint = root.querySelector('.map-keys');
  const text = root.querySelector('.map-text');
  const nodes = [...root.querySelectorAll('.map-node')];
  const edges = [...root.querySelectorAll('.map-edge')];
  const emptyPanel = [...panel.childNodes].map((n) => n.cloneNode(true));
  let selected = null;

  panel.hidden = false;
  hint.hidden = false;
  // Set through the CSS object model: the page's content security policy refuses inline style attributes.
  const svg = root.querySelector('.map-svg');
  if (svg?.dataset.minWidth) svg.style.setProperty('--map-min-width', `${svg.dataset.minWidth}px`);
  if (text) text.open = false;

  function textItem(kind, id) {
    return root.querySelector(`.map-text-item[data-kind="${kind}"][data-ref="${CSS.escape(id)}"]`);
  }

  function clearMarks() {
    for (const el of [...nodes, ...edges]) {
      el.classList.remove('is-selected', 'is-incident', 'is-neighbour');
      el.setAttribute('aria-pressed', 'false');
    }
    root.classList.remove('has-selection');
  }

  function select(el, { updateUrl = true } = {}) {
    clearMarks();
    const kind = el.classList.contains('map-node') ? 'node' : 'edge';
    const id = el.dataset[kind];
    el.classList.add('is-selected');
    el.setAttribute('aria-pressed', 'true');
    root.classList.add('has-selection');
    if (kind === 'node') {
      for (const edge of edges) {
        if (edge.dataset.from === id || edge.dataset.to === id) {
          edge.classList.add('is-incident');
          const other = edge.dataset.from === id ? edge.dataset.to : edge.dataset.from;
          nodeById(other)?.classList.add('is-neighbour');
        }
      }
    } else {
      nodeById(el.dataset.from)?.classList.add('is-neighbour');
      nodeById(el.dataset.to)?.classList.add('is-neighbour');
    }
    const item = textItem(kind, id);
    const copy = item ? [...item.childNodes].map((n) => n.cloneNode(true)) : [];
    for (const child of copy) {
      if (child.nodeType === Node.ELEMENT_NODE) child.removeAttribute('id');
    }
    panel.replaceChildren(closeButton(), ...copy);
    if (kind === 'node') panel.append(...connections(id));
    panel.dataset.kind = kind;
    selected = el;
    clearOfSheet(el);
    if (updateUrl) history.replaceState(null, '', `#maps/${kind}/${id}`);
    document.dispatchEvent(new CustomEvent('lesson:map-select', { detail: { kind, id } }));
  }

  // Buttons in the panel for the selected node's edges, so the keyboard can follow a connection.
  function connections(id) {
    const incident = edges.filter((edge) => edge.dataset.from === id || edge.dataset.to === id);
    if (incident.length === 0) return [];
    const heading = document.createElement('p');
    heading.className = 'map-connections-heading';
    heading.textContent = 'Connections';
    const list = document.createElement('ul');
    list.className = 'map-connections';
    for (const edge of incident) {
      const button = document.createElement('button');
      button.type = 'button';
      const outgoing = edge.dataset.from === id;
      const other = nodeById(outgoing ? edge.dataset.to : edge.dataset.from);
      button.textContent = `${outgoing ? 'to' : 'from'} ${other.getAttribute('aria-label')}: ${edge.dataset.label}`;
      button.addEventListener('click', () => {
        select(edge);
        edge.focus();
      });
      const item = document.createElement('li');
      item.append(button);
      list.append(item);
    }
    return [heading, list];
  }

  function closeButton() {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'map-details-close';
    button.textContent = 'Close';
    button.addEventListener('click', () => {
      const was = selected;
      clear();
      was?.focus({ preventScroll: true });
    });
    return button;
  }

  // The sheet covers the bottom of the screen: a selection under it moves up to just above it.
  function clearOfSheet(el) {
    const sheet = panel.getBoundingClientRect();
    const part = el.getBoundingClientRect();
    if (getComputedStyle(panel).position !== 'sticky' || part.bottom <= sheet.top) return;
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    window.scrollBy({ top: part.bottom - sheet.top + 16, behavior: reduce ? 'auto' : 'smooth' });
  }

  function toggle(el) {
    if (el === selected) clear();
    else select(el);
  }

  function clear() {
    if (!selected) return;
    clearMarks();
    selected = null;
    panel.replaceChildren(...emptyPanel.map((n) => n.cloneNode(true)));
    delete panel.dataset.kind;
    history.replaceState(null, '', '#maps');
  }

  function nodeById(id) {
    return nodes.find((n) => n.dataset.node === id);
  }

  // The nearest node in the arrow's direction: mostly along it, a little sideways is allowed but costs more.
  function neighbour(from, [dx, dy]) {
    const x0 = Number(from.dataset.x);
    const y0 = Number(from.dataset.y);
    let best = null;
    let bestScore = Infinity;
    for (const node of nodes) {
      if (node === from) continue;
      const vx = Number(node.dataset.x) - x0;
      const vy = Number(node.dataset.y) - y0;
      const along = vx * dx + vy * dy;
      const across = Math.abs(vx * dy - vy * dx);
      if (along <= 0) continue;
      const score = along + 2 * across;
      if (score < bestScore) {
        best = node;
        bestScore = score;
      }
    }
    return best;
  }

  for (const el of [...nodes, ...edges]) {
    el.addEventListener('click', () => toggle(el));
    el.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        toggle(el);
      } else if (event.key in DIRECTIONS && el.classList.contains('map-node')) {
        event.preventDefault();
        neighbour(el, DIRECTIONS[event.key])?.focus();
      }
    });
  }
  root.querySelector('.map-svg').addEventListener('click', (event) => {
    if (event.target === event.currentTarget) clear();
  });
  root.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && selected) {
      event.preventDefault();
      clear();
    }
  });

  return {
    show(kind, id) {
      const el = (kind === 'node' ? nodes : edges).find((e) => e.dataset[kind] === id);
      if (!el) return false;
      select(el, { updateUrl: false });
      el.focus({ preventScroll: true });
      return true;
    },
  };
}

function initCopy(exportArea) {
  const button = exportArea.querySelector('.map-copy');
  const status = exportArea.querySelector('.map-copy-status');
  const source = exportArea.querySelector('.map-mermaid');
  let timer = null;
  button.hidden = false;
  button.addEventListener('click', async () => {
    clearTimeout(timer);
    try {
      await navigator.clipboard.writeText(source.textContent);
      status.textContent = 'Copied';
      status.dataset.state = 'ok';
    } catch {
      // No clipboard access (insecure origin, permission denied): select the text for Ctrl+C instead.
      getSelection().selectAllChildren(source);
      source.focus();
      status.textContent = 'Copy is blocked here: the text is selected, press Ctrl+C (or Cmd+C).';
      status.dataset.state = 'warn';
    }
    timer = setTimeout(() => {
      status.textContent = '';
      delete status.dataset.state;
    }, 4000);
  });
}

const maps = [...document.querySelectorAll('.map[data-map]')].map(initMap);
document.querySelectorAll('.map-export').forEach(initCopy);

function route(path) {
  const [kind, id] = path;
  if ((kind === 'node' || kind === 'edge') && id) maps.some((map) => map.show(kind, id));
}

function routeFromHash() {
  const [tab, ...path] = decodeURIComponent(location.hash.slice(1)).split('/');
  if (tab === 'maps') route(path);
}

document.addEventListener('lesson:route', (event) => {
  if (event.detail?.tab === 'maps') route(event.detail.path ?? []);
});
// The page may have routed before this module ran, and it must work without tabs.js too.
window.addEventListener('hashchange', routeFromHash);
routeFromHash();
