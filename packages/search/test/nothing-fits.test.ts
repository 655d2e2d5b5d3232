import { describe, expect, it } from 'vitest';
import { gpuById } from '@trainplan/hardware';
import { PRUNE_REASON_TEXT as TEXT, searchPlans, whyNothingFits, type SearchBase, type SearchResult } from '../src/index.ts';
import { gpt3Base, llama3_70bBase } from './fixtures.ts';

/** Every candidate of the space is pruned or estimated in full (prune-reason.ts). */
const settled = (r: SearchResult): number => Object.values(r.pruned.counts).reduce((a, b) => a + b, 0) + r.fullEstimates;

/** Llama 3.1 405B (Dubey et al. 2024, Table 3: 126 layers, h 16,384, 128 heads, 8 KV heads, FFN 53,248) on 64 DGX H100 at batch 2,048. */
const llama405bBase: SearchBase = {
  ...llama3_70bBase,
  model: { ...llama3_70bBase.model, name: 'llama3.1-405b', layers: 126, hiddenSize: 16384, attentionHeads: 128, ffnHiddenSize: 53248 },
  nodes: 64,
  globalBatchSize: 2048,
};
/** `s` as a regular expression that matches it literally. */
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PREFIX = 'no plan passes Megatron\'s divisibility rules where tensor × pipeline × context divides the GPUs and tensor the heads: ';

describe('whyNothingFits names the rules that ended the layouts that divide the GPUs, not the layouts no request runs', () => {
  it('Llama 3.1 405B on 512 GPUs with virtual stages 2, 3, 4, 6, 7: the interleave rules (QA: it named the GPU count, 76%, and the heads, 20%)', () => {
    const r = searchPlans(llama405bBase, { constraints: { virtualStageCounts: [2, 3, 4, 6, 7], pipelineSlots: ['layers'] } });
    expect(r.top).toEqual([]);
    expect(settled(r)).toBe(r.spaceSize);
    // Each (TP, CP, PP, v) below stands for 5 micro-batch sizes × SP on/off × 4 recompute modes × 2 optimizer layouts = 80.
    // TP 1, 2, 4, 8 (16 splits no 8 KV heads) × CP 1, 2, 4, 8: 16 pairs. PP 2 holds 63 layers a stage, which v 3 and 7
    // divide, and Megatron interleaves 2 stages only with overlapped sends: 16 × 2 × 80.
    expect(r.pruned.counts['interleave-needs-overlap']).toBe(2_560);
    // The depths that divide 512 / (TP · CP), powers of two up to 64, leave the layers unevenly split over 4 or more
    // (31, 32, 32, 31; 15, 16 × 6, 15; …), which no v > 1 divides: every v but PP 2's 3 and 7, and every v at PP 1.
    // TP · CP ≤ 8 (10 pairs) takes 7 depths, 16 (3 pairs) 6, 32 (2) 5, 64 (1) 4, each PP 2's 3 v and 5 v at every other
    // depth (33 for 7 depths): (10·33 + 3·28 + 2·23 + 18) × 80.
    expect(r.pruned.counts['interleave-indivisible']).toBe(478 * 80);
    expect(r.pruned.counts['gpus-indivisible'] + r.pruned.counts['heads-indivisible']).toBeGreaterThan(0.9 * r.spaceSize);
    expect(whyNothingFits(r)).toBe(`${PREFIX}${TEXT['interleave-indivisible']} (38,240 candidates); `
      + `${TEXT['interleave-needs-overlap']} (2,560 candidates)`);
  });

  it('Llama 3 70B on 512 GPUs with the embedding and loss in the split and virtual stages 2–8: the interleave rule first, then the split', () => {
    const base = { ...llama3_70bBase, nodes: 64, globalBatchSize: 2048 };
    const r = searchPlans(base, { constraints: { virtualStageCounts: [2, 3, 4, 5, 6, 7, 8], pipelineSlots: ['embedding-and-loss'] } });
    expect(r.top).toEqual([]);
    expect(settled(r)).toBe(r.spaceSize);
    // 80 layers + 2 make 82 slots: of the depths dividing 512 / (TP · CP), only 1 and 2 divide them, and neither
    // interleaves (one stage; 41 slots a stage, which no v of 2–8 divides): 16 (TP, CP) pairs × 2 × 7 v × 80.
    expect(r.pruned.counts['interleave-indivisible']).toBe(16 * 2 * 7 * 80);
    // The rest, 4 up to min(64, 512 / (TP · CP)), have no split: (10·5 + 3·4 + 2·3 + 2) × 7 × 80.
    expect(r.pruned.counts['pipeline-split']).toBe(70 * 7 * 80);
    expect(whyNothingFits(r)).toBe(`${PREFIX}${TEXT['interleave-indivisible']} (17,920 candidates); `
      + `${TEXT['pipeline-split']} (39,200 candidates)`);
  });

  it('GPT-3 175B on 1,000 GPUs at batch 1,536: the batch, which ends the branches that got furthest, is named first', () => {
    // 1,000 = 2³ · 5³: TP and CP are powers of two and PP at most the 96 layers, so TP · PP · CP takes at most 5² (PP 25,
    // 50, 75) and every data-parallel size keeps a 5, which 1,536 = 2⁹ · 3 lacks: no layout that divides the GPUs takes
    // the batch. The split and interleave rules end more of them (the embedding and loss layouts, the virtual stages)
    // only because the enumeration checks them first.
    const r = searchPlans({ ...gpt3Base, nodes: 125 });
    expect(r.top).toEqual([]);
    expect(settled(r)).toBe(r.spaceSize);
    expect(r.pruned.counts['pipeline-split']).toBeGreaterThan(r.pruned.counts['batch-indivisible']);
    expect(whyNothingFits(r)).toMatch(new RegExp(`^${escape(PREFIX + TEXT['batch-indivisible'])} \\([\\d,]+ candidates\\); `));
  });

  it('where no layout divides the GPUs, the layout rules are named with their share of the space, as before', () => {
    const r = searchPlans(llama3_70bBase, { constraints: { pipelineSizes: [3] } });
    expect(r.pastLayout).toEqual({});
    expect(whyNothingFits(r)).toBe(`no plan passes Megatron's divisibility rules: ${TEXT['gpus-indivisible']} (80% of candidates); `
      + `${TEXT['heads-indivisible']} (20% of candidates)`);
  });

  it('a refusal only the planner checks is named by its example, which gives the field and the rule (QA: "the example names the field" named none)', () => {
    // GPT-3 175B in FP8 on V100s, which have no FP8 tensor cores: every full estimate is the planner's refusal.
    const r = searchPlans({ ...gpt3Base, gpu: gpuById('v100-32gb')!, precision: 'fp8' }, { top: 1 });
    expect(r.top).toEqual([]);
    const why = whyNothingFits(r);
    expect(why).toMatch(new RegExp(`^${escape(PREFIX + TEXT['planner-refused'])}: training\\.precision: `));
    expect(why).not.toContain('the example names the field');
  });
});
