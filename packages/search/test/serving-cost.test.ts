import { describe, expect, it } from 'vitest';
import { planInference, servingCost, type InferenceEstimate } from '../src/index.ts';
import { llama70bBase as base } from './fixtures.ts';

/** A point with only what servingCost reads: TP 4 · PP 2 (8 GPUs), batch 64, 500 output tokens. */
const point = (over: Partial<InferenceEstimate>): InferenceEstimate => ({
  shape: { tensor: 4, pipeline: 2, batch: 64, promptTokens: 1000, outputTokens: 500 },
  batching: 'continuous', prefillSeconds: 0.5, decodeStepSeconds: 0.02, tokensPerSecondPerGpu: 400, ...over,
} as InferenceEstimate);

describe('servingCost, worked by hand at $3.60 a GPU-hour ($0.001 a GPU-second)', () => {
  it('continuous batching: 400 tokens/s per GPU cost $0.001 per 400 tokens, $2.50 a million', () => {
    expect(servingCost(point({}), 3.6).perMillionOutputTokens).toBeCloseTo(2.5, 12);
    expect(servingCost(point({}), 3.6).perHour).toBeUndefined();
  });

  it('at a request rate the GPUs the rate needs are paid busy or idle: 3 replicas (24 GPUs) for 10 requests/s of 500 tokens', () => {
    const load = { requestsPerSecond: 10, replicas: 3, gpus: 24, utilization: 0.5, queueSeconds: 0, firstTokenSeconds: 0.5 };
    const cost = servingCost(point({ load }), 3.6);
    // 24 GPUs × $0.001 a second over 5,000 tokens a second.
    expect(cost.perMillionOutputTokens).toBeCloseTo((1e6 * 24 * 0.001) / 5000, 12);
    expect(cost.perHour).toBeCloseTo(24 * 3.6, 12);
  });
});

describe('planInference with a price', () => {
  const search = { promptTokens: 2048, outputTokens: 512, tensor: [8], pipeline: [1], batching: 'continuous' as const, batches: [1, 64] };

  it('every point carries its cost; without a price none does, and the figures are otherwise the same', () => {
    const priced = planInference(base, { ...search, pricePerGpuHour: 2 });
    const plain = planInference(base, search);
    expect(priced.points.map(({ cost: _, ...p }) => p)).toEqual(plain.points);
    for (const p of priced.points) expect(p.cost!.perMillionOutputTokens).toBeCloseTo((1e6 * 2) / 3600 / p.tokensPerSecondPerGpu, 9);
    expect(plain.points.every((p) => p.cost === undefined)).toBe(true);
  });

  it('a larger batch makes a token cheaper while decoding stays memory-bound: 64 sequences at under a tenth of one\'s cost', () => {
    const [one, sixtyFour] = planInference(base, { ...search, pricePerGpuHour: 2 }).points;
    expect(sixtyFour!.cost!.perMillionOutputTokens).toBeLessThan(one!.cost!.perMillionOutputTokens / 10);
  });
});
