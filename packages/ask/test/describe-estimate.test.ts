import { runEstimate, type EstimateOk } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { describeConfiguration } from '../src/answer/describe-estimate.ts';

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
