import { describe, expect, it } from 'vitest';
import { log2i, sizeIndex } from '../src/nccl-candidate.ts';

describe('sizeIndex', () => {
  // NCCL's tree correction indexes by log2i(⌊bytes / 64⌋) (src/tuning/tree.cc); sizeIndex takes a
  // count-leading-zeros shortcut below 2^31 and must agree with it everywhere.
  const sizes = [0, 1, 63, 64, 127, 128, 129, 4095, 4096, 1 << 20, (1 << 20) + 1, 2 ** 31 * 64 - 1, 2 ** 31 * 64, 2 ** 40, 3 * 2 ** 40 + 17];
  for (let e = 0; e <= 44; e++) sizes.push(2 ** e - 1, 2 ** e, 2 ** e + 1, 3 * 2 ** e);
  it.each(sizes)('of %d bytes is log2i(⌊bytes / 64⌋)', (bytes) => {
    expect(sizeIndex(bytes)).toBe(log2i(Math.floor(bytes / 64)));
  });
  it('is 0 below 128 bytes and 25 at 2 GiB', () => {
    expect(sizeIndex(127)).toBe(0);
    expect(sizeIndex(2 ** 31)).toBe(25);
  });
});
