import type { Seconds } from '@trainplan/units';
import { checkAlphaBeta, powerOfTwoCore, type AlphaBetaOptions } from './alpha-beta-options.ts';

/**
 * Recursive-doubling all-reduce: lg p·(α + nβ + nγ) for a power of two (Thakur, Rabenseifner & Gropp 2005;
 * MPICH allreduce_intra_recursive_doubling.c, "Cost = lgp.alpha + n.lgp.beta + n.lgp.gamma").
 * Latency-optimal, bandwidth-poor: every round moves the whole buffer. For other p, MPICH runs the rounds
 * among p' = 2^⌊lg p⌋ ranks, with a step before (the whole buffer sent and reduced: α + nβ + nγ) and one
 * after (the result sent back: α + nβ): (⌊lg p⌋ + 2)·(α + nβ) + (⌊lg p⌋ + 1)·nγ.
 */
export function recursiveDoublingAllReduce(options: AlphaBetaOptions): Seconds {
  checkAlphaBeta(options);
  const { bytes: n, ranks: p, alphaSeconds: a, betaSecondsPerByte: b, gammaSecondsPerByte: g = 0 } = options;
  const { rounds, folded } = powerOfTwoCore(p);
  return rounds * (a + n * b + n * g) + folded * (2 * (a + n * b) + n * g);
}
