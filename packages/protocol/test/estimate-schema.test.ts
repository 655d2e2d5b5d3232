import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONTRACT_EXAMPLE, estimateJsonSchema, fullEstimateOkSchema, runEstimate, validate, validateEstimate,
  type EstimateInfeasible, type EstimateJson, type EstimateOk, type JsonSchema,
} from '../src/index.ts';
import { checkJsonSchema, subschemas } from './support/json-schema-check.ts';

// The scenario contract sits beside the repository (/work/shared from /work/main), read as it stands, not copied.
const CONTRACT = readFileSync(new URL('../../../../shared/docs/scenario-contract.md', import.meta.url), 'utf8');
/** The contract's output example: the JSON block under "## Output: an estimate". */
const contractOutput = JSON.parse(/```json\n([\s\S]*?)```/.exec(CONTRACT.slice(CONTRACT.indexOf('## Output: an estimate')))?.[1] ?? 'null') as
  { memory: object; breakdown: object };
if (contractOutput === null) throw new Error('scenario-contract.md: no ```json block under "## Output: an estimate"');

// Every field of wire.ts's EstimateOk (`satisfies` fails to compile if one is missing or misnamed).
const feasible = {
  ok: true, stepTimeSeconds: 22.8, tokensPerSecond: 137962, modelTflopsPerGpu: 145.1, hardwareTflopsPerGpu: 193.4,
  mfu: 0.465, hfu: 0.62, peakTflopsPerGpu: 312,
  memory: {
    weightsBytes: 5.5e9, gradientsBytes: 5.5e9, optimizerBytes: 33e9, activationsBytes: 20e9, otherBytes: 3_610_612_736,
    otherParts: { runtimeReserveBytes: 1_610_612_736, fragmentationBytes: 2e9, zero3GatheredBytes: 0, optimizerStepBytes: 0 },
    totalBytes: 67_610_612_736, capacityBytes: 85.9e9, fits: true, stage: 0,
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
    ['a feasible estimate', okBranch, feasible, Object.keys(contractOutput)],
    ['its memory', okBranch.properties?.memory ?? {}, feasible.memory, Object.keys(contractOutput.memory)],
    ['its breakdown', okBranch.properties?.breakdown ?? {}, feasible.breakdown, Object.keys(contractOutput.breakdown)],
    ['an infeasible answer', infeasibleBranch, outOfMemory, ['ok', 'reason', 'message']],
  ])('%s lists every field of wire.ts and requires only those of the contract\'s example (ok, reason, message when infeasible)', (_, branch, sample, required) => {
    expect(Object.keys(branch.properties ?? {}).sort()).toEqual(Object.keys(sample).sort());
    expect([...(branch.required ?? [])].sort()).toEqual([...required].sort());
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

// The contract's output fields are "the stable minimum that outside tools rely on; the project may add fields": a reader
// must take an answer with the contract's fields alone (QA: the contract's own example was refused, lacking ten extensions).
describe("the contract's fields are required, trainplan's extensions are not", () => {
  // The contract example with a token budget (timeToTrain): an answer of ours with every extension.
  const ours = runEstimate({ ...CONTRACT_EXAMPLE, training: { ...CONTRACT_EXAMPLE.training, tokens: 300e9 } }) as EstimateOk;
  const without = (value: object, path: string): object => {
    const copy = structuredClone(value) as Record<string, Record<string, unknown>>;
    const [head = '', leaf] = path.split('.');
    if (leaf === undefined) delete copy[head];
    else delete copy[head]![leaf];
    return copy;
  };
  const pathsOf = (value: object, inside: 'memory' | 'breakdown') => [
    ...Object.keys(value),
    ...Object.keys((value as Record<typeof inside, object>)[inside]).map((k) => `${inside}.${k}`),
  ];
  const contractPaths = [...pathsOf(contractOutput, 'memory'), ...Object.keys(contractOutput.breakdown).map((k) => `breakdown.${k}`)];
  const extensionPaths = [...pathsOf(ours, 'memory'), ...Object.keys(ours.breakdown).map((k) => `breakdown.${k}`)]
    .filter((path) => !contractPaths.includes(path));

  it('the contract\'s own output example, read from scenario-contract.md, is accepted as is', () => {
    expect(validateEstimate(contractOutput)).toEqual({ ok: true, value: contractOutput });
    expect(checkJsonSchema(estimateJsonSchema, contractOutput)).toEqual([]);
  });

  it('an answer of ours has extensions beyond the contract\'s fields, top-level and in memory and the breakdown', () => {
    expect(extensionPaths).toEqual(expect.arrayContaining([
      'samplesPerSecond', 'resolved', 'warnings', 'timeToTrain', 'memory.stage', 'breakdown.recomputeSeconds', 'breakdown.contextParallelCommSeconds',
    ]));
  });

  it.each(extensionPaths)('an answer without the extension %s is accepted, without it', (path) => {
    const answer = without(ours, path);
    expect(validateEstimate(answer)).toEqual({ ok: true, value: answer });
    expect(checkJsonSchema(estimateJsonSchema, answer)).toEqual([]);
  });

  it.each(contractPaths.filter((path) => path !== 'ok'))('an answer without the contract field %s is refused, naming it', (path) => {
    const answer = without(ours, path);
    expect(validateEstimate(answer)).toEqual({ ok: false, issues: [{ path, message: expect.stringContaining('missing required field') }] });
    expect(checkJsonSchema(estimateJsonSchema, answer)).not.toEqual([]);
  });

  it('every field described as an extension, at any depth (resolved.communicationModel, …), is optional to a reader', () => {
    const extensions = [...subschemas(estimateJsonSchema)].flatMap(([path, schema]) => Object.entries(schema.properties ?? {})
      .filter(([, field]) => field.description?.startsWith('Extension') === true)
      .map(([key]) => [`${path}/${key}`, schema.required?.includes(key) === true] as const));
    expect(extensions.map(([path]) => path)).toEqual(expect.arrayContaining(['/oneOf/0/resolved', '/oneOf/0/resolved/communicationModel', '/oneOf/1/resolved/dropout']));
    expect(extensions.filter(([, isRequired]) => isRequired)).toEqual([]);
  });

  it('an answer without ok is refused as neither a feasible nor an infeasible one', () => {
    expect(validateEstimate(without(contractOutput, 'ok'))).toEqual({ ok: false, issues: [{ path: '', message: expect.stringContaining('with ok true or ok false') }] });
  });

  // wire.ts: ResolvedJson requires them (every answer of ours sends both), ReceivedResolvedJson does not (older answers lack them).
  it('a plan without communicationModel and oversubscription is read, feasible or out of memory; our own full schema refuses it', () => {
    const older = without(without(ours, 'resolved.communicationModel'), 'resolved.oversubscription');
    const read = validateEstimate(older);
    expect(read).toEqual({ ok: true, value: older });
    expect(read.ok && read.value.ok ? read.value.resolved?.oversubscription : 'unread').toBeUndefined();
    const refused = without(without(outOfMemory, 'resolved.communicationModel'), 'resolved.oversubscription');
    expect(validateEstimate(refused)).toEqual({ ok: true, value: refused });
    const full = validate(fullEstimateOkSchema, older);
    expect(full.ok ? [] : full.issues.map((i) => i.path)).toEqual(['resolved.communicationModel', 'resolved.oversubscription']);
  });
});

// model reference §3: fragmentation and buffers "as a separate, named term": otherParts splits otherBytes, an extension.
describe('memory.otherParts, the named parts of otherBytes', () => {
  const ours = runEstimate(CONTRACT_EXAMPLE) as EstimateOk;
  const { otherParts: _, ...olderMemory } = ours.memory;
  const older = { ...ours, memory: olderMemory };

  it('a reader takes an answer without it (feasible or out of memory); our own full schema refuses it, naming it', () => {
    expect(ours.memory.otherParts).toBeDefined();
    expect(validateEstimate(older)).toEqual({ ok: true, value: older });
    expect(checkJsonSchema(estimateJsonSchema, older)).toEqual([]);
    const refused = { ...outOfMemory, memory: olderMemory };
    expect(validateEstimate(refused)).toEqual({ ok: true, value: refused });
    const full = validate(fullEstimateOkSchema, older);
    expect(full.ok ? [] : full.issues).toEqual([{ path: 'memory.otherParts', message: expect.stringContaining('missing required field') }]);
  });

  it('is whole bytes: a reader refuses a fractional or negative part where it is sent, naming it', () => {
    const at = (part: object) => validateEstimate({ ...ours, memory: { ...ours.memory, otherParts: { ...ours.memory.otherParts, ...part } } });
    expect(at({ fragmentationBytes: 0.5 })).toEqual({ ok: false, issues: [{ path: 'memory.otherParts.fragmentationBytes', message: expect.any(String) }] });
    expect(at({ optimizerStepBytes: -1 })).toEqual({ ok: false, issues: [{ path: 'memory.otherParts.optimizerStepBytes', message: expect.any(String) }] });
  });
});

describe("trainplan's own answers carry every extension (fullEstimateOkSchema)", () => {
  const full = fullEstimateOkSchema.toJsonSchema();
  // Only some plans have these: a token budget's time (and the budget, resolved.tokens), FP8's weights, full recompute of
  // some layers, a model given by its shape.
  const perPlan = ['timeToTrain', 'fp8Params', 'recomputeLayers', 'tokens', 'modelShape'];

  it.each<[string, JsonSchema]>([
    ['a feasible estimate', full],
    ['its memory', full.properties?.memory ?? {}],
    ['its breakdown', full.properties?.breakdown ?? {}],
    ['its resolved scenario', full.properties?.resolved ?? {}],
  ])('%s: the full schema requires every field the reader\'s lists, but those only some plans have', (_, schema) => {
    const fields = Object.keys(schema.properties ?? {});
    expect(fields.length).toBeGreaterThan(0);
    expect([...(schema.required ?? [])].sort()).toEqual(fields.filter((k) => !perPlan.includes(k)).sort());
  });

  it.each<[string, object]>([
    ['the contract example with a token budget', { ...CONTRACT_EXAMPLE, training: { ...CONTRACT_EXAMPLE.training, tokens: 300e9 } }],
    ['FP8 with FP8 weights, some layers recomputed, emulated collectives', {
      model: 'llama3-8b', cluster: { gpu: 'h100-sxm', nodes: 1, communicationModel: 'emulated' },
      training: { globalBatchSize: 32, precision: 'fp8', fp8Params: true },
      parallelism: { tensor: 2, pipeline: 2, recompute: 'full', recomputeLayers: 2, distributedOptimizer: true },
    }],
  ])('runEstimate answers %s with every field the full schema lists, none unknown to it', (_, scenario) => {
    const answer = runEstimate(scenario) as EstimateJson;
    expect(answer.ok).toBe(true);
    expect(validate(fullEstimateOkSchema, answer)).toEqual({ ok: true, value: answer });
  });
});
