import { describe, expect, it } from 'vitest';
import { formatSize, GiB, KiB, MiB } from '../src/index.ts';

describe('formatSize: a size in the units it was likely given in', () => {
  it('binary where KiB, MiB or GiB show it exactly', () => {
    expect([KiB(64), MiB(1), GiB(1), GiB(16)].map(formatSize)).toEqual(['64.0 KiB', '1.00 MiB', '1.00 GiB', '16.0 GiB']);
  });
  it('decimal otherwise: 1 GB is not 954 MiB, 1 TB not 931 GiB', () => {
    expect([1e9, 1e12, 1e3].map(formatSize)).toEqual(['1.00 GB', '1.00 TB', '1.00 KB']);
  });
  it('whole bytes under a kilobyte as a plain count, as nccl-tests prints them', () => {
    expect([8, 999].map(formatSize)).toEqual(['8 B', '999 B']);
  });
});
