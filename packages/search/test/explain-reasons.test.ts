import { withShapeDefaults } from '@trainplan/model';
import { estimatePlan, type PlanEstimate } from '@trainplan/planner';
import { describe, expect, it } from 'vitest';
import { explainAlternatives, planFor, type Alternative, type Candidate, type SearchBase } from '../src/index.ts';
import { gpt3Base, smallBase } from './fixtures.ts';

/** A Megatron GPT of SC'21's Table 1 (Narayanan et al. 2021: V 51200, s 2048) on `nodes` DGX A100 at `batch`. */
const sc21 = (layers: number, hiddenSize: number, attentionHeads: number, nodes: number, batch: number): SearchBase => ({
  ...gpt3Base,
  model: withShapeDefaults({ name: `megatron-${layers}l`, layers, hiddenSize, attentionHeads, vocabSize: 51200, seqLength: 2048 }),
  nodes,
  globalBatchSize: batch,
});
/** The paper's own settings: FP16, Megatron 2021's unfused attention, scatter-gather of the pipeline sends. */
const SC21_SETTINGS = { precision: 'fp16', attentionKernel: 'unfused', scatterGather: true } as const;

const plain: Omit<Candidate, 'tensor' | 'pipeline' | 'data'> = {
  context: 1, virtualStages: 1, microBatchSize: 1, sequenceParallel: false, recompute: 'full', sharding: 'none',
};

/** The alternatives to `best` on `base`, the best plan's own estimate standing for the search's. */
function alternatives(base: SearchBase, best: Candidate): Alternative[] {
  const estimate = estimatePlan(planFor(base, best));
  if (!estimate.ok) throw new Error(`the best plan must run: ${estimate.message}`);
  return explainAlternatives(base, { candidate: best, estimate: estimate as PlanEstimate }, { limit: 20 });
}

const whyOf = (alts: Alternative[], change: string): string => {
  const a = alts.find((x) => x.change === change);
  if (!a) throw new Error(`no alternative "${change}" among: ${alts.map((x) => x.change).join('; ')}`);
  return a.why;
};

// Megatron 1T (128 layers, h 25600, 160 heads) on 448 nodes at 3,072: the QA's best plan, TP 8 · PP 14 · CP 2 · DP 16.
const oneT = sc21(128, 25600, 160, 448, 3072);
const oneTBest: Candidate = { ...plain, tensor: 8, pipeline: 14, context: 2, data: 16, sequenceParallel: true, recompute: 'none', sharding: 'distributed-optimizer' };

// Megatron 529.6B (105 layers, h 20480, 128 heads) on 315 nodes at 2,520 with SC'21's settings: TP 8 · PP 35 · DP 9
// recomputing 2 of each stage's 105 / 35 = 3 layers (the QA's best plan).
const big = { ...sc21(105, 20480, 128, 315, 2520), ...SC21_SETTINGS };
const bigBest: Candidate = { ...plain, tensor: 8, pipeline: 35, data: 9, recomputeLayers: 2 };

describe('why an alternative loses, said of that alternative, in plain words', () => {
  const cases: [string, SearchBase, Candidate][] = [
    ['Megatron 1T on 448 nodes', oneT, oneTBest],
    ["Megatron 529.6B with SC'21's settings", big, bigBest],
    // Megatron 1T on 384 nodes at 3,072 with SC'21's settings, as the paper ran it: TP 8 · PP 64 · DP 6, full recompute.
    ["Megatron 1T as SC'21 ran it", { ...sc21(128, 25600, 160, 384, 3072), ...SC21_SETTINGS }, { ...plain, tensor: 8, pipeline: 64, data: 6 }],
  ];

  it.each(cases)('%s: no scenario field names in any reason', (_name, base, best) => {
    for (const a of alternatives(base, best)) {
      expect(a.why, a.why).not.toMatch(/\b(parallelism|training|cluster)\.[a-z]/);
      expect(a.why, a.why).not.toMatch(/\b(virtualStages|recomputeLayers|attentionKernel|overlapPipelineComm|overlapTensorParallelComm|sequenceParallel)\b/);
    }
  });

  it('a pipeline depth with no split says so, and offers no other depth: PP 28 of 128 layers has 26 middle stages of ⌈128/28⌉ = 5, 130 layers', () => {
    // PP 14 → 28 at TP 8 · CP 2 leaves DP 3584 / (8 · 28 · 2) = 8, which divides 3,072: the split is the only reason.
    expect(whyOf(alternatives(oneT, oneTBest), 'PP 28'))
      .toBe('PP 28: 128 layers have no split over 28 stages: the 26 middle stages of ⌈128/28⌉ = 5 layers each would take 130, more than the 128');
  });

  it('context parallelism with unfused attention is refused in words, not by the field that sets the kernel', () => {
    // CP 2 on TP 8 · PP 64 leaves DP 3072 / (8 · 64 · 2) = 3, which divides 3,072: the kernel is the only reason.
    const alts = alternatives({ ...sc21(128, 25600, 160, 384, 3072), ...SC21_SETTINGS }, { ...plain, tensor: 8, pipeline: 64, data: 6 });
    expect(whyOf(alts, 'CP 2')).toBe("CP 2: context parallelism runs only in Transformer Engine's fused attention, and these settings use the unfused attention");
  });

  it('interleaving a plan that recomputes 2 of 3 layers per stage recomputes all 3 (a multiple of v 3), and runs', () => {
    // v 2 does not split 3 layers; v 3 does, and Megatron recomputes the same count in each of the 3 chunks: 2 rounds up to 3.
    const alts = alternatives(big, bigBest);
    const v3 = alts.find((a) => a.change.startsWith('interleaved, v 3'))!;
    expect(v3.change).toBe('interleaved, v 3 (recomputing every layer, not 2)');
    expect(v3.candidate).toMatchObject({ virtualStages: 3, recompute: 'full', recomputeLayers: undefined });
    expect(v3.estimate).toBeDefined();
  });

  it('an alternative that does not fit even recomputing every layer does not say "to fit"', () => {
    const refused = alternatives(big, bigBest).filter((a) => a.estimate === undefined && a.change.includes('recomputing'));
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) {
      expect(a.change).not.toContain('to fit');
      expect(a.change).toMatch(/ \(even recomputing every layer\)$/);
    }
  });

  it('a neighbour whose micro-batches no longer come in whole rounds of its stages drops the interleaving, and says so', () => {
    // GPT-3 175B on 128 nodes at 1,536: TP 4 · PP 16 · CP 2 · v 6 · mbs 4 → TP 2 leaves DP 1024 / (2 · 16 · 2) = 16 and
    // 1536 / (4 · 16) = 24 micro-batches, not a whole number of rounds of 16 stages: it runs without interleaving.
    const best: Candidate = { ...plain, tensor: 4, pipeline: 16, context: 2, data: 8, virtualStages: 6, microBatchSize: 4, sequenceParallel: true, recompute: 'none', sharding: 'distributed-optimizer' };
    const tp2 = alternatives(gpt3Base, best).find((a) => a.change.startsWith('TP 2'))!;
    expect(tp2.change).toBe('TP 2 (no interleaving)');
    expect(tp2.candidate.virtualStages).toBe(1);
  });

  it('a ZeRO-3 plan\'s pipelined neighbour cannot run, said without the fields a search\'s caller never set (zeroStage, distributedOptimizer)', () => {
    // The 1.3B GPT on 16 GPUs at TP 8 without a pipeline, DP 2: PP 2 is DP 1, which only the ZeRO-3 rule refuses.
    const best: Candidate = { ...plain, tensor: 8, pipeline: 1, data: 2, sharding: 'zero-3' };
    expect(whyOf(alternatives(smallBase, best), 'PP 2')).toBe('PP 2: ZeRO-3 does not run with a pipeline (DeepSpeed and Megatron-FSDP refuse it)');
  });
});
