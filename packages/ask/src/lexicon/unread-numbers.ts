import { unreadNumberWords } from './numbers.ts';
import { HW_TOKEN } from './quantities.ts';

/**
 * Numbers no pattern read, found in what the patterns left of the text once every fact is taken out of it (each reader
 * blanks what it reads: scanner.ts' Scanner). QA: "on 256 h10" (a typo), "on 256 xyz" and "en 10 jours" were dropped
 * unsaid, and the answer said "no cluster size given" where a size was written. Each is said back as not read.
 */

/**
 * A number standing alone (never inside a word: "h10", "gpt3", "p4d"; nor a price's or a path's), its scale and any letters
 * glued on ("2Tt": QA dropped "for 2Tt" unsaid and planned the model's own budget), with a count "x" another
 * ("16x8"), and the word after it where one follows: "256 h10", "10 jours", "256".
 */
const LEFT_NUMBER = new RegExp(String.raw`(?<![\w.,$€£/-]|${HW_TOKEN}\s*[x*]?\s*)\d+(?:\.\d+)?(?:[kmbt][a-z]*)?(?:\s*x\s*\d+)?(?![\w.])(?!\s*(?:x\s*)?${HW_TOKEN}\b)(?:\s+(?!(?:on|in|with|for|and|or|to|of|at|by|the|an?|${HW_TOKEN})\b)[a-z][\w.-]*)?`, 'g');

/** The numbers left unread in `scanned` (the text as the readers left it), each with the word after it, as written there. */
export const unreadNumbers = (scanned: string): string[] => [
  ...[...scanned.matchAll(LEFT_NUMBER)].map((m) => m[0].trim()),
  // Spelt-out numbers that are no one number ("one eighty four"), left whole by numbers.ts' spelledNumbers.
  ...unreadNumberWords(scanned),
];
