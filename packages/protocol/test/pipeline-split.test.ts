import { describe, expect, it } from 'vitest';
import { runEstimate, validateEstimate, validateScenario, type EstimateInfeasible, type EstimateOk } from '../src/index.ts';

/**
 * Llama 3.1 405B split as NVIDIA's Megatron-Bridge recipe splits it (TP 8 · PP 8 · VPP 2, both flags), on 128 H100
 * at 8k tokens with CP 2 and full recompute, which fits them.
 */
const RECIPE = {
  model: 'llama3.1-405b',
  cluster: { gpu: 'h100-sxm', nodes: 16 },
  training: { globalBatchSize: 64, microBatchSize: 1, precision: 'bf16', dropout: false },
  parallelism: {
    tensor: 8, pipeline: 8, context: 2, virtualStages: 2, sequenceParallel: true, distributedOptimizer: true, recompute: 'full',
    overlapTensorParallelComm: true, overlapPipelineComm: true, embeddingInPipelineSplit: true, lossInPipelineSplit: true,
  },
};

describe('scenario extensions parallelism.embeddingInPipelineSplit and lossInPipelineSplit', () => {
  it('are optional booleans with no default written into the scenario (earlier scenarios validate unchanged)', () => {
    const v = validateScenario({ ...RECIPE, parallelism: { tensor: 8 } });
    expect(v.ok && 'embeddingInPipelineSplit' in v.value.parallelism).toBe(false);
    const bad = validateScenario({ ...RECIPE, parallelism: { ...RECIPE.parallelism, lossInPipelineSplit: 'yes' } });
    expect(!bad.ok && bad.issues.map((i) => i.path)).toEqual(['parallelism.lossInPipelineSplit']);
  });

  it('interleave Llama 3.1 405B on 8 stages, and the estimate states the flags and the layers on each stage', () => {
    const e = runEstimate(RECIPE) as EstimateOk;
    expect(e.ok).toBe(true);
    expect(e.resolved).toMatchObject({ embeddingInPipelineSplit: true, lossInPipelineSplit: true, virtualStages: 2 });
    expect(e.resolved.layersPerStage).toEqual([15, 16, 16, 16, 16, 16, 16, 15]);
    expect(validateEstimate(e).ok).toBe(true);
  });

  it('without them the same plan is refused, naming virtualStages, and an estimate says both are off', () => {
    const { embeddingInPipelineSplit: _e, lossInPipelineSplit: _l, ...rest } = RECIPE.parallelism;
    const refused = runEstimate({ ...RECIPE, parallelism: rest }) as EstimateInfeasible;
    expect(refused).toMatchObject({ ok: false, reason: 'indivisible' });
    expect(refused.issues?.map((i) => i.path)).toEqual(['parallelism.virtualStages']);
    const plain = runEstimate({ ...RECIPE, parallelism: { ...rest, virtualStages: 1, overlapPipelineComm: false } }) as EstimateOk;
    expect(plain.resolved).toMatchObject({ embeddingInPipelineSplit: false, lossInPipelineSplit: false });
    expect(plain.resolved.layersPerStage).toEqual([15, 16, 16, 16, 16, 16, 16, 15]);
  });

  it('an answer from before these extensions (no flags, no layersPerStage) still validates', () => {
    const e = runEstimate(RECIPE) as EstimateOk;
    const { embeddingInPipelineSplit: _e, lossInPipelineSplit: _l, layersPerStage: _s, ...older } = e.resolved;
    expect(validateEstimate({ ...e, resolved: older }).ok).toBe(true);
  });
});
