import type { Seconds } from '@trainplan/units';
import { ceilLog2, checkAlphaBeta, type AlphaBetaOptions } from './alpha-beta-options.ts';

/**
 * Recursive-doubling all-reduce: lg p·(α + nβ + nγ) (Thakur, Rabenseifner & Gropp 2005).
 * Latency-optimal, bandwidth-poor: every round moves the whole buffer. ⌈lg p⌉ rounds for
 * non-powers of two (MPICH folds the extra ranks in, adding a round).
 */
export function recursiveDoublingAllReduce(options: AlphaBetaOptions): Seconds {
  checkAlphaBeta(options);
  const { bytes: n, ranks: p, alphaSeconds: a, betaSecondsPerByte: b, gammaSecondsPerByte: g = 0 } = options;
  return ceilLog2(p) * (a + n * b + n * g);
}
