import { describe, expect, it } from 'vitest';
import { estimateInference, planInference } from '../src/index.ts';
import { llama70bBase } from './fixtures.ts';

// Batches a request names (`batches`) are tried exactly: one that does not fit in memory is said, never dropped
// unseen, and a shape none of whose batches fits is refused for it rather than shown at batch 1, which was not asked.
const base = llama70bBase;
const lengths = { promptTokens: 100, outputTokens: 10, tensor: [8] } as const;

/** The largest batch one shape holds, found by trying batches one past it (estimateInference alone, no plan). */
function largestFitting(pipeline: number): number {
  const shape = { tensor: 8, pipeline, promptTokens: lengths.promptTokens, outputTokens: lengths.outputTokens };
  const one = estimateInference(base, { ...shape, batch: 1 });
  if (!one.ok) throw new Error(one.message);
  // The estimate names its largest batch; that it is the boundary is checked here, not taken on trust.
  expect(estimateInference(base, { ...shape, batch: one.maxBatch }).ok).toBe(true);
  expect(estimateInference(base, { ...shape, batch: one.maxBatch + 1 }).ok).toBe(false);
  return one.maxBatch;
}

describe('planInference with batches asked for that do not fit', () => {
  it('no batch asked fits: each shape is refused out of memory, naming the batch and the largest that fits; no point, no best', () => {
    const plan = planInference(base, { ...lengths, pipeline: [1, 8], batches: [100_000] });
    expect(plan.points).toEqual([]);
    expect(plan.best).toBeUndefined();
    expect(plan.byShape).toHaveLength(2);
    for (const { pipeline, answer } of plan.byShape) {
      expect(answer.ok, `PP ${pipeline}`).toBe(false);
      if (answer.ok) continue;
      expect(answer.reason).toBe('out-of-memory');
      expect(answer.shape.batch).toBe(100_000);
      const most = largestFitting(pipeline);
      expect(most).toBeLessThan(100_000);
      expect(answer.message).toMatch(new RegExp(`^batch 100,000 does not fit \\(the largest that fits is ${most.toLocaleString('en-US')}\\): needs [\\d.]+ GiB per GPU`));
    }
  });

  it('of several batches none fits: the smallest asked is the one named', () => {
    const [shape] = planInference(base, { ...lengths, pipeline: [1], batches: [200_000, 100_000] }).byShape;
    expect(shape!.answer.ok).toBe(false);
    if (shape!.answer.ok) return;
    expect(shape!.answer.message).toMatch(/^batch 100,000, the smallest asked, does not fit \(the largest that fits is [\d,]+\)/);
  });

  it('some fit and some do not: the shape shows the largest that fits, and a warning names those left out', () => {
    const most = largestFitting(1);
    const plan = planInference(base, { ...lengths, pipeline: [1], batches: [100_000, 64, 8] });
    expect(plan.points.map((p) => p.shape.batch)).toEqual([64, 8]);
    const [shape] = plan.byShape;
    // The largest batch that fits, 64, whatever the order asked in (8 was tried last).
    expect(shape!.answer.ok && shape!.answer.shape.batch).toBe(64);
    expect(plan.warnings).toEqual([`batches asked for that do not fit in memory were left out: 100,000 on TP 8 · PP 1 (at most ${most.toLocaleString('en-US')} fit)`]);
  });

  it('every batch asked fits: no warning', () => {
    expect(planInference(base, { ...lengths, pipeline: [1], batches: [8, 64] }).warnings).toEqual([]);
  });
});
