import { describe, expect, it } from 'vitest';
import { toGBps, toGiB, toTFLOPS } from '@trainplan/units';
import { GPU_IDS, GPU_SOURCES, GPUS, gpuById, isGpuId } from '../src/gpus.ts';
import type { GpuSpec } from '../src/types.ts';

const CONTRACT_GPU_IDS = ['v100-32gb', 'a100-40gb', 'a100-80gb', 'a100-80gb-pcie', 'h100-sxm', 'h100-pcie', 'h200', 'gh200', 'b200', 'gb200'];
const PCIE_CARDS = ['a100-80gb-pcie', 'h100-pcie'];
const ALL = Object.values(GPUS);
const gpu = (id: string): GpuSpec => {
  const spec = gpuById(id);
  if (!spec) throw new Error(`no GPU ${id}`);
  return spec;
};
// Datasheet figures are rounded to 0.1 TFLOP/s, so ratios between them hold to a relative 1e-4.
const RATIO_TOLERANCE = 1e-4;
const expectRatio = (a: number, b: number, ratio: number): void => {
  expect(Math.abs(a / b - ratio) / ratio).toBeLessThan(RATIO_TOLERANCE);
};

describe('GPUS', () => {
  it.each(CONTRACT_GPU_IDS)('has the contract id %s', (id) => expect(gpuById(id)?.id).toBe(id));

  it('lists exactly the ids it holds', () => expect([...GPU_IDS].sort()).toEqual(Object.keys(GPUS).sort()));

  it.each([...GPU_IDS])('%s cites a datasheet and says which entry it used', (id) => {
    expect(GPU_SOURCES[id].title.trim()).not.toBe('');
    expect(GPU_SOURCES[id].note?.trim()).toBeTruthy();
  });

  it('cites exactly the GPUs it holds: no orphan citation', () => expect(Object.keys(GPU_SOURCES).sort()).toEqual(Object.keys(GPUS).sort()));

  it.each(ALL)('$id has positive capacity, bandwidth, SMs, L2 and power', (spec) => {
    for (const v of [spec.hbmBytes, spec.hbmBandwidth, spec.smCount, spec.l2Bytes, spec.tdpWatts]) {
      expect(v).toBeGreaterThan(0);
    }
  });

  // A PCIe card's NVLink bridge joins two cards only, which a per-GPU link count cannot say: it has none to its peers.
  it.each(ALL)('$id has NVLink links to its peers exactly when it is not a PCIe card', (spec) => {
    expect(spec.nvlinkCount > 0).toBe(!PCIE_CARDS.includes(spec.id));
  });

  it.each(ALL)('$id: tensor bf16/fp16 peaks exceed the non-tensor fp32 peak', (spec) => {
    const half = spec.peakFlops.bf16 ?? spec.peakFlops.fp16;
    expect(half).toBeGreaterThan(spec.peakFlops.fp32 ?? 0);
  });

  it.each(ALL.filter((s) => s.peakFlops.bf16 !== undefined))('$id: fp16 and bf16 peaks are equal', (spec) => {
    expect(spec.peakFlops.fp16).toBe(spec.peakFlops.bf16);
  });

  it.each(['h100-sxm', 'h200', 'gh200', 'b200', 'gb200'])('%s: fp8 peak is twice bf16 (Hopper, Blackwell)', (id) => {
    const { fp8, bf16 } = gpu(id).peakFlops;
    expectRatio(fp8!, bf16!, 2);
  });

  it.each(['a100-40gb', 'a100-80gb', 'a100-80gb-pcie', 'h100-sxm', 'h100-pcie', 'h200', 'gh200', 'b200', 'gb200'])('%s: bf16 peak is twice tf32', (id) => {
    const { bf16, tf32 } = gpu(id).peakFlops;
    expectRatio(bf16!, tf32!, 2);
  });

  it.each(['v100-32gb', 'a100-40gb', 'a100-80gb', 'a100-80gb-pcie'])('%s has no fp8 tensor cores', (id) => {
    expect(gpu(id).peakFlops.fp8).toBeUndefined();
  });

  // H100 datasheet, PCIe column, "* With sparsity": BF16 1,513*, FP8 3,026*, TF32 756*; FP32 51, dense. Halved by hand:
  // 756.5 → 756 (the whitepaper's dense figure), 1,513, 378. FP8 is then 2.0013 × BF16, not the SXM parts' exact 2.
  it('H100 PCIe: the datasheet\'s sparse figures halved, FP32 as stated', () => {
    const { fp32, tf32, bf16, fp8 } = gpu('h100-pcie').peakFlops;
    expect([fp32, tf32, bf16, fp8].map((f) => toTFLOPS(f!))).toEqual([51, 378, 756, 1513]);
  });

  it.each([['a100-80gb-pcie', 'a100-80gb', 300, 108], ['h100-pcie', 'h100-sxm', 350, 114]] as const)(
    '%s: the SXM part\'s generation at lower power (%d W) and with %d SMs', (id, sxm, watts, sms) => {
      expect(gpu(id).generation).toBe(gpu(sxm).generation);
      expect(gpu(id).tdpWatts).toBe(watts);
      expect(gpu(id).smCount).toBe(sms);
      expect(gpu(id).tdpWatts).toBeLessThan(gpu(sxm).tdpWatts);
    });

  // JSC's JUPITER configuration page, per Booster GH200: 132 SMs, 96 GB HBM3 at 4 TB/s, 680 W for the whole superchip.
  it('GH200: the H100 SXM5\'s 132 SMs and peaks, 4 TB/s of HBM3, 680 W for CPU, GPU and memory together', () => {
    const { smCount, peakFlops, tdpWatts, generation } = gpu('gh200');
    expect(generation).toBe('hopper');
    expect(smCount).toBe(gpu('h100-sxm').smCount);
    expect(smCount).toBe(132);
    expect(peakFlops).toEqual(gpu('h100-sxm').peakFlops);
    expect(tdpWatts).toBe(680);
  });

  it('V100 tensor cores run fp16 only (no bf16, no tf32)', () => {
    expect(gpu('v100-32gb').peakFlops).toEqual({ fp32: expect.any(Number), fp16: expect.any(Number) });
  });

  it.each([
    ['v100-32gb', 125, 900],
    ['a100-40gb', 312, 1555],
    ['a100-80gb', 312, 2039],
    ['a100-80gb-pcie', 312, 1935],
    ['h100-sxm', 989.4, 3350],
    ['h100-pcie', 756, 2000],
    ['h200', 989.4, 4800],
    ['gh200', 989.4, 4000],
    ['b200', 2250, 7700],
    ['gb200', 2500, 8000],
  ])('%s: %d dense 16-bit TFLOP/s and %d GB/s of HBM bandwidth', (id, tflops, gbps) => {
    const spec = gpu(id);
    expect(toTFLOPS(spec.peakFlops.bf16 ?? spec.peakFlops.fp16!)).toBeCloseTo(tflops, 6);
    expect(toGBps(spec.hbmBandwidth)).toBeCloseTo(gbps, 6);
  });

  // Capacity is nvidia-smi's memory.total, as public `nvidia-smi` tables show it (A100-SXM4-40GB: "0MiB / 40536MiB", not
  // the round 40,960; QA), just under the marketed figure read as GiB: HBM stacks are binary-sized, less what the GPU keeps.
  it.each([
    ['v100-32gb', 32, 32510],
    ['a100-40gb', 40, 40536],
    ['a100-80gb', 80, 81920],
    ['a100-80gb-pcie', 80, 81920],
    ['h100-sxm', 80, 81559],
    ['h100-pcie', 80, 81559],
    ['h200', 141, 143771],
    ['gh200', 96, 97871],
    ['b200', 180, 183359],
    ['gb200', 186, 189471],
  ])('%s: nvidia-smi reports %d GB as %d MiB, no more than the marketed figure read as GiB', (id, marketed, mib) => {
    expect(gpu(id).hbmBytes).toBe(mib * 2 ** 20);
    expect(toGiB(gpu(id).hbmBytes)).toBeLessThanOrEqual(marketed);
  });
});

describe('gpuById', () => {
  it.each(['a100', 'H100-SXM', '', 'toString', '__proto__'])('returns undefined for the unknown id %j', (id) => {
    expect(gpuById(id)).toBeUndefined();
    expect(isGpuId(id)).toBe(false);
  });
});
