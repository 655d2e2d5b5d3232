import { withShapeDefaults } from '@trainplan/model';
import { checkPlan } from '@trainplan/planner';
import { describe, expect, it } from 'vitest';
import { describeCandidate, planFor, searchPlans, type SearchBase } from '../src/index.ts';
import { llama70bBase } from './fixtures.ts';

/** Llama 3.1 405B (126 layers) on 1,024 DGX H100 nodes at Meta's batch: 2,048 sequences of 8,192 tokens. */
const llama405Base: SearchBase = {
  ...llama70bBase,
  model: withShapeDefaults({
    name: 'llama3.1-405b', layers: 126, hiddenSize: 16384, attentionHeads: 128, kvHeads: 8, ffnHiddenSize: 53248, vocabSize: 128256,
    seqLength: 8192, gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary', linearBias: false, normalization: 'rmsnorm',
  }),
  nodes: 1024,
  globalBatchSize: 2048,
  seqLength: 8192,
};

/** A small space around Meta's layout (TP 8, PP 16, CP 1), so the tests enumerate it quickly. */
const META = { tensorSizes: [8], pipelineSizes: [8, 16], contextSizes: [1], microBatchSizes: [1], recompute: ['none', 'full'] as const, sequenceParallel: [true] };

describe('the search tries splits that count the embedding and the loss as layers', () => {
  it('interleaves 126 layers over 16 stages only by counting both: the best plan does, and runs as Megatron-Core would', () => {
    const r = searchPlans(llama405Base, { top: 5, constraints: { ...META, recompute: [...META.recompute] } });
    const best = r.top[0]!;
    expect(best.candidate.pipelineSlots).toBe('embedding-and-loss');
    expect(best.candidate.virtualStages).toBeGreaterThan(1);
    expect(describeCandidate(best.candidate)).toMatch(/PP (8|16) \(\+embedding, \+loss\)/);
    for (const p of r.top) expect(checkPlan(planFor(llama405Base, p.candidate))).toEqual([]);
  });

  it('with the layers alone (a Megatron without the account-for flags) it finds no interleaved plan, and a slower best', () => {
    const constraints = { ...META, recompute: [...META.recompute] };
    const alone = searchPlans(llama405Base, { top: 5, constraints: { ...constraints, pipelineSlots: ['layers'] } });
    const all = searchPlans(llama405Base, { top: 1, constraints });
    expect(alone.top.every((p) => p.candidate.pipelineSlots === undefined && p.candidate.virtualStages === 1)).toBe(true);
    expect(alone.top[0]!.estimate.stepTimeSeconds).toBeGreaterThan(all.top[0]!.estimate.stepTimeSeconds);
  });

  it('never ranks the same plan twice: a split counting both that places the layers as the layers alone do is pruned as redundant at v 1', () => {
    const r = searchPlans(llama405Base, {
      top: 100, constraints: { ...META, recompute: ['full'], pipelineSizes: [16], virtualStageCounts: [1] },
    });
    const labels = r.top.map((p) => describeCandidate({ ...p.candidate, pipelineSlots: undefined }));
    expect(new Set(labels).size).toBe(labels.length);
    expect(r.pruned.counts.redundant).toBeGreaterThan(0);
  });

  it('counts the slot layouts in the space it reports', () => {
    // The same v list for both: by default it follows the layouts (the layers alone split 126 over 8 or 16 stages into no
    // equal chunks; 128 slots do, into 2, 4, 8 or 16), which would count twice.
    const v = { virtualStageCounts: [1, 2, 4, 8, 16] };
    const one = searchPlans(llama405Base, { top: 1, constraints: { ...META, ...v, recompute: ['full'], pipelineSlots: ['layers'] } });
    const four = searchPlans(llama405Base, { top: 1, constraints: { ...META, ...v, recompute: ['full'] } });
    expect(four.spaceSize).toBe(4 * one.spaceSize);
  });
});
