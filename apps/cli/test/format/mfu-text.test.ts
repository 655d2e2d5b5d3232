import { describe, expect, it } from 'vitest';
import { fp8Peak, mfuCells, mfuHeaders, mfuText } from '../../src/format/mfu-text.ts';

describe('mfuText', () => {
  it('an FP8 plan on an H100 SXM: its MFU is of the FP8 peak, about twice the BF16 one (1,978.9 vs 989.4 TFLOP/s, NVIDIA\'s datasheet)', () => {
    const peak = fp8Peak('h100-sxm', 'fp8');
    expect(peak?.sixteen).toBe('BF16');
    expect(peak?.toSixteen).toBeCloseTo(1978.9 / 989.4, 12);
    // 28.2% of 1,978.9 TFLOP/s is 558.0 TFLOP/s, which is 56.4% of 989.4.
    expect(mfuText(0.282, peak)).toBe('28.2% of the FP8 peak (56.4% of the BF16 peak)');
    expect(mfuHeaders(peak)).toEqual(['MFU (FP8 peak)', 'MFU (BF16 peak)']);
    expect(mfuCells(0.282, peak)).toEqual(['28.2%', '56.4%']);
    expect(mfuCells(undefined, peak, '—')).toEqual(['—', '—']);
  });

  it.each([
    ['h100-sxm', 'bf16'],
    ['h100-sxm', 'fp16'],
    // The A100 has no FP8 tensor cores (no fp8 peak in the presets): nothing to say against.
    ['a100-80gb', 'fp8'],
    // A GPU the presets do not know: its peaks are not to be had, so the figure stands alone.
    ['my-gpu', 'fp8'],
  ])('%s at %s: one figure, with no peak named', (gpu, precision) => {
    const peak = fp8Peak(gpu, precision);
    expect(peak).toBeUndefined();
    expect(mfuText(0.421, peak)).toBe('42.1%');
    expect(mfuHeaders(peak)).toEqual(['MFU']);
    expect(mfuCells(0.421, peak)).toEqual(['42.1%']);
  });
});
