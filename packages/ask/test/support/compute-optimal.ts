import { parseCount } from '@trainplan/units';

/**
 * What the compute-optimal answers' tests read their figures with (compute-optimal.test.ts, flop-budget-size.test.ts):
 * the constants of the closed form, the headline's rounding, and a count as the answer writes it.
 */

/** Seconds in an hour. */
export const HOUR = 3600;
/** Chinchilla's tokens a parameter (Hoffmann et al. 2022), and 6ND's FLOPs a parameter a token (Kaplan et al. 2020). */
export const CHINCHILLA = 20;
export const SIX = 6;
/**
 * The headline's figures are to three significant figures (compactCount, toExponential(2)): half a unit in the third
 * figure is at most 0.5% of the figure.
 */
export const ROUNDING = 0.005;

/** "2.5B" → 2.5e9, by units' parseCount; a text that is no count fails the test that reads it. */
export function countOf(written: string): number {
  const n = parseCount(written);
  if (n === undefined) throw new Error(`not a count: ${written}`);
  return n;
}

/** Whether `value` is within `share` of `expected`, as a ratio. */
export const near = (value: number, expected: number, share: number): boolean => Math.abs(value / expected - 1) <= share;
