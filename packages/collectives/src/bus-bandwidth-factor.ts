import type { Ratio } from '@trainplan/units';
import type { CollectiveOp } from './types.ts';

/**
 * nccl-tests' bus-bandwidth factor: busbw = algbw × factor, so that busbw of a bandwidth-optimal
 * algorithm can be compared with the hardware's link rate whatever the rank count
 * (NVIDIA/nccl-tests doc/PERFORMANCE.md; collectives-reference §2).
 */
export function busBandwidthFactor(op: CollectiveOp, ranks: number): Ratio {
  if (!Number.isInteger(ranks) || ranks < 1) throw new RangeError(`ranks must be a positive integer, got ${ranks}`);
  switch (op) {
    case 'all-reduce':
      return (2 * (ranks - 1)) / ranks;
    case 'all-gather':
    case 'reduce-scatter':
    case 'all-to-all':
      return (ranks - 1) / ranks;
    case 'broadcast':
    case 'reduce':
    case 'send-recv':
      return 1;
  }
}
