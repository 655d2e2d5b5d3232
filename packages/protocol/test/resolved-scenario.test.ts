import { describe, expect, it } from 'vitest';
import {
  CONTRACT_EXAMPLE, estimateJsonSchema, fullEstimateOkSchema, runEstimate, scenarioOfResolved, validateEstimate, validateScenario,
  type EstimateJson, type EstimateOk, type ScenarioInput,
} from '../src/index.ts';
import { validate } from '../src/schema/validate.ts';

const estimate = (s: unknown): EstimateJson => runEstimate(s) as EstimateJson;
const ok = (s: unknown): EstimateOk => {
  const e = estimate(s);
  if (!e.ok) throw new Error(e.message);
  return e;
};
/** The estimate's numbers: everything but the advice for humans and the resolved block itself. */
const numbers = (e: EstimateJson) => JSON.stringify({ ...e, warnings: undefined, resolved: undefined });
const fedBack = (e: EstimateOk): EstimateJson => estimate(scenarioOfResolved(e.resolved));

describe('QA repros: the resolved block fed back gives the same estimate', () => {
  it('keeps overlapGradReduce and scatterGather (contract example: the switches change the step; fed back, the same step)', () => {
    const withSwitches = { ...CONTRACT_EXAMPLE, parallelism: { ...CONTRACT_EXAMPLE.parallelism, overlapGradReduce: true, scatterGather: true } };
    const first = ok(withSwitches);
    expect(first.stepTimeSeconds).toBeLessThan(ok(CONTRACT_EXAMPLE).stepTimeSeconds);
    expect(first.resolved).toMatchObject({ overlapGradReduce: true, scatterGather: true, overlapTensorParallelComm: false, overlapPipelineComm: false });
    const again = fedBack(first);
    expect(again.ok && again.stepTimeSeconds).toBe(first.stepTimeSeconds);
    expect(numbers(again)).toBe(numbers(first));
  });

  it('keeps overlapPipelineComm, which the interleaved schedule on 2 stages needs (fed back, it was refused)', () => {
    const s: ScenarioInput = {
      model: 'llama3-8b', cluster: { gpu: 'h100-sxm', nodes: 1 }, training: { globalBatchSize: 64, microBatchSize: 1 },
      parallelism: { tensor: 4, pipeline: 2, virtualStages: 2, overlapPipelineComm: true },
    };
    const first = ok(s);
    expect(first.resolved.overlapPipelineComm).toBe(true);
    const again = fedBack(first);
    expect(again.ok).toBe(true);
    expect(numbers(again)).toBe(numbers(first));
  });

  it.each([['my-1b', 'my-1b'], [undefined, 'custom']])('keeps a model given by its shape (name %s): model stays its name, modelShape the shape', (name, modelId) => {
    const shape = { layers: 16, hiddenSize: 2048, attentionHeads: 16, vocabSize: 32_000, seqLength: 4096, gatedMlp: true, ...(name && { name }) };
    const first = ok({ model: shape, cluster: { gpu: 'a100-80gb', nodes: 1 }, training: { globalBatchSize: 32, seqLength: 2048 } });
    expect(first.resolved.model).toBe(modelId);
    // The model's own length, not the run's: the learned position table is sized by the model (resolve.ts).
    expect(first.resolved.modelShape).toEqual({
      layers: 16, hiddenSize: 2048, attentionHeads: 16, kvHeads: 16, ffnHiddenSize: 8192, vocabSize: 32_000, seqLength: 4096,
      gatedMlp: true, tiedEmbeddings: true, positionEmbedding: 'learned', linearBias: true, normalization: 'layernorm', ...(name && { name }),
    });
    expect(first.resolved.seqLength).toBe(2048);
    const again = fedBack(first);
    expect(again.ok).toBe(true);
    expect(numbers(again)).toBe(numbers(first));
    expect(again.ok && again.resolved).toEqual(first.resolved);
  });
});

describe('the resolved block as a scenario', () => {
  it('is a valid scenario for a preset model, without modelShape, and with zeroStage only past 0', () => {
    const dist = ok({ ...CONTRACT_EXAMPLE, parallelism: { ...CONTRACT_EXAMPLE.parallelism, distributedOptimizer: true } });
    expect(dist.resolved.modelShape).toBeUndefined();
    const s = scenarioOfResolved(dist.resolved);
    expect(validateScenario(s).ok).toBe(true);
    expect(s.parallelism).toMatchObject({ distributedOptimizer: true });
    expect(s.parallelism).not.toHaveProperty('zeroStage');
    const zero = ok({ ...CONTRACT_EXAMPLE, parallelism: { ...CONTRACT_EXAMPLE.parallelism, zeroStage: 1 } });
    expect(scenarioOfResolved(zero.resolved).parallelism).toMatchObject({ zeroStage: 1 });
  });

  it('round-trips an out-of-memory answer\'s plan too', () => {
    const first = estimate({ ...CONTRACT_EXAMPLE, parallelism: { tensor: 8, pipeline: 8, overlapGradReduce: true } });
    expect(first.ok === false && first.reason).toBe('out-of-memory');
    if (first.ok || first.resolved === undefined) throw new Error('expected a plan');
    expect(first.resolved.overlapGradReduce).toBe(true);
    expect(JSON.stringify(estimate(scenarioOfResolved(first.resolved)))).toBe(JSON.stringify(first));
  });

  it('carries the token budget where one was given', () => {
    const first = ok({ ...CONTRACT_EXAMPLE, training: { ...CONTRACT_EXAMPLE.training, tokens: 300e9 } });
    expect(first.resolved.tokens).toBe(300e9);
    const again = fedBack(first);
    expect(again.ok && again.timeToTrain).toEqual(first.timeToTrain);
    expect(ok(CONTRACT_EXAMPLE).resolved).not.toHaveProperty('tokens');
  });
});

describe('the estimate schemas take the new resolved fields', () => {
  it('trainplan\'s own schema requires the switches; a reader\'s takes an answer without them, and modelShape with unknown keys', () => {
    const first = ok({ model: { layers: 2, hiddenSize: 256, attentionHeads: 4, vocabSize: 1000, seqLength: 512 }, cluster: { gpu: 'h100-sxm', nodes: 1 }, training: { globalBatchSize: 8 } });
    expect(validate(fullEstimateOkSchema, first).ok).toBe(true);
    const { scatterGather: _s, ...older } = first.resolved;
    expect(validate(fullEstimateOkSchema, { ...first, resolved: older }).ok).toBe(false);
    expect(validateEstimate({ ...first, resolved: older }).ok).toBe(true);
    const newer = validateEstimate({ ...first, resolved: { ...first.resolved, modelShape: { ...first.resolved.modelShape, experts: 8 } } });
    expect(newer.ok && newer.value.ok && newer.value.resolved?.modelShape).toEqual(first.resolved.modelShape);
  });

  it('documents the feed-back rule in the published JSON Schema', () => {
    const resolved = estimateJsonSchema.oneOf?.[0]?.properties?.resolved;
    expect(resolved?.description).toMatch(/Fed back as a scenario/);
    expect(Object.keys(resolved?.properties ?? {})).toEqual(expect.arrayContaining([
      'modelShape', 'scatterGather', 'overlapGradReduce', 'overlapTensorParallelComm', 'overlapPipelineComm', 'asyncTensorParallelGradComm', 'tokens',
    ]));
  });
});
