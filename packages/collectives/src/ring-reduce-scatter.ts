import type { Seconds } from '@trainplan/units';
import { checkAlphaBeta, type AlphaBetaOptions } from './alpha-beta-options.ts';

/**
 * Ring (pairwise) reduce-scatter, n = the total input: (p−1)α + (p−1)/p·n(β+γ)
 * (Thakur, Rabenseifner & Gropp 2005).
 */
export function ringReduceScatter(options: AlphaBetaOptions): Seconds {
  checkAlphaBeta(options);
  const { bytes: n, ranks: p, alphaSeconds: a, betaSecondsPerByte: b, gammaSecondsPerByte: g = 0 } = options;
  return (p - 1) * a + ((p - 1) / p) * n * (b + g);
}
