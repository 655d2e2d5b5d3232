import type { Seconds } from '@trainplan/units';
import { checkAlphaBeta, type AlphaBetaOptions } from './alpha-beta-options.ts';

/**
 * Pairwise-exchange all-to-all: (p−1)α + nβ, with n the bytes each rank sends to the others
 * (Thakur, Rabenseifner & Gropp 2005; MPICH alltoall pairwise).
 */
export function pairwiseAllToAll(options: AlphaBetaOptions): Seconds {
  checkAlphaBeta(options);
  const { bytes: n, ranks: p, alphaSeconds: a, betaSecondsPerByte: b } = options;
  return (p - 1) * a + n * b;
}
