import type { Seconds } from '@trainplan/units';
import { ceilLog2, checkAlphaBeta, type AlphaBetaOptions } from './alpha-beta-options.ts';

/**
 * Rabenseifner's all-reduce (recursive-halving reduce-scatter + recursive-doubling all-gather):
 * 2 lg p·α + 2(p−1)/p·nβ + (p−1)/p·nγ (Thakur, Rabenseifner & Gropp 2005; MPICH
 * allreduce_intra_reduce_scatter_allgather.c).
 */
export function rabenseifnerAllReduce(options: AlphaBetaOptions): Seconds {
  checkAlphaBeta(options);
  const { bytes: n, ranks: p, alphaSeconds: a, betaSecondsPerByte: b, gammaSecondsPerByte: g = 0 } = options;
  return 2 * ceilLog2(p) * a + ((2 * (p - 1)) / p) * n * b + ((p - 1) / p) * n * g;
}
