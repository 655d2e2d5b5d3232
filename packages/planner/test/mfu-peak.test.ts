import { describe, expect, it } from 'vitest';
import { estimatePlan } from '../src/index.ts';
import { llamaOnH100 } from './fixtures.ts';

// QA (mutation testing): the planner's own tests compared MFU and HFU with each other only, so an MFU over the 16-bit peak
// for an FP8 run, or over a derated peak, passed them; and no plan needed exactly the GPU's memory, so "fits" at < or ≤ was
// never told apart.
const estimateOf = (r: ReturnType<typeof estimatePlan>) => (r.ok ? r : r.estimate)!;

describe('MFU against the datasheet peak of the precision run', () => {
  // NVIDIA H100 Tensor Core GPU datasheet (SXM5, dense): 989.4 TFLOP/s BF16, 1,978.9 TFLOP/s FP8.
  it.each([['bf16', 989.4], ['fp8', 1978.9]] as const)('%s: MFU = model FLOPs / (step × 64 GPUs × %d TFLOP/s)', (precision, peakTflops) => {
    const e = estimateOf(estimatePlan({ ...llamaOnH100, precision }));
    expect(e.peakTflopsPerGpu).toBeCloseTo(peakTflops, 6);
    expect(e.mfu).toBeCloseTo(e.modelFlopsPerStep / e.stepTimeSeconds / 64 / (peakTflops * 1e12), 12);
  });
});

describe('a plan that needs exactly the GPU\'s memory', () => {
  it('fits (the need is at most the capacity, not under it)', () => {
    const e = estimateOf(estimatePlan(llamaOnH100));
    const exact = estimateOf(estimatePlan({ ...llamaOnH100, gpu: { ...llamaOnH100.gpu, hbmBytes: e.memory.totalBytes } }));
    expect(exact.memory.totalBytes).toBe(e.memory.totalBytes);
    expect(exact.memory.fits).toBe(true);
  });
});
