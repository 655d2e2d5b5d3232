import { runEstimate, type EstimateOk } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { describeConfiguration, estimateFigures, planWords } from '../src/answer/describe-estimate.ts';

/** TP 8 · CP 2 with full recompute on `pipeline` stages: Llama 3.1 405B's 126 layers (128 slots with both), or Llama 3 70B's 80 (81 with one). */
const scenario = (model: string, pipeline: number, split: { embeddingInPipelineSplit?: boolean; lossInPipelineSplit?: boolean }) => ({
  model, cluster: { gpu: 'h100-sxm', nodes: 2 * pipeline },
  training: { globalBatchSize: 64, microBatchSize: 1, precision: 'bf16' },
  parallelism: { tensor: 8, pipeline, context: 2, sequenceParallel: true, distributedOptimizer: true, recompute: 'full', ...split },
});

describe('describeConfiguration: the pipeline split Megatron needs its --account-for-* flags for', () => {
  it.each([
    ['llama3.1-405b', 8, { embeddingInPipelineSplit: true, lossInPipelineSplit: true }, 'PP 8 (the embedding and the loss each count as a layer) ·'],
    ['llama3-70b', 9, { embeddingInPipelineSplit: true }, 'PP 9 (the embedding counts as a layer) ·'],
    ['llama3-70b', 9, { lossInPipelineSplit: true }, 'PP 9 (the loss counts as a layer) ·'],
    ['llama3.1-405b', 8, {}, 'PP 8 ·'],
  ])('%s on %i stages, %j → "%s"', (model, pipeline, split, words) => {
    const e = runEstimate(scenario(model, pipeline, split)) as EstimateOk;
    expect(e.ok).toBe(true);
    expect(describeConfiguration(e)).toContain(`TP 8 · ${words}`);
  });
});

describe('describeConfiguration: full recompute of some layers', () => {
  it('names how many layers per stage, as the headline of a fitting plan does (the estimate\'s resolved.recomputeLayers)', () => {
    const some = runEstimate({ ...scenario('llama3-70b', 8, {}), parallelism: { ...scenario('llama3-70b', 8, {}).parallelism, recomputeLayers: 4 } }) as EstimateOk;
    expect(some.ok).toBe(true);
    expect(some.resolved.recomputeLayers).toBe(4);
    expect(describeConfiguration(some)).toContain(' · full recompute of 4 layers/stage · ');
    const all = runEstimate(scenario('llama3-70b', 8, {})) as EstimateOk;
    expect(all.resolved.recomputeLayers).toBeUndefined();
    expect(describeConfiguration(all)).toContain(' · full recompute · ');
  });
});

describe('planWords: the plan as the Configuration line says it, which a headline names', () => {
  it('is the Configuration line less the global batch, the sequence length, the precision and the hardware', () => {
    const e = runEstimate(scenario('llama3-70b', 9, { lossInPipelineSplit: true })) as EstimateOk;
    expect(e.ok).toBe(true);
    // Written by hand from the scenario: TP 8, 9 stages with the loss counted, CP 2, DP = 18 nodes × 8 / (8 · 9 · 2) = 1,
    // micro-batch 1, full recompute, SP, the distributed optimizer.
    const words = 'TP 8 · PP 9 (the loss counts as a layer) · CP 2 · DP 1 · micro-batch 1 · full recompute · sequence parallel · distributed optimizer';
    expect(planWords(e)).toBe(words);
    // The scenario states no length: Llama 3 70B's own 8,192 tokens (its preset's shape, Meta's 8K context), said beside the batch.
    expect(describeConfiguration(e)).toBe(`${words.replace(' · full recompute', ' · global batch 64 · seq 8,192 · full recompute')} · BF16 on 18 × 8 H100 SXM5 80GB (144 GPUs, ndr-ib-8x)`);
  });
});

describe('estimateFigures: numbers grouped by thousands, as every count in an answer', () => {
  it('an FP8 plan on B200 past 1,000 TFLOP/s per GPU writes them grouped (QA: "1386 TFLOP/s")', () => {
    const e = runEstimate({
      model: 'llama3-8b', cluster: { gpu: 'b200', nodes: 1 },
      training: { globalBatchSize: 64, microBatchSize: 1, precision: 'fp8' },
      parallelism: { tensor: 1, pipeline: 1, recompute: 'none', distributedOptimizer: true },
    }) as EstimateOk;
    expect(e.ok).toBe(true);
    expect(e.modelTflopsPerGpu).toBeGreaterThan(1000);
    // Whole and grouped from 1,000 up (units' formatGrouped): 1386.4 → "1,386".
    const throughput = estimateFigures(e).find((f) => f.label === 'Throughput')?.value ?? '';
    expect(throughput).toContain(` · ${Math.round(e.modelTflopsPerGpu).toLocaleString('en-US')} TFLOP/s per GPU`);
    expect(throughput).toMatch(/ \d,\d{3} TFLOP\/s/);
  });
});
