import { PIPELINE_SLOTS, pipelineSplit, splitsIntoChunks } from '@trainplan/model';
import { describe, expect, it } from 'vitest';
import { defaultSearchSpace, megatronVirtualStages, searchPlans } from '../src/index.ts';
import { gpt3Base } from './fixtures.ts';

const divisors = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0);
const upTo = (lo: number, hi: number): number[] => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);

/** Brute force: every v up to the layer count that some depth of 2 or more, in some layout, splits into (the model's chunk rule). */
const accepted = (L: number): number[] => upTo(1, L).filter((v) => v === 1 || upTo(2, L).some((p) => PIPELINE_SLOTS.some((slots) => {
  const split = pipelineSplit(L, p, slots);
  return split !== undefined && splitsIntoChunks(split, v);
})));

describe('the default virtual stages: every count Megatron accepts, no fixed cap', () => {
  it('96 layers on 8 stages (12 a stage) take the divisors of 12, up to one layer per virtual stage (NVIDIA\'s GPT-3 175B recipe runs v 12)', () => {
    expect(megatronVirtualStages(96, [8], ['layers'])).toEqual(divisors(12));
  });

  it('an uneven split takes only counts that divide every stage: 96 layers on 25 stages (2, 4 × 23, 2) take 1 and 2', () => {
    expect(megatronVirtualStages(96, [25], ['layers'])).toEqual([1, 2]);
  });

  it('with the embedding and the loss counted, the slots split into p·v chunks: 126 layers + 2 on 16 stages take 1, 2, 4, 8', () => {
    expect(megatronVirtualStages(126, [16], ['embedding-and-loss'])).toEqual([1, 2, 4, 8]);
  });

  it('without a pipeline there is nothing to interleave: v 1 alone', () => {
    expect(megatronVirtualStages(96, [1], PIPELINE_SLOTS)).toEqual([1]);
  });

  it('GPT-3\'s default space holds every v some depth and layout of it splits into, past 8 (12, 48), and no other', () => {
    const space = defaultSearchSpace(gpt3Base);
    expect(space.virtualStages).toEqual(accepted(gpt3Base.model.layers));
    expect(space.virtualStages).toEqual(expect.arrayContaining([12, 48]));
  });

  it('an explicit list is exactly the counts tried, one the split refuses included (pruned with its reason), and maxVirtualStages caps the default', () => {
    expect(defaultSearchSpace(gpt3Base, { virtualStageCounts: [12, 5, 1, 12] }).virtualStages).toEqual([1, 5, 12]);
    // 5 splits no stage of 96 layers (nor 98 slots) evenly: the cap leaves 1–8 without it.
    expect(defaultSearchSpace(gpt3Base, { maxVirtualStages: 8 }).virtualStages).toEqual([1, 2, 3, 4, 6, 7, 8]);
    const r = searchPlans(gpt3Base, { constraints: { tensorSizes: [8], pipelineSizes: [8], contextSizes: [1], virtualStageCounts: [5], microBatchSizes: [1], pipelineSlots: ['layers'] } });
    expect(r.top).toEqual([]);
    expect(r.pruned.counts['interleave-indivisible']).toBeGreaterThan(0);
  });
});
