import { describe, expect, it } from 'vitest';
import { COMPUTE_CALIBRATION, kernelContext, logitsCost, type PlanInput } from '../src/index.ts';
import { gpt3OnSelene } from './fixtures.ts';

describe('the loss over the vocabulary', () => {
  const ctx = (input: PlanInput) => kernelContext(input, COMPUTE_CALIBRATION[input.gpu.generation]);
  it.each([[1, 8], [4, 4]])('micro-batch %i, TP %i: the unfused fp32 cross entropy moves 24 more bytes per logit forward and 8 more backward', (b, t) => {
    const input: PlanInput = { ...gpt3OnSelene, microBatchSize: b, tensor: t };
    const fused = logitsCost(input, ctx(input));
    const unfused = logitsCost({ ...input, crossEntropyKernel: 'unfused' }, ctx(input));
    // Logits per GPU: b · s · V / t; bytes at the achievable HBM bandwidth (A100: 2.039 TB/s datasheet × hbmFraction).
    const logits = (b * 2048 * 51200) / t;
    const bandwidth = input.gpu.hbmBandwidth * COMPUTE_CALIBRATION.ampere.hbmFraction;
    expect(unfused.forward - fused.forward).toBeCloseTo((24 * logits) / bandwidth, 12);
    expect(unfused.backward - fused.backward).toBeCloseTo((8 * logits) / bandwidth, 12);
  });
  it("'fused' is the default", () => {
    const fused = logitsCost({ ...gpt3OnSelene, crossEntropyKernel: 'fused' }, ctx(gpt3OnSelene));
    expect(logitsCost(gpt3OnSelene, ctx(gpt3OnSelene))).toEqual(fused);
  });
});
