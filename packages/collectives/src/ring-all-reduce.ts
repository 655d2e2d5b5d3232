import type { Seconds } from '@trainplan/units';
import { checkAlphaBeta, type AlphaBetaOptions } from './alpha-beta-options.ts';

/**
 * Ring all-reduce, n = the per-rank buffer: 2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ
 * (Thakur, Rabenseifner & Gropp 2005; MPICH allreduce ring). It sends exactly the
 * Patarasuk-Yuan lower bound, 2(p−1)/p·n per rank.
 */
export function ringAllReduce(options: AlphaBetaOptions): Seconds {
  checkAlphaBeta(options);
  const { bytes: n, ranks: p, alphaSeconds: a, betaSecondsPerByte: b, gammaSecondsPerByte: g = 0 } = options;
  return 2 * (p - 1) * a + ((2 * (p - 1)) / p) * n * b + ((p - 1) / p) * n * g;
}
