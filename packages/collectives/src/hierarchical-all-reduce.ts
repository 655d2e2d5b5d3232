import type { Bytes, Seconds } from '@trainplan/units';
import { checkFiniteNonNegative } from './alpha-beta-options.ts';

/**
 * Hierarchical ("2D") all-reduce of n bytes on N nodes of g GPUs, one NIC rail per GPU
 * (collectives-reference §3):
 *   1. intra-node reduce-scatter: (g−1)α_i + (g−1)/g·nβ_i
 *   2. inter-node all-reduce of n/g on every rail at once: 2(N−1)α_o + 2(N−1)/N·(n/g)β_o
 *   3. intra-node all-gather: as step 1.
 * With β_i = β_o it moves exactly the Patarasuk-Yuan bound, 2(gN−1)/(gN)·n.
 */
export function hierarchicalAllReduce(options: {
  readonly bytes: Bytes;
  readonly gpusPerNode: number;
  readonly nodes: number;
  readonly alphaIntraSeconds: Seconds;
  readonly betaIntraSecondsPerByte: number;
  readonly alphaInterSeconds: Seconds;
  readonly betaInterSecondsPerByte: number;
}): Seconds {
  const { bytes: n, gpusPerNode: g, nodes: N } = options;
  if (!Number.isInteger(g) || g < 1 || !Number.isInteger(N) || N < 1) {
    throw new RangeError(`gpusPerNode and nodes must be positive integers, got ${g} and ${N}`);
  }
  checkFiniteNonNegative('bytes', n);
  checkFiniteNonNegative('alphaIntraSeconds', options.alphaIntraSeconds);
  checkFiniteNonNegative('betaIntraSecondsPerByte', options.betaIntraSecondsPerByte);
  checkFiniteNonNegative('alphaInterSeconds', options.alphaInterSeconds);
  checkFiniteNonNegative('betaInterSecondsPerByte', options.betaInterSecondsPerByte);
  const intraStep = (g - 1) * options.alphaIntraSeconds + ((g - 1) / g) * n * options.betaIntraSecondsPerByte;
  const interStep = 2 * (N - 1) * options.alphaInterSeconds
    + ((2 * (N - 1)) / N) * (n / g) * options.betaInterSecondsPerByte;
  return intraStep + interStep + intraStep;
}
