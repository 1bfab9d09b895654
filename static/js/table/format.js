/* Words and numbers as the table writes them (shared by the table's modules). */

// "%(name)s" placeholders, as Django's translations write them.
export const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => (values[key] ?? ""));

// A real minus sign (U+2212) for a number below zero, never a hyphen; "+" before a gain.
export function num(n) { return n < 0 ? `\u2212${Math.abs(n)}` : String(n); }
export function signed(n) { return n > 0 ? `+${n}` : num(n); }

export const $ = (id) => document.getElementById(id);

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
