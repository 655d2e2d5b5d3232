import { checkPlan } from '@trainplan/planner';
import { GiB } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { evaluateCandidate, MemoryBound, planFor, searchPlans, whyNothingFits, type Candidate, type SearchBase, type SearchSpace } from '../src/index.ts';
import { gpt3Base, llama3_70bBase, smallBase } from './fixtures.ts';

/** A space of one value per dimension, widened where a test says. */
const space = (over: Partial<SearchSpace>): SearchSpace => ({
  tensor: [8], pipeline: [8], pipelineSlots: ['layers'], context: [1], virtualStages: [1], microBatchSize: [1], sequenceParallel: [false],
  recompute: ['full'], sharding: ['none'], ...over,
});

/** Every ranked plan passes the planner's own start-up checks. */
const allRunnable = (base: SearchBase, plans: readonly { candidate: Candidate }[]) =>
  plans.every((p) => checkPlan(planFor(base, p.candidate)).length === 0);

describe('the search prunes what Megatron refuses at start-up, with a reason', () => {
  it('a pipeline depth with no first/middle/last split (96 layers on 26 stages) is pruned as pipeline-split', () => {
    // 8 · 26 = 208 GPUs: 26 nodes, no data parallelism.
    const base = { ...gpt3Base, nodes: 26, globalBatchSize: 26 * 64 };
    const r = searchPlans(base, { space: space({ pipeline: [26] }) });
    expect(r.pruned.counts['pipeline-split']).toBe(1);
    expect(r.top).toEqual([]);
  });

  it('96 layers on 25 stages (2, 4 × 23, 2) interleave with v = 2, not v = 4 (the end stages\' 2 layers)', () => {
    const base = { ...gpt3Base, nodes: 25, globalBatchSize: 25 * 64 };
    const r = searchPlans(base, { space: space({ pipeline: [25], virtualStages: [2, 4] }) });
    expect(r.pruned.counts['interleave-indivisible']).toBe(1);
    expect(r.top.map((p) => p.candidate.virtualStages)).toEqual([2]);
    expect(r.top[0]!.estimate.stages.map((s) => s.layers)).toEqual([2, ...Array(23).fill(4), 2]);
  });

  it('interleaving on 2 stages needs overlapped pipeline sends', () => {
    const two = space({ tensor: [8], pipeline: [2], virtualStages: [2] });
    expect(searchPlans(smallBase, { space: two }).pruned.counts['interleave-needs-overlap']).toBe(1);
    expect(searchPlans({ ...smallBase, overlapPipelineComm: true }, { space: two }).pruned.counts['interleave-needs-overlap']).toBe(0);
  });

  it('--tp-comm-overlap applies where Transformer Engine runs it: sequence-parallel TP within an NVLink domain; other plans run without it', () => {
    const base = { ...smallBase, overlapTensorParallelComm: true };
    const r = searchPlans(base, { top: 20, space: space({ tensor: [1, 8, 16], pipeline: [1], sequenceParallel: [false, true] }) });
    // Nothing is pruned for the request: TP 1, TP 8 without SP and TP 16 across nodes all rank.
    expect(r.pruned.counts['tp-overlap-needs-sequence-parallel'] ?? 0).toBe(0);
    expect(r.pruned.counts['tp-overlap-crosses-nvlink'] ?? 0).toBe(0);
    const ranked = r.top.map((p) => p.candidate);
    expect(ranked.some((c) => c.tensor === 1)).toBe(true);
    expect(ranked.some((c) => c.tensor === 16)).toBe(true);
    // Each plan carries the overlap only where it can run, and the planner accepts every one.
    for (const p of r.top) {
      const plan = planFor(base, p.candidate);
      expect(plan.overlapTensorParallelComm).toBe(p.candidate.sequenceParallel && p.candidate.tensor > 1 && p.candidate.tensor <= base.nvlinkDomainGpus);
    }
    expect(allRunnable(base, r.top)).toBe(true);
  });

  it('sequence parallelism needs the tokens per context rank divisible by TP (2052 by 4, not by 8)', () => {
    const base = { ...smallBase, seqLength: 2052 };
    const r = searchPlans(base, { space: space({ tensor: [4, 8], pipeline: [1], sequenceParallel: [true] }) });
    expect(r.pruned.counts['sequence-parallel-indivisible']).toBe(1);
    expect(r.top.map((p) => p.candidate.tensor)).toEqual([4]);
  });
});

describe('ZeRO-2 and ZeRO-3 run without a pipeline only (DeepSpeed\'s pipeline engine and Megatron-FSDP refuse one)', () => {
  /** Every candidate of the space is pruned or estimated in full (prune-reason.ts). */
  const settled = (r: ReturnType<typeof searchPlans>): number => Object.values(r.pruned.counts).reduce((a, b) => a + b, 0) + r.fullEstimates;

  it('TP 8 on PP 1 and 2 with ZeRO-1, 2 and 3: PP 2\'s ZeRO-2 and 3 are pruned as zero-with-pipeline, its ZeRO-1 and PP 1\'s all three rank', () => {
    // The 1.3B GPT on 16 GPUs: PP 1 is DP 2, PP 2 (12 layers a stage) DP 1; one candidate per sharding at each depth.
    const r = searchPlans(smallBase, { top: 10, space: space({ pipeline: [1, 2], sharding: ['zero-1', 'zero-2', 'zero-3'] }) });
    expect(r.spaceSize).toBe(6);
    expect(r.pruned.counts['zero-with-pipeline']).toBe(2);
    expect(settled(r)).toBe(r.spaceSize);
    expect(r.top.map((p) => `PP ${p.candidate.pipeline} ${p.candidate.sharding}`).sort())
      .toEqual(['PP 1 zero-1', 'PP 1 zero-2', 'PP 1 zero-3', 'PP 2 zero-1']);
    expect(allRunnable(smallBase, r.top)).toBe(true);
  });

  it('Llama 3 70B on 32 H100, whose best plan is pipelined, finds only unpipelined plans when asked for ZeRO-2 or 3', () => {
    expect(searchPlans(llama3_70bBase, { top: 1 }).top[0]!.candidate.pipeline).toBeGreaterThan(1);
    const r = searchPlans(llama3_70bBase, { top: 10, constraints: { sharding: ['zero-2', 'zero-3'] } });
    expect(r.top.length).toBeGreaterThan(0);
    expect(r.top.every((p) => p.candidate.pipeline === 1)).toBe(true);
    expect(r.pruned.counts['zero-with-pipeline']).toBeGreaterThan(0);
    expect(settled(r)).toBe(r.spaceSize);
    expect(allRunnable(llama3_70bBase, r.top)).toBe(true);
  });

  it('asked for ZeRO-2 or 3 on 4 stages, nothing runs, and the answer names the rule', () => {
    // TP 4 · PP 4 · CP 2 on the 32 GPUs (DP 1), one candidate per ZeRO stage: both pass every other rule.
    const pinned = { tensorSizes: [4], pipelineSizes: [4], contextSizes: [2], virtualStageCounts: [1], microBatchSizes: [1], pipelineSlots: ['layers'] as const,
      sequenceParallel: [true], recompute: ['full'] as const, sharding: ['zero-2', 'zero-3'] as const };
    const r = searchPlans(llama3_70bBase, { constraints: pinned });
    expect(r.spaceSize).toBe(2);
    expect(r.pruned.counts['zero-with-pipeline']).toBe(2);
    expect(settled(r)).toBe(r.spaceSize);
    expect(whyNothingFits(r)).toBe('no plan passes Megatron\'s divisibility rules where tensor × pipeline × context divides the GPUs and tensor the heads: '
      + 'ZeRO-2 and 3 do not run with a pipeline (DeepSpeed and Megatron-FSDP refuse it) (2 candidates)');
  });
});

describe('partial recompute comes in whole layers per model chunk', () => {
  // GPT-3 175B at TP 8 · PP 8 on 70 GiB needs several recomputed layers per stage (search.test.ts).
  const tight = { ...gpt3Base, gpu: { ...gpt3Base.gpu, hbmBytes: GiB(70) } };

  it('with v model chunks the search picks a multiple of v layers per stage', () => {
    for (const v of [2, 3]) {
      const r = searchPlans(tight, { space: space({ virtualStages: [v], recompute: ['full-partial'] }) });
      const layers = r.top.map((p) => p.candidate.recomputeLayers).filter((n) => n !== undefined);
      expect(layers.length).toBe(1);
      expect(layers[0]! % v).toBe(0);
      expect(allRunnable(tight, r.top)).toBe(true);
    }
  });

  it('raising a short partial recompute keeps it a multiple of v', () => {
    const c: Candidate = {
      tensor: 8, pipeline: 8, data: 16, context: 1, virtualStages: 3, microBatchSize: 1, sequenceParallel: false,
      recompute: 'full', recomputeLayers: 3, sharding: 'none',
    };
    const raised = evaluateCandidate(tight, c, new MemoryBound(tight));
    if (!raised.ok) throw new Error(raised.infeasible.message);
    expect(raised.candidate.recomputeLayers! % 3).toBe(0);
    expect(raised.candidate.recomputeLayers).toBeGreaterThan(3);
  });
});
