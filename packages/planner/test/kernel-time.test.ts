import { describe, expect, it } from 'vitest';
import { gpuById } from '@trainplan/hardware';
import { COMPUTE_CALIBRATION, gemmSeconds, kernelContext, tileWaveEfficiency } from '../src/index.ts';
import { gpt3OnSelene } from './fixtures.ts';

describe('GEMM tile and wave quantisation', () => {
  it('one full wave of 128×128 tiles on 108 SMs wastes nothing but the tile\'s own efficiency', () => {
    expect(tileWaveEfficiency(128, 128 * 108, 1, 108)).toBeCloseTo(0.95, 12);
  });
  it('one tile past a full wave loses efficiency (wave quantisation)', () => {
    expect(tileWaveEfficiency(128, 128 * 109, 1, 108)).toBeLessThan(0.6);
  });
  it('padding a dimension to the tile (tile quantisation) lowers efficiency', () => {
    // 1536×1152 is exactly one wave of 128×128 tiles on 108 SMs; one more row needs a 13th tile row.
    expect(tileWaveEfficiency(1536 + 1, 1152, 1, 108)).toBeLessThan(tileWaveEfficiency(1536, 1152, 1, 108));
  });
  it('is never above 1', () => {
    for (const m of [1, 7, 128, 1000, 2048, 8192]) for (const n of [1, 64, 96, 3072, 12288]) {
      expect(tileWaveEfficiency(m, n, 1, 132)).toBeLessThanOrEqual(1);
    }
  });
});

describe('GEMM roofline', () => {
  const ctx = kernelContext(gpt3OnSelene, COMPUTE_CALIBRATION.ampere);
  it('a large square GEMM runs at the calibrated fraction of peak', () => {
    const n = 8192;
    const seconds = gemmSeconds(ctx, { m: n, n, k: n });
    const achieved = (2 * n ** 3) / seconds;
    expect(achieved / gpuById('a100-80gb')!.peakFlops.bf16!).toBeGreaterThan(0.6);
    expect(achieved / gpuById('a100-80gb')!.peakFlops.bf16!).toBeLessThanOrEqual(COMPUTE_CALIBRATION.ampere.gemmPeakFraction);
  });
  it('a skinny GEMM is bound by HBM traffic, not tensor cores', () => {
    const seconds = gemmSeconds(ctx, { m: 8192, n: 8192, k: 16 });
    const bytes = 2 * (8192 * 16 * 2) + 2 * 8192 * 8192;
    expect(seconds).toBeGreaterThanOrEqual(bytes / gpuById('a100-80gb')!.hbmBandwidth);
  });
});
