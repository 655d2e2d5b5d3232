import type { Seconds } from '@trainplan/units';
import { ceilLog2, checkAlphaBeta, type AlphaBetaOptions } from './alpha-beta-options.ts';

/** Binomial-tree broadcast of an n-byte buffer: ⌈lg p⌉·(α + nβ) (Thakur, Rabenseifner & Gropp 2005). */
export function binomialBroadcast(options: AlphaBetaOptions): Seconds {
  checkAlphaBeta(options);
  const { bytes: n, ranks: p, alphaSeconds: a, betaSecondsPerByte: b } = options;
  return ceilLog2(p) * (a + n * b);
}
