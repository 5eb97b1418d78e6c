// Small DOM builders shared by the widgets.

/** A `type="button"` button with its text (textContent: never markup) that calls `onClick`. */
export function button(text, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.addEventListener('click', onClick);
  return b;
}
