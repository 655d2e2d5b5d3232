/** A phrase as a regular expression's literal text. */
export const literal = (phrase: string): string => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A phrase of the normalised text as the question typed it ("$1M", not "$1m"), where the question holds it; else as normalised. */
export function asTyped(text: string, phrase: string): string {
  const at = text.toLowerCase().indexOf(phrase);
  if (at >= 0) return text.slice(at, at + phrase.length);
  // Where normalize changed the characters between the words ("new year’s" → "new year s", "15–jan"): the words matched
  // with what normalize turns into a space or a hyphen between them.
  const loose = new RegExp(phrase.split(/(\s+|-)/).map((p) => (p === '-' ? '[-\u2010-\u2015\u2212]' : /^\s+$/.test(p) ? '[\\s`*_"“”‘’]+' : literal(p))).join(''), 'i');
  return loose.exec(text)?.[0] ?? phrase;
}
