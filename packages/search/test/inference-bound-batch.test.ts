import { describe, expect, it } from 'vitest';
import { estimateInference, planInference, type InferenceEstimate } from '../src/index.ts';
import { lastHolding } from '../src/inference/bound-batch.ts';
import type { InferenceSearch } from '../src/inference/frontier.ts';
import { llama70bBase } from './fixtures.ts';

// When the request names no batches, planInference tries, beside the powers of two, the batches at which the
// bounds bind: the largest meeting the latency bounds (any whole batch, as vLLM's max_num_seqs), and with a rate
// the one needing the fewest GPUs. Checked against the plan's own estimates, never against figures copied from it.
const base = llama70bBase;
const powersOfTwo = Array.from({ length: 12 }, (_, i) => 2 ** i);

/** The estimate of a point's shape at another batch. */
const at = (p: InferenceEstimate, batch: number) => estimateInference(base, { ...p.shape, batch });

describe('lastHolding', () => {
  it('finds the boundary of a predicate true up to it, and hi when it holds throughout', () => {
    for (const edge of [1, 2, 37, 64, 999, 1000]) expect(lastHolding(1, 1000, (n) => n <= edge)).toBe(edge);
  });

  it('on a predicate that is not monotone it still answers an n that holds, with n + 1 failing', () => {
    const holds = (n: number) => n <= 300 && (n % 7 !== 0 || n < 50);
    for (const [probes, stride] of [[0, 1], [1, 1], [2, 4], [3, 7]]) {
      const n = lastHolding(1, 1000, holds, probes, stride);
      expect(holds(n)).toBe(true);
      expect(holds(n + 1)).toBe(false);
    }
    // Probes past the boundary found step over gaps narrower than them to the true boundary.
    expect(lastHolding(1, 1000, holds, 1)).toBe(300);
    const gapsOfFour = (n: number) => n <= 300 && (n < 50 || Math.floor(n / 4) % 5 !== 0);
    const last = Math.max(...Array.from({ length: 1000 }, (_, i) => i + 1).filter(gapsOfFour));
    expect(lastHolding(1, 1000, gapsOfFour, 2, 4)).toBe(last);
  });
});

describe('planInference: the largest batch under a decode bound', () => {
  it.each([
    ['continuous', 0.069],
    ['continuous', 0.03],
    ['static', 0.02],
  ] as const)('%s batching, %f s per token: the best meets the bound and one more sequence does not, or it is the largest that fits', (batching, bound) => {
    const search: InferenceSearch = { promptTokens: 2048, outputTokens: 512, batching, maxDecodeSecondsPerToken: bound };
    const plan = planInference(base, search);
    const best = plan.best!;
    expect(best.decodeStepSeconds).toBeLessThanOrEqual(bound);
    const next = at(best, best.shape.batch + 1);
    if (best.shape.batch < best.maxBatch) expect(next.ok && next.decodeStepSeconds > bound).toBe(true);
    else expect(next.ok).toBe(false);
    // Every shape that meets the bound at all has such a point among its points.
    for (const shape of plan.byShape) {
      const points = plan.points.filter((p) => p.shape.tensor === shape.tensor && p.shape.pipeline === shape.pipeline && p.decodeStepSeconds <= bound);
      if (points.length === 0) continue;
      const largest = points.reduce((a, b) => (b.shape.batch > a.shape.batch ? b : a));
      const after = at(largest, largest.shape.batch + 1);
      expect(!after.ok || after.decodeStepSeconds > bound).toBe(true);
    }
  });

  it.each(['continuous', 'static'] as const)('%s: no worse than the powers of two alone, and better where a batch between two meets the bound', (batching) => {
    const search: InferenceSearch = { promptTokens: 2048, outputTokens: 512, batching, maxDecodeSecondsPerToken: batching === 'static' ? 0.02 : 0.069 };
    const best = planInference(base, search).best!;
    const powers = planInference(base, { ...search, batches: powersOfTwo }).best!;
    expect(best.tokensPerSecondPerGpu).toBeGreaterThan(powers.tokensPerSecondPerGpu);
    expect(powersOfTwo).not.toContain(best.shape.batch);
  });

  it('a first-token bound binds the same way: static batching\'s prefill grows with the batch', () => {
    const bound = 3;
    const best = planInference(base, { promptTokens: 2048, outputTokens: 512, maxPrefillSeconds: bound }).best!;
    expect(best.prefillSeconds).toBeLessThanOrEqual(bound);
    const next = at(best, best.shape.batch + 1);
    expect(!next.ok || next.prefillSeconds > bound).toBe(true);
  });

  it('the powers of two and the largest batch that fits are still tried: the frontier is drawn through them', () => {
    const plan = planInference(base, { promptTokens: 2048, outputTokens: 512, batching: 'continuous', maxDecodeSecondsPerToken: 0.069, tensor: [4], pipeline: [1] });
    const batches = plan.points.map((p) => p.shape.batch);
    const { maxBatch } = plan.points[0]!;
    expect(batches).toEqual([...batches].sort((a, b) => a - b));
    expect(new Set(batches).size).toBe(batches.length);
    for (const b of powersOfTwo.filter((x) => x <= maxBatch)) expect(batches).toContain(b);
    expect(batches.at(-1)).toBe(maxBatch);
    // byShape still gives the largest batch that fits.
    expect(plan.byShape[0]!.answer.ok && plan.byShape[0]!.answer.shape.batch).toBe(maxBatch);
  });

  it('with no bound nothing is added: the powers of two and the largest batch', () => {
    const plan = planInference(base, { promptTokens: 2048, outputTokens: 512, tensor: [8], pipeline: [1] });
    const { maxBatch } = plan.points[0]!;
    expect(plan.points.map((p) => p.shape.batch)).toEqual([...powersOfTwo.filter((b) => b < maxBatch), maxBatch]);
  });

  it('batches given are tried exactly, in their order: none is added', () => {
    const batches = [96, 3, 200, 17, 100_000];
    const plan = planInference(base, { promptTokens: 2048, outputTokens: 512, batching: 'continuous', maxDecodeSecondsPerToken: 0.069, requestsPerSecond: 20, maxPrefillSeconds: 1, batches });
    for (const shape of plan.byShape) {
      const mine = plan.points.filter((p) => p.shape.tensor === shape.tensor && p.shape.pipeline === shape.pipeline);
      if (mine.length === 0) continue;
      expect(mine.map((p) => p.shape.batch)).toEqual(batches.filter((b) => b <= mine[0]!.maxBatch));
    }
  });
});

describe('planInference with a request rate: the batch needing the fewest GPUs', () => {
  /** The fewest GPUs over every batch of the shapes (explicit batches 1 … the largest that fits), a brute force. */
  const fewestByBruteForce = (search: InferenceSearch, maxBatch: number) => {
    const all = planInference(base, { ...search, batches: Array.from({ length: maxBatch }, (_, i) => i + 1) });
    return all.best;
  };

  it.each([
    // The decode bound binds; a tight first-token bound (a prompt's own prefill near it) binds; both, on PP 2.
    [{ tensor: [4], pipeline: [1], maxDecodeSecondsPerToken: 0.06, maxPrefillSeconds: 1, requestsPerSecond: 20 }],
    [{ tensor: [8], pipeline: [1], maxPrefillSeconds: 0.17, requestsPerSecond: 50 }],
    [{ tensor: [8], pipeline: [1], maxPrefillSeconds: 0.2, requestsPerSecond: 200 }],
    [{ tensor: [4], pipeline: [2], maxDecodeSecondsPerToken: 0.08, maxPrefillSeconds: 0.4, requestsPerSecond: 5 }],
  ])('%o: as few GPUs as any batch, within the bounds', (bounds) => {
    const search: InferenceSearch = { promptTokens: 2048, outputTokens: 512, batching: 'continuous', gpuMemoryUtilization: 0.7, ...bounds };
    const plan = planInference(base, search);
    const best = plan.best!;
    expect(best.load!.firstTokenSeconds).toBeLessThanOrEqual(search.maxPrefillSeconds!);
    if (search.maxDecodeSecondsPerToken !== undefined) expect(best.decodeStepSeconds).toBeLessThanOrEqual(search.maxDecodeSecondsPerToken);
    const brute = fewestByBruteForce(search, best.maxBatch)!;
    expect(best.load!.gpus).toBe(brute.load!.gpus);
    // Among the batches needing that many, it serves about the most tokens/s per GPU (the largest of them, a wiggle aside).
    expect(best.tokensPerSecondPerGpu).toBeGreaterThanOrEqual(0.99 * brute.tokensPerSecondPerGpu);
    // And never more than the powers of two alone would take.
    const powers = planInference(base, { ...search, batches: powersOfTwo }).best;
    if (powers !== undefined) expect(best.load!.gpus).toBeLessThanOrEqual(powers.load!.gpus);
  });

  it('where the first-token bound adds replicas at the largest batch within the latency bounds, a smaller batch needing fewer is found', () => {
    const bound = 0.17;
    const plan = planInference(base, { promptTokens: 2048, outputTokens: 512, batching: 'continuous', gpuMemoryUtilization: 0.7, tensor: [8], pipeline: [1], maxPrefillSeconds: bound, requestsPerSecond: 50 });
    const best = plan.best!;
    // The largest batch whose own prefill is within the bound (past it no replica count meets the bound) …
    const within = plan.points.filter((p) => p.prefillSeconds < bound);
    const largest = within.reduce((a, b) => (b.shape.batch > a.shape.batch ? b : a));
    const next = at(largest, largest.shape.batch + 1);
    expect(!next.ok || next.prefillSeconds >= bound).toBe(true);
    // … needs more GPUs than the best, a smaller batch whose first token leaves more room for the wait for a slot.
    expect(best.shape.batch).toBeLessThan(largest.shape.batch);
    expect(best.load!.gpus).toBeLessThan(largest.load!.gpus);
  });
});
