import { estimatePlan } from '@trainplan/planner';
import { describe, expect, it } from 'vitest';
import { evaluateCandidate, MemoryBound, planFor, searchPlans, type Candidate } from '../src/index.ts';
import { llama3_70bBase } from './fixtures.ts';

const base = llama3_70bBase;
/** The search's default budget: 95% of the H100's 79.6 GiB, 75.67 GiB. */
const budget = base.gpu.hbmBytes * 0.95;
const stepOf = (c: Candidate): number => {
  const r = estimatePlan(planFor(base, c));
  if (!r.ok) throw new Error(r.message);
  return r.stepTimeSeconds;
};
const fits = (c: Candidate) => {
  const r = estimatePlan(planFor(base, c));
  return r.ok && r.memory.totalBytes <= budget;
};

describe('evaluateCandidate: the fewest recomputed layers that fit', () => {
  // Llama 3 70B, TP 4 · PP 4 · CP 2 · SP on 32 H100: recomputing 4 layers per stage needs 78.28 GiB with 2 model
  // chunks, 6 need 75.30 GiB. The micro-batches held on the first stage are 4 × (1 + 3/8) = 5.5 with interleaving.
  const c = (virtualStages: number, recomputeLayers: number): Candidate => ({
    tensor: 4, pipeline: 4, data: 1, context: 2, virtualStages, microBatchSize: 1, sequenceParallel: true,
    recompute: 'full', recomputeLayers, sharding: 'distributed-optimizer',
  });

  it('interleaved (v 2): from the bound\'s 4 layers, 6 (the fewest, a multiple of v), not 8', () => {
    expect(fits(c(2, 4))).toBe(false);
    expect(fits(c(2, 6))).toBe(true);
    const r = evaluateCandidate(base, c(2, 4), new MemoryBound(base), budget);
    if (!r.ok) throw new Error(r.infeasible.message);
    expect(r.candidate.recomputeLayers).toBe(6);
    expect(r.estimate.stepTimeSeconds).toBe(stepOf(c(2, 6)));
    expect(r.estimate.stepTimeSeconds).toBeLessThan(stepOf(c(2, 8)));
  });

  it.each([[1, 1], [1, 2], [2, 2], [4, 4], [4, 8]])('v %i, starting from %i layers short: the count it answers fits and the one v fewer does not', (v, start) => {
    const noSp = (n: number): Candidate => ({ ...c(v, n), sequenceParallel: false });
    expect(fits(noSp(start))).toBe(false);
    const r = evaluateCandidate(base, noSp(start), new MemoryBound(base), budget);
    if (!r.ok) throw new Error(r.infeasible.message);
    const n = r.candidate.recomputeLayers!;
    expect(n % v).toBe(0);
    expect(fits(noSp(n))).toBe(true);
    if (n - v >= start) expect(fits(noSp(n - v))).toBe(false);
  });

  // It answered 8 (39.48 s where 6 took 38.35, 2026-11-28).
  it('the search answers 6 layers with interleaving, at that plan\'s own estimate and faster than recomputing 8', () => {
    const r = searchPlans(base, {
      constraints: { tensorSizes: [4], pipelineSizes: [4], contextSizes: [2], virtualStageCounts: [2], microBatchSizes: [1], recompute: ['full-partial'] },
    });
    expect(r.top[0]!.candidate).toMatchObject({ virtualStages: 2, sequenceParallel: true, recomputeLayers: 6 });
    expect(r.top[0]!.estimate.stepTimeSeconds).toBe(stepOf(c(2, 6)));
    expect(r.top[0]!.estimate.stepTimeSeconds).toBeLessThan(stepOf(c(2, 8)));
  });
});
