import { withShapeDefaults } from '@trainplan/model';
import { describe, expect, it } from 'vitest';
import { describeCandidate, searchPlans, type SearchBase, type SearchConstraints, type SearchResult } from '../src/index.ts';
import { gpt3Base, llama3_70bBase, smallBase } from './fixtures.ts';

/**
 * Megatron GPT 529.6B (Narayanan et al. 2021, SC'21, Table 1: 105 layers, h 20480, 128 heads, V 51200, s 2048) on 315
 * DGX A100 (2,520 GPUs) at its published batch of 2,520, the QA's command: TP 8 · PP 21 · v 1 · CP 1 · mbs 1 leaves
 * DP 2520 / (8 · 21) = 15 and 105 / 21 = 5 layers per stage.
 */
const megatron530: SearchBase = {
  ...gpt3Base,
  model: withShapeDefaults({ name: 'megatron-529.6b', layers: 105, hiddenSize: 20480, attentionHeads: 128, vocabSize: 51200, seqLength: 2048 }),
  nodes: 315,
  globalBatchSize: 2520,
};
const PP21: SearchConstraints = { tensorSizes: [8], pipelineSizes: [21], virtualStageCounts: [1], contextSizes: [1], microBatchSizes: [1] };

const sum = (tally: SearchResult['pruned']): number => Object.values(tally.counts).reduce((a, b) => a + b, 0);

describe('the ranking holds each plan once', () => {
  const r = searchPlans(megatron530, { top: 12, constraints: PP21 });

  it('a partial recompute that must recompute every layer to fit is full recompute: ranked once, as "full recompute"', () => {
    // The premise: without sequence parallelism or the distributed optimizer, TP 8 · PP 21 recomputing fewer than all 5
    // layers of a stage does not fit, so its partial recompute came out as full recompute, a candidate of its own too.
    expect(r.refused.counts.redundant).toBeGreaterThan(0);
    const plain = r.top.filter((p) => !p.candidate.sequenceParallel && p.candidate.sharding === 'none' && p.candidate.recompute === 'full');
    expect(plain.map((p) => describeCandidate(p.candidate))).toEqual(['TP 8 · PP 21 · DP 15 · mbs 1 · full recompute']);
    const labels = r.top.map((p) => describeCandidate(p.candidate));
    expect(new Set(labels).size).toBe(labels.length);
  });
});

describe('the accounting adds up: each candidate is pruned with a reason or estimated in full, never both', () => {
  it.each([
    ['a 1.3B GPT on 16 A100, the whole default space', smallBase, {}],
    ['GPT-3 175B on 1,024 A100, the whole default space', gpt3Base, {}],
    ['Llama 3 70B pinned to TP 4 · PP 4 · CP 2 in 93% of HBM (a twin estimated in place of a partial recompute)', llama3_70bBase,
      { constraints: { tensorSizes: [4], pipelineSizes: [4], contextSizes: [2], virtualStageCounts: [1], microBatchSizes: [1], memoryFraction: 0.93 } }],
    ['Megatron 529.6B at TP 8 · PP 21 (a full recompute found twice)', megatron530, { top: 12, constraints: PP21 }],
    ['GPT-3 175B with a budget of 5 full estimates', gpt3Base, { candidateBudget: 5 }],
  ] as const)('%s', (_name, base, options) => {
    const r = searchPlans(base, options);
    // Every candidate of the space is either in `pruned` (settled, or left by the budget, without a full estimate) or one of
    // the full estimates; the estimates either fit or are refused with a reason.
    expect(sum(r.pruned) + r.fullEstimates).toBe(r.spaceSize);
    expect(r.fitted + sum(r.refused)).toBe(r.fullEstimates);
    expect(r.fullEstimates).toBeGreaterThan(0);
  });
});
