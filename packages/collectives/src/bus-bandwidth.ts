import type { Bytes, BytesPerSecond, Seconds } from '@trainplan/units';
import { algBandwidth } from './alg-bandwidth.ts';
import { busBandwidthFactor } from './bus-bandwidth-factor.ts';
import type { CollectiveOp } from './types.ts';

/** nccl-tests' bus bandwidth: algbw × the op's factor (NVIDIA/nccl-tests doc/PERFORMANCE.md). */
export function busBandwidth(options: {
  readonly op: CollectiveOp;
  readonly ranks: number;
  readonly bytes: Bytes;
  readonly seconds: Seconds;
}): BytesPerSecond {
  return algBandwidth(options.bytes, options.seconds) * busBandwidthFactor(options.op, options.ranks);
}
