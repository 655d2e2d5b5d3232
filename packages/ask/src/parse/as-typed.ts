import { powersOfTen } from '../lexicon/powers-of-ten.ts';

/** A phrase as a regular expression's literal text. */
export const literal = (phrase: string): string => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A power of ten as typed: "1e300", "3e-4", "3 × 10^11", "10**12". */
const TYPED_POWER = /(?<![\w.])(?:\d+(?:\.\d+)?(?:e[+-]?\d+|\s*[x*\u00d7]\s*10\s*(?:\^|\*\*)\s*[+-]?\d+)|10\s*(?:\^|\*\*)\s*[+-]?\d+)(?![\d.])/gi;

/**
 * A phrase that starts with a number normalize wrote out from a power of ten ("0.0003" from "3e-4"), with the power as typed
 * (QA: "lr 3e-4" was said not read as "0.0003", and "1e300" as its 301 digits); undefined when no power typed writes it.
 */
function typedPower(text: string, phrase: string): string | undefined {
  const [, number = '', rest = ''] = /^(\d+(?:\.\d+)?)([\s\S]*)$/.exec(phrase) ?? [];
  const power = [...text.matchAll(TYPED_POWER)].find((m) => powersOfTen(m[0].toLowerCase().replace(/\u00d7/g, 'x')) === number);
  return power === undefined ? undefined : `${power[0]}${rest}`;
}

/** A phrase of the normalised text as the question typed it ("$1M", not "$1m"), where the question holds it; else as normalised. */
export function asTyped(text: string, phrase: string): string {
  const at = text.toLowerCase().indexOf(phrase);
  if (at >= 0) return text.slice(at, at + phrase.length);
  const power = typedPower(text, phrase);
  if (power !== undefined) return power;
  // Where normalize changed the characters between the words ("new year’s" → "new year s", "15–jan"): the words matched
  // with what normalize turns into a space or a hyphen between them.
  const loose = new RegExp(phrase.split(/(\s+|-)/).map((p) => (p === '-' ? '[-\u2010-\u2015\u2212]' : /^\s+$/.test(p) ? '[\\s`*_"“”‘’]+' : literal(p))).join(''), 'i');
  return loose.exec(text)?.[0] ?? phrase;
}
