import { describe, expect, it } from 'vitest';
import { kernelContext, resolveCalibration, weightReplicas, type PlanInput } from '../src/index.ts';
import { optimizerStepSeconds } from '../src/optimizer-time.ts';
import { gpt3OnSelene, llamaOnH100 } from './fixtures.ts';

const N = 1e9;

/** The step from the byte counts Megatron's passes move (optimizer-time.ts), written out: streamed at the HBM fraction, the memset at the datasheet. */
function expected(input: PlanInput, bytesPerUpdated: number, updated: number, bufferBytes: number): number {
  const c = resolveCalibration(input);
  const bw = input.gpu.hbmBandwidth;
  const zeroing = bufferBytes === 0 ? 0 : (bufferBytes * N) / bw + c.kernelOverhead;
  return (bytesPerUpdated * updated) / (c.hbmFraction * bw) + c.kernelOverhead + zeroing;
}

const step = (input: PlanInput) => optimizerStepSeconds(input, kernelContext(input, resolveCalibration(input)), N);

describe('the optimizer step', () => {
  it('bf16 Megatron: norm 4 + Adam 28 + copy 6 bytes a parameter, and the fp32 gradient buffer zeroed', () => {
    expect(step(gpt3OnSelene)).toBeCloseTo(expected(gpt3OnSelene, 38, N, 4), 12);
  });
  it('fp16 Megatron adds the unscale (8) and the 16-bit gradients\' cast to fp32 (6), and zeroes a 16-bit buffer', () => {
    const fp16 = { ...gpt3OnSelene, precision: 'fp16' as const };
    expect(step(fp16)).toBeCloseTo(expected(fp16, 38 + 8 + 6, N, 2), 12);
  });
  it('the distributed optimizer updates its shard but zeroes the whole stage\'s buffer', () => {
    const replicas = weightReplicas(llamaOnH100);
    expect(replicas).toBeGreaterThan(1);
    expect(step(llamaOnH100)).toBeCloseTo(expected(llamaOnH100, 38, N / replicas, 4), 12);
  });
  it('the distributed optimizer over a 16-bit main-gradient buffer (fused-16-bit) casts its shard to fp32 (6) and zeroes 2 bytes', () => {
    const fused16 = { ...llamaOnH100, gradientAccumulation: 'fused-16-bit' as const };
    expect(step(fused16)).toBeCloseTo(expected(fused16, 38 + 6, N / weightReplicas(fused16), 2), 12);
  });
  it('DeepSpeed ZeRO-1 casts its 16-bit gradients into its fp32 partition and zeroes nothing', () => {
    const zero1 = { ...llamaOnH100, sharding: 'zero-1' as const };
    expect(step(zero1)).toBeCloseTo(expected(zero1, 38 + 6, N / weightReplicas(zero1), 0), 12);
  });
  it('DeepSpeed\'s BF16 optimizer (ZeRO with fp32 gradient accumulation) zeroes its unsharded fp32 buffer after each step', () => {
    const bf16Optimizer = { ...llamaOnH100, sharding: 'zero-1' as const, gradientAccumulation: 'fp32' as const };
    expect(step(bf16Optimizer)).toBeCloseTo(expected(bf16Optimizer, 38, N / weightReplicas(bf16Optimizer), 4), 12);
  });
  it('never less with more to update: the step grows with the stage\'s parameters', () => {
    const ctx = kernelContext(gpt3OnSelene, resolveCalibration(gpt3OnSelene));
    expect(optimizerStepSeconds(gpt3OnSelene, ctx, 2 * N)).toBeGreaterThan(optimizerStepSeconds(gpt3OnSelene, ctx, N));
  });
});
