import type { Ratio } from '@trainplan/units';
import type { CollectiveOp } from './types.ts';

/** Every op, in nccl-tests' order of its binaries (for the error that names them). */
export const COLLECTIVE_OP_NAMES: readonly CollectiveOp[] = [
  'all-reduce', 'all-gather', 'reduce-scatter', 'broadcast', 'reduce', 'all-to-all', 'send-recv',
];

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
    default:
      throw new RangeError(`unknown collective op '${String(op)}' (one of ${COLLECTIVE_OP_NAMES.join(', ')})`);
  }
}
