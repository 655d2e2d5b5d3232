import { unreadableNumbers, type UnreadableNumber } from '../lexicon/powers-of-ten.ts';
import { asTyped } from './as-typed.ts';
import type { ParseState } from './state.ts';

/** Past this many characters a number is said by its digits' count, never quoted whole ("a number of 400 digits"). */
const QUOTED_AT_MOST = 24;

/** Why a number is refused: no number at all, or past the largest (or nearer 0 than the smallest) a double holds. */
function whyRefused({ why }: UnreadableNumber, said: string): string {
  // Never quoted: "NaN" and "Infinity" in an answer read as the bot's own failure.
  if (why === 'not a number') return 'a count written as a word that names no number cannot be planned: give it in digits (e.g. "256 H100", "2T tokens", "in 30 days")';
  // A double's range (IEEE 754 binary64): up to about 1.8e308, down to about 5e-324 short of 0.
  return why === 'too small'
    ? `${said} is out of range: nearer 0 than the smallest number I read (about ${Number.MIN_VALUE.toPrecision(1)})`
    : `${said} is out of range: more than the largest number I read (about ${Number.MAX_VALUE.toPrecision(2)})`;
}

/**
 * Numbers no reader may take (lexicon/powers-of-ten.ts unreadableNumbers: "1e400", "1e-400", 400 nines in a deadline, "NaN
 * H100s"), taken out of the text first and refused, each said: never read as another number (QA: "1e-400 days" would be
 * 400 days, 400 nines Infinity days; "NaN H100s" was dropped unsaid and 128 nodes planned).
 */
export function readUnreadableNumbers(st: ParseState): void {
  const { s, text, problems } = st;
  for (const number of unreadableNumbers(s.text)) {
    s.blank(number);
    const typed = asTyped(text, number.written);
    const digits = /^[\d.]+/.exec(typed)?.[0].replace('.', '') ?? '';
    const said = typed.length > QUOTED_AT_MOST && digits.length > QUOTED_AT_MOST ? `a number of ${digits.length} digits` : `"${typed}"`;
    const problem = whyRefused(number, said);
    // "1e99999 … 1e99999": said once.
    if (!problems.includes(problem)) problems.push(problem);
  }
}
