import { describe, expect, it } from 'vitest';
import { formatSize, GiB, KiB, MiB, typedInBinary } from '../src/index.ts';

describe('formatSize: decimal units where they show a size exactly, else binary where they do, else decimal', () => {
  it.each([
    // 64,000 = 64.0 × 1000: decimal shows it exactly (and so does 62.5 × 1024, which is why it once flipped to KiB).
    [64_000, '64.0 KB'], [1000, '1.00 KB'], [64e6, '64.0 MB'], [1e9, '1.00 GB'], [1e12, '1.00 TB'],
    // Powers of two: 65,536 is 65.5 KB to three digits (not exact), 64.0 KiB exactly; so every size of the sweep is binary.
    [KiB(64), '64.0 KiB'], [MiB(1), '1.00 MiB'], [GiB(1), '1.00 GiB'], [GiB(1.5), '1.50 GiB'], [GiB(16), '16.0 GiB'],
    // Exact in neither: 1,234,567 B is 1.23 MB to three digits, as decimal.
    [1_234_567, '1.23 MB'],
    // Whole bytes under a kilobyte, as nccl-tests prints them.
    [8, '8 B'], [999, '999 B'],
  ])('%d B → %s', (bytes, shown) => {
    expect(formatSize(bytes)).toBe(shown);
  });

  it('a size both systems show exactly (512,000 B: 512 KB, 500 KiB) is decimal unless it was typed in binary units', () => {
    expect(formatSize(512_000)).toBe('512 KB');
    expect(formatSize(512_000, true)).toBe('500 KiB');
    // Typed in binary, not exact in them (1e6 B is 977 KiB to three digits): decimal, exact.
    expect(formatSize(1e6, true)).toBe('1.00 MB');
  });

  it.each([['500KiB', true], ['1.5 GiB', true], ['64kib', true], ['64kB', false], ['64000', false], ['1e9', false], ['8B', false]])('%s is typed in binary units: %s', (text, binary) => {
    expect(typedInBinary(text)).toBe(binary);
  });
});
