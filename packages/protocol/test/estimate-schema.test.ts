import { describe, expect, it } from 'vitest';
import { estimateJsonSchema, validateEstimate, type EstimateInfeasible, type EstimateOk, type JsonSchema } from '../src/index.ts';
import { checkJsonSchema, subschemas } from './support/json-schema-check.ts';

// Every field of wire.ts's EstimateOk (`satisfies` fails to compile if one is missing or misnamed).
const feasible = {
  ok: true, stepTimeSeconds: 22.8, tokensPerSecond: 137962, modelTflopsPerGpu: 145.1, hardwareTflopsPerGpu: 193.4,
  mfu: 0.465, hfu: 0.62, peakTflopsPerGpu: 312,
  memory: {
    weightsBytes: 5.5e9, gradientsBytes: 5.5e9, optimizerBytes: 33e9, activationsBytes: 20e9, otherBytes: 2e9,
    totalBytes: 66e9, capacityBytes: 85.9e9, fits: true,
  },
  breakdown: {
    computeSeconds: 17, tensorParallelCommSeconds: 2, pipelineBubbleSeconds: 2.5, pipelineCommSeconds: 0.3,
    dataParallelCommSeconds: 0.5, optimizerSeconds: 0.5, contextParallelCommSeconds: 0, contextParallelCommTotalSeconds: 0, recomputeSeconds: 4,
    dataParallelCommTotalSeconds: 1.5,
  },
  samplesPerSecond: 67.4, modelFlopsPerStep: 1.9e18, hardwareFlopsPerStep: 2.5e18, parameters: 175e9,
  resolved: {
    model: 'gpt3-175b', gpu: 'a100-80gb', network: 'hdr-ib-8x', gpusPerNode: 8, nodes: 128, gpus: 1024,
    tensor: 8, pipeline: 8, data: 16, context: 1, virtualStages: 1, microBatchSize: 1, microBatches: 96,
    globalBatchSize: 1536, seqLength: 2048, precision: 'bf16', recompute: 'full', sequenceParallel: false,
    distributedOptimizer: false, zeroStage: 0, schedule: '1f1b', communicationModel: 'closed-form', oversubscription: 1,
  },
  timeToTrain: { tokens: 300e9, seconds: 2.17e6, days: 25.2, gpuHours: 618_000 },
  warnings: ['pipeline bubble above 10%'],
} satisfies EstimateOk;

const outOfMemory = {
  ok: false, reason: 'out-of-memory', message: 'needs 96 GB per GPU, has 80 GB', neededBytes: 96e9, availableBytes: 80e9,
  resolved: feasible.resolved, memory: { ...feasible.memory, totalBytes: 96e9, fits: false }, parameters: feasible.parameters,
  issues: [{ path: 'parallelism.tensor', message: 'try a larger tensor degree' }],
} satisfies EstimateInfeasible;

const [okBranch = {}, infeasibleBranch = {}] = estimateJsonSchema.oneOf ?? [];

describe('the estimate JSON Schema', () => {
  it('is a JSON Schema 2020-12 document: a oneOf of ok true and ok false', () => {
    expect(estimateJsonSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(estimateJsonSchema.oneOf?.map((branch) => branch.properties?.ok)).toEqual([{ const: true }, { const: false }]);
    expect(okBranch.type).toBe('object');
  });

  it.each<[string, JsonSchema, object, string[]]>([
    ['a feasible estimate', okBranch, feasible, ['timeToTrain', 'peakTflopsPerGpu']],
    ['an infeasible answer', infeasibleBranch, outOfMemory, ['neededBytes', 'availableBytes', 'resolved', 'memory', 'parameters', 'issues']],
  ])('%s lists every field of wire.ts and requires all but the optional ones', (_, branch, sample, optional) => {
    const keys = Object.keys(sample);
    expect(Object.keys(branch.properties ?? {}).sort()).toEqual([...keys].sort());
    expect([...(branch.required ?? [])].sort()).toEqual(keys.filter((k) => !optional.includes(k)).sort());
  });

  it('describes every field, with its unit where the key names one', () => {
    for (const [path, schema] of subschemas(estimateJsonSchema)) {
      if (path.endsWith('/ok') || /\/resolved\/(precision|recompute|schedule|sequenceParallel|distributedOptimizer)$/.test(path)) continue;
      if (path === '' || /\/(oneOf\/\d|items)$/.test(path)) continue;
      expect(schema.description, path).toBeTruthy();
      if (path.endsWith('Bytes')) expect(schema.description, path).toMatch(/in bytes/);
      if (path.endsWith('Seconds')) expect(schema.description, path).toMatch(/in seconds/);
      if (path.endsWith('TflopsPerGpu')) expect(schema.description, path).toMatch(/TFLOP\/s/);
    }
  });

  it('lets a newer API add output fields (no additionalProperties: false)', () => {
    for (const [path, schema] of subschemas(estimateJsonSchema)) expect(schema.additionalProperties, path).toBeUndefined();
  });
});

describe('validating an estimate read from the API', () => {
  it.each([
    ['a feasible estimate', feasible],
    ['an out-of-memory answer', outOfMemory],
    ['an invalid-input answer', { ok: false, reason: 'invalid', message: 'bad', issues: [{ path: 'model', message: 'x' }] }],
  ])('%s is accepted as is, by the validator and by the JSON Schema', (_, estimate) => {
    expect(validateEstimate(estimate)).toEqual({ ok: true, value: estimate });
    expect(checkJsonSchema(estimateJsonSchema, estimate)).toEqual([]);
  });

  it('drops fields it does not know instead of refusing the answer', () => {
    const newer = { ...feasible, carbonKg: 12, memory: { ...feasible.memory, kvCacheBytes: 1 } };
    expect(validateEstimate(newer)).toEqual({ ok: true, value: feasible });
    expect(checkJsonSchema(estimateJsonSchema, newer)).toEqual([]);
  });

  it.each<[string, unknown, string, string]>([
    ['ok that is neither true nor false', { ...outOfMemory, ok: 'no' }, '', 'expected an estimate object with ok true or ok false, got an object'],
    ['a missing step time', { ...feasible, stepTimeSeconds: undefined }, 'stepTimeSeconds', 'missing required field'],
    ['a negative memory size', { ...feasible, memory: { ...feasible.memory, totalBytes: -1 } }, 'memory.totalBytes', 'expected a number ≥ 0, got -1'],
    ['an unknown reason', { ...outOfMemory, reason: 'too-slow' }, 'reason', 'expected one of out-of-memory, indivisible, invalid'],
    ['a fractional GPU count', { ...feasible, resolved: { ...feasible.resolved, gpus: 1.5 } }, 'resolved.gpus', 'got 1.5'],
    ['a warning that is not a string', { ...feasible, warnings: [3] }, 'warnings[0]', 'got 3'],
  ])('refuses %s, naming %j', (_, estimate, path, fragment) => {
    expect(validateEstimate(estimate)).toEqual({ ok: false, issues: [{ path, message: expect.stringContaining(fragment) }] });
    expect(checkJsonSchema(estimateJsonSchema, JSON.parse(JSON.stringify(estimate)))).not.toEqual([]);
  });
});
