import type { Bytes, BytesPerSecond, Seconds } from '@trainplan/units';

/**
 * nccl-tests' algorithm bandwidth: the op's "size" (collectives-reference §2) over its time.
 * A zero-time collective (one rank: nothing moves) has no meaningful rate and reports 0.
 */
export function algBandwidth(bytes: Bytes, seconds: Seconds): BytesPerSecond {
  if (!(seconds >= 0) || !(bytes >= 0) || !Number.isFinite(seconds) || !Number.isFinite(bytes)) {
    throw new RangeError(`bytes and seconds must be finite numbers ≥ 0, got ${bytes} B in ${seconds} s`);
  }
  return seconds === 0 ? 0 : bytes / seconds;
}
