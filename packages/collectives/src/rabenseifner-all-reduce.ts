import type { Seconds } from '@trainplan/units';
import { checkAlphaBeta, powerOfTwoCore, type AlphaBetaOptions } from './alpha-beta-options.ts';

/**
 * Rabenseifner's all-reduce (recursive-halving reduce-scatter + recursive-doubling all-gather):
 * 2 lg p·α + 2(p−1)/p·nβ + (p−1)/p·nγ for a power of two (Thakur, Rabenseifner & Gropp 2005; MPICH
 * allreduce_intra_reduce_scatter_allgather.c). For other p, MPICH runs both halves among p' = 2^⌊lg p⌋
 * ranks, with a step before (the whole buffer sent and reduced: α + nβ + nγ) and one after (the result
 * sent back: α + nβ): (2⌊lg p⌋ + 2)·α + (2(p'−1)/p' + 2)·nβ + ((p'−1)/p' + 1)·nγ. MPICH's header comment
 * writes (p−1)/p for (p'−1)/p'; its code splits the buffer over the p' ranks (`cnts[i] = count / pof2`).
 */
export function rabenseifnerAllReduce(options: AlphaBetaOptions): Seconds {
  checkAlphaBeta(options);
  const { bytes: n, ranks: p, alphaSeconds: a, betaSecondsPerByte: b, gammaSecondsPerByte: g = 0 } = options;
  const { pof2, rounds, folded } = powerOfTwoCore(p);
  const share = (pof2 - 1) / pof2;
  return (2 * rounds + 2 * folded) * a + (2 * share + 2 * folded) * n * b + (share + folded) * n * g;
}
