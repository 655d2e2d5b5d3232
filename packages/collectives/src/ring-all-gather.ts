import type { Seconds } from '@trainplan/units';
import { checkAlphaBeta, type AlphaBetaOptions } from './alpha-beta-options.ts';

/**
 * Ring all-gather, n = the gathered (total output) size: (p−1)α + (p−1)/p·nβ
 * (Thakur, Rabenseifner & Gropp 2005; MPICH allgather ring).
 */
export function ringAllGather(options: AlphaBetaOptions): Seconds {
  checkAlphaBeta(options);
  const { bytes: n, ranks: p, alphaSeconds: a, betaSecondsPerByte: b } = options;
  return (p - 1) * a + ((p - 1) / p) * n * b;
}
