import { pipelineSplit, withShapeDefaults } from '@trainplan/model';
import { describe, expect, it } from 'vitest';
import { FEWER_NODES_MIN_GAIN, FEWER_NODES_WINDOW, fewerNodes, fewerNodesSizes, searchedSpace, searchPlans, type SearchBase } from '../src/index.ts';
import { gpt3Base } from './fixtures.ts';

/** Megatron's 1T GPT (Narayanan et al. 2021 Table 1: 128 layers, h 25,600, 160 heads) on 448 DGX A100 at a 3,072 batch. */
const oneT: SearchBase = {
  ...gpt3Base,
  model: withShapeDefaults({ name: 'gpt-1t', layers: 128, hiddenSize: 25600, attentionHeads: 160, vocabSize: 51200, seqLength: 2048 }),
  nodes: 448,
  globalBatchSize: 3072,
};

describe('fewerNodesSizes: the smaller clusters on which some plan can start', () => {
  const sizes = fewerNodesSizes(oneT);
  const space = searchedSpace(oneT);
  it('lies within the window below the cluster, largest first, then the largest power of two below it (256)', () => {
    expect(sizes.length).toBeGreaterThan(1);
    expect(sizes.slice(0, -1).every((n) => n < 448 && n >= Math.ceil(448 * (1 - FEWER_NODES_WINDOW)))).toBe(true);
    expect(sizes.at(-1)).toBe(256);
    expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
  });
  it('keeps exactly the sizes whose GPUs split as TP × CP × PP × DP with a pipeline split of the 128 layers and DP dividing the batch', () => {
    // By brute force over the space's degrees, independently of the function's grouping.
    const runs = (nodes: number) => space.tensor.some((t) => space.context.some((c) => space.pipeline.some((p) => {
      const gpus = nodes * 8;
      if (gpus % (t * c * p) !== 0 || !space.pipelineSlots.some((s) => pipelineSplit(128, p, s) !== undefined)) return false;
      return space.microBatchSize.some((mbs) => 3072 % ((gpus / (t * c * p)) * mbs) === 0);
    })));
    const expected: number[] = [];
    for (let n = 447; n >= Math.ceil(448 * 0.9); n--) if (runs(n)) expected.push(n);
    expect(sizes).toEqual([...expected, ...(runs(256) ? [256] : [])]);
    // 416 × 8 = 2⁸ · 13: TP 8 · PP 26 · DP 16 (26 stages: 24 of ⌈128/26⌉ = 5 layers and 4 each on the first and last).
    expect(sizes).toContain(416);
  });
});

describe('SearchOptions.stepCutoffSeconds', () => {
  const best = searchPlans(oneT, { top: 1 }).top[0]!;
  it('above the best step, changes nothing; at it, leaves nothing faster to rank', () => {
    const above = searchPlans(oneT, { top: 1, stepCutoffSeconds: best.estimate.stepTimeSeconds * 1.5 }).top[0]!;
    expect(above.estimate.stepTimeSeconds).toBe(best.estimate.stepTimeSeconds);
    const at = searchPlans(oneT, { top: 1, stepCutoffSeconds: best.estimate.stepTimeSeconds }).top;
    expect(at.every((p) => p.estimate.stepTimeSeconds >= best.estimate.stepTimeSeconds)).toBe(true);
  });
});

describe('fewerNodes: a smaller cluster that steps faster', () => {
  const best = searchPlans(oneT, { top: 1 }).top[0]!;
  const found = fewerNodes(oneT, best.estimate.stepTimeSeconds);
  it('finds one for the 1T model on 448 nodes, and its plan is the best that size\'s own search finds', () => {
    expect(found).toBeDefined();
    expect(found!.nodes).toBeLessThan(448);
    expect(found!.plan.estimate.stepTimeSeconds).toBeLessThan(best.estimate.stepTimeSeconds * (1 - FEWER_NODES_MIN_GAIN));
    const own = searchPlans({ ...oneT, nodes: found!.nodes }, { top: 1 }).top[0]!;
    expect(found!.plan.estimate.stepTimeSeconds).toBe(own.estimate.stepTimeSeconds);
    // And no other size it tried beats it.
    for (const n of fewerNodesSizes(oneT)) {
      const step = searchPlans({ ...oneT, nodes: n }, { top: 1 }).top[0]?.estimate.stepTimeSeconds ?? Infinity;
      expect(step).toBeGreaterThanOrEqual(found!.plan.estimate.stepTimeSeconds);
    }
  });
  it('finds none when the best on the cluster asked for is already faster than every smaller size', () => {
    // A cutoff no plan can beat: a step of 1 ms.
    expect(fewerNodes(oneT, 1e-3)).toBeUndefined();
  });
});

describe('QA: Llama 2 7B on A100s at 1,024 sequences, where a power of two of nodes below the window steps faster', () => {
  /** Llama 2 7B (Touvron et al. 2023 Table 1: 32 layers, h 4096, 32 heads, FFN 11,008) on DGX A100 at 1,024 sequences. */
  const llama7b: SearchBase = {
    ...gpt3Base,
    model: withShapeDefaults({
      name: 'llama2-7b', layers: 32, hiddenSize: 4096, attentionHeads: 32, ffnHiddenSize: 11008, vocabSize: 32000, seqLength: 4096,
      gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary', linearBias: false, normalization: 'rmsnorm',
    }),
    seqLength: 4096,
    globalBatchSize: 1024,
  };
  const stepOn = (nodes: number): number => searchPlans({ ...llama7b, nodes }, { top: 1 }).top[0]!.estimate.stepTimeSeconds;
  it.each([[9, 8], [18, 16], [36, 32]])('on %i nodes, names %i, whose best steps faster by more than the minimum gain', (asked, fewer) => {
    const best = stepOn(asked);
    // The smaller size's own best is the faster (was missed: 9 nodes' window holds no size; 16 and 32 lie below 18's and 36's).
    expect(stepOn(fewer)).toBeLessThan(best * (1 - FEWER_NODES_MIN_GAIN));
    expect(fewerNodes({ ...llama7b, nodes: asked }, best)?.nodes).toBe(fewer);
  });
});
