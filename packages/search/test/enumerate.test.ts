import { describe, expect, it } from 'vitest';
import { estimatePlan } from '@trainplan/planner';
import { MemoryBound, planFor, searchPlans, whyNothingFits, type SearchConstraints } from '../src/index.ts';
import { gpt3Base, llama3_70bBase } from './fixtures.ts';

/** Llama 3 70B on 32 H100 at TP 4 · PP 4 · CP 2 · mbs 1, one model chunk per stage (the QA's command). */
const PINNED: SearchConstraints = { tensorSizes: [4], pipelineSizes: [4], contextSizes: [2], virtualStageCounts: [1], microBatchSizes: [1] };

describe('enumerateCandidates: partial recompute', () => {
  it('a request for partial recompute alone gets the fewest layers that fit, even where no recompute would pass the bound', () => {
    // With sequence parallelism the plan without recompute passes the bound (71.7 GiB of 75.7), but the space
    // holds no such plan: recomputing 1 layer per stage fits (74.5 GiB, 35.8 s), well ahead of 10 layers without SP (42.0 s).
    const r = searchPlans(llama3_70bBase, { constraints: { ...PINNED, recompute: ['full-partial'] } });
    const best = r.top[0]!;
    expect(best.candidate).toMatchObject({ sequenceParallel: true, recompute: 'full', recomputeLayers: 1 });
    // Faster than the same plan recomputing every layer of its stages.
    const everyLayer = estimatePlan(planFor(llama3_70bBase, { ...best.candidate, recomputeLayers: undefined }));
    if (!everyLayer.ok) throw new Error(everyLayer.message);
    expect(best.estimate.stepTimeSeconds).toBeLessThan(everyLayer.stepTimeSeconds);
    expect(r.pruned.counts.redundant).toBe(0);
  });

  it('where no recompute is searched too and passes the bound, the partial recompute is left out for it, as slower', () => {
    const r = searchPlans(llama3_70bBase, { constraints: { ...PINNED, recompute: ['none', 'full-partial'] } });
    expect(r.top[0]!.candidate).toMatchObject({ sequenceParallel: true, recompute: 'none' });
    expect(r.pruned.counts.redundant).toBeGreaterThan(0);
  });

  it('a partial recompute that needs every layer is full recompute: kept where full recompute is not searched, left out where it is', () => {
    // A budget between the bound recomputing 19 of the 20 layers and recomputing all of them: only all 20 pass it.
    const memory = new MemoryBound(llama3_70bBase);
    const bytes = (n?: number) => memory.bytes(4, 4, 2, 1, 1, 1, false, 128, 'full', 'distributed-optimizer', n);
    const memoryFraction = (bytes(19) + bytes()) / 2 / llama3_70bBase.gpu.hbmBytes;
    const one: SearchConstraints = { ...PINNED, sequenceParallel: [false], sharding: ['distributed-optimizer'], pipelineSlots: ['layers'], memoryFraction };
    const alone = searchPlans(llama3_70bBase, { constraints: { ...one, recompute: ['full-partial'] } });
    expect(alone.spaceSize).toBe(1);
    expect(alone.pruned.counts.redundant).toBe(0);
    expect(alone.fullEstimates).toBe(1);
    const withFull = searchPlans(llama3_70bBase, { constraints: { ...one, recompute: ['full', 'full-partial'] } });
    expect(withFull.pruned.counts.redundant).toBe(1);
  });
});

describe('enumerateCandidates: the leading reason nothing runs is the true one', () => {
  it('PP 3 on 128 GPUs: 3 does not divide the GPUs, whatever the embedding and loss layouts (96 layers split evenly over 3 stages)', () => {
    const r = searchPlans({ ...gpt3Base, nodes: 16 }, { constraints: { pipelineSizes: [3] } });
    expect(r.top).toHaveLength(0);
    expect(r.pruned.counts['pipeline-split']).toBe(0);
    expect(r.pruned.counts['gpus-indivisible']).toBe(r.spaceSize);
    expect(whyNothingFits(r)).toBe('no plan passes Megatron\'s divisibility rules: tensor × pipeline × context does not divide the GPUs (100% of candidates)');
  });
});
