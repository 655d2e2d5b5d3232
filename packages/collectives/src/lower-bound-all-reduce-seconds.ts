import type { Bytes, Seconds } from '@trainplan/units';
import { checkFiniteNonNegative } from './alpha-beta-options.ts';

/**
 * Patarasuk & Yuan (JPDC 69(2), 2009): every all-reduce algorithm sends at least 2(p−1)/p·n bytes
 * per process, so on links of β seconds per byte it takes at least 2(p−1)/p·n·β.
 */
export function lowerBoundAllReduceSeconds(options: {
  readonly bytes: Bytes;
  readonly ranks: number;
  readonly betaSecondsPerByte: number;
}): Seconds {
  const { bytes, ranks, betaSecondsPerByte } = options;
  if (!Number.isInteger(ranks) || ranks < 1) throw new RangeError(`ranks must be a positive integer, got ${ranks}`);
  checkFiniteNonNegative('bytes', bytes);
  checkFiniteNonNegative('betaSecondsPerByte', betaSecondsPerByte);
  return ((2 * (ranks - 1)) / ranks) * bytes * betaSecondsPerByte;
}
