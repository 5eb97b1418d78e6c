// The DOM builders every widget uses. Text always goes in as textContent (a string child is a text node), never as
// markup: program output, names and verdicts are user text.
//
// `attrs` of el() and svgEl() are attributes, set with setAttribute, except:
//   class    the class attribute (a string);
//   text     the element's textContent;
//   on<evt>  a listener for <evt> (onclick, oninput, ...);
//   a value of true sets the attribute empty (hidden: true); false, null and undefined leave it out.

const SVG = 'http://www.w3.org/2000/svg';

/** An HTML element with attributes (see above) and children (nodes or strings). */
export function el(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element with attributes (see above) and children. */
export function svgEl(name, attrs = {}, ...children) {
  return build(document.createElementNS(SVG, name), attrs, children);
}

/** A div with a class and children. */
export function div(className, ...children) {
  return el('div', { class: className }, ...children);
}

/** A span holding `text`, with an optional class. */
export function span(text, className) {
  return el('span', { class: className, text });
}

/** A `type="button"` button with its text that calls `onClick`; `attrs` as for el(). */
export function button(text, onClick, attrs = {}) {
  return el('button', { type: 'button', text, onclick: onClick, ...attrs });
}

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value == null) continue;
    if (key === 'text') node.textContent = value;
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...children);
  return node;
}

/**
 * A server message shown on its own, as a sentence: the server writes lower-case fragments without a full stop
 * (they also go inside longer lines), so "no snippet 'x'" reads "No snippet 'x'." (Sentence.java on the server).
 */
export function sentence(fragment) {
  const text = String(fragment).trim();
  if (!text) return text;
  const first = text[0].toUpperCase() + text.slice(1);
  return /[.!?)]$/.test(first) ? first : first + '.';
}

/** A JSON list the server put in a data-* attribute (empty when absent or not a list). */
export function dataList(text) {
  try {
    const list = JSON.parse(text || '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}
