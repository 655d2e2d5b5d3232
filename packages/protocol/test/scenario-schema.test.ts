import { describe, expect, it } from 'vitest';
import { MAX_SCENARIOS, validateScenario, validateScenarios, type ResolvedScenarioInput } from '../src/index.ts';
import { badScenarios, contractExample, crossFieldBadScenarios, goodScenarios, gpt3Shape, minimalScenario, scenarioWith } from './support/scenarios.ts';

const neutralParallelism = {
  tensor: 1, pipeline: 1, virtualStages: 1, context: 1, sequenceParallel: false, recompute: 'none',
  distributedOptimizer: false, schedule: '1f1b', scatterGather: false, overlapGradReduce: false,
  overlapTensorParallelComm: false, overlapPipelineComm: false,
};

function valid(value: unknown): ResolvedScenarioInput {
  const result = validateScenario(value);
  if (!result.ok) throw new Error(`unexpected issues: ${JSON.stringify(result.issues)}`);
  return result.value;
}

describe('valid scenarios', () => {
  it('the contract example validates and gains only the extensions\' defaults (the attention kernel\'s is the GPU\'s, dropout\'s the model\'s, at resolve)', () => {
    expect(valid(contractExample)).toEqual({
      ...contractExample,
      parallelism: {
        ...contractExample.parallelism, schedule: '1f1b', scatterGather: false, overlapGradReduce: false,
        overlapTensorParallelComm: false, overlapPipelineComm: false,
      },
    });
  });

  it('a minimal scenario (model id, cluster.gpu + nodes, training.globalBatchSize) gets every default filled', () => {
    expect(valid(minimalScenario)).toEqual({
      model: 'llama3-8b',
      cluster: { gpu: 'h100-sxm', nodes: 2 },
      // precision and attentionKernel are left for resolve, whose defaults depend on the GPU (bf16 and flash here),
      // and so is dropout, whose default depends on the model (off for Llama 3 8B).
      training: { globalBatchSize: 512, microBatchSize: 1 },
      parallelism: neutralParallelism,
    });
  });

  it.each(goodScenarios)('%s validates', (_, scenario) => {
    expect(validateScenario(scenario)).toMatchObject({ ok: true });
  });

  it('a model object gets the contract defaults: kvHeads = attentionHeads, ffnHiddenSize = 4 × hiddenSize, an ungated MLP, tied embeddings', () => {
    const { model } = valid(scenarioWith((s) => { s.model = gpt3Shape; }));
    expect(model).toEqual({ ...gpt3Shape, kvHeads: 96, ffnHiddenSize: 4 * 12288, gatedMlp: false, tiedEmbeddings: true });
  });

  it('a model object keeps the values it gives', () => {
    const given = { ...gpt3Shape, kvHeads: 8, ffnHiddenSize: 28672, gatedMlp: true, tiedEmbeddings: false, name: 'mine' };
    expect(valid(scenarioWith((s) => { s.model = given; })).model).toEqual(given);
  });

  it('the schedule defaults to interleaved when virtualStages > 1, and an explicit one is kept', () => {
    expect(valid(scenarioWith((s) => { s.parallelism = { virtualStages: 2 }; })).parallelism.schedule).toBe('interleaved');
    expect(valid(scenarioWith((s) => { s.parallelism = { virtualStages: 1, schedule: 'gpipe' }; })).parallelism.schedule).toBe('gpipe');
    expect(valid(scenarioWith((s) => { s.parallelism = { virtualStages: 4, schedule: 'interleaved' }; })).parallelism.schedule).toBe('interleaved');
  });

  // Virtual stages are the interleaved schedule's chunks: 1F1B or GPipe with v > 1 would take the interleaved bubble
  // with its own schedule's memory (QA), and interleaving with v = 1 is plain 1F1B. Each is refused on parallelism.schedule.
  it.each([
    ['1f1b', 2, 'schedule "1f1b" needs virtualStages 1, got 2'],
    ['gpipe', 3, 'schedule "gpipe" needs virtualStages 1, got 3'],
    ['interleaved', 1, 'schedule "interleaved" needs virtualStages > 1, got 1'],
  ] as const)('schedule %s with virtualStages %i is refused', (schedule, virtualStages, message) => {
    const result = validateScenario(scenarioWith((s) => { s.parallelism = { virtualStages, schedule }; }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toContainEqual({ path: 'parallelism.schedule', message });
  });

  it('optional fields without an input-only default stay absent (data, zeroStage, seqLength, gpusPerNode)', () => {
    const resolved = valid(minimalScenario);
    expect(resolved.parallelism).not.toHaveProperty('data');
    expect(resolved.parallelism).not.toHaveProperty('zeroStage');
    expect(resolved.training).not.toHaveProperty('seqLength');
    expect(resolved.cluster).not.toHaveProperty('gpusPerNode');
  });

  it('the input is not mutated and every answer owns its defaults', () => {
    const input = structuredClone(minimalScenario);
    const first = valid(input);
    first.parallelism.tensor = 99;
    expect(input).toEqual(minimalScenario);
    expect(valid(input).parallelism.tensor).toBe(1);
  });
});

describe('invalid scenarios name the offending field', () => {
  // Reordered so that the title shows the path, not the (possibly 100 KB) input.
  const rows = [...badScenarios, ...crossFieldBadScenarios].map(([what, input, path, fragment]) => [what, path, fragment, input] as const);
  it.each(rows)('%s is reported at %j: %s', (_, path, fragment, input) => {
    const result = validateScenario(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([{ path, message: expect.stringContaining(fragment) }]);
  });

  it('every issue is reported at once, in document order', () => {
    const result = validateScenario({
      model: { ...gpt3Shape, layers: 0 },
      cluster: { gpu: 7 },
      training: { globalBatchSize: 8, precision: 'fp4' },
      parallelism: { tensor: 0, tensr: 2 },
    });
    expect(result.ok || result.issues.map((issue) => issue.path)).toEqual([
      'model.layers', 'cluster.gpu', 'cluster.nodes', 'training.precision', 'parallelism.tensor', 'parallelism.tensr',
    ]);
  });

  it('a nodes that is itself invalid is reported once, not also as "neither"', () => {
    const result = validateScenario(scenarioWith((s) => { s.cluster.nodes = -1; }));
    expect(result.ok || result.issues).toEqual([{ path: 'cluster.nodes', message: 'expected an integer ≥ 1, got -1' }]);
  });
});

describe('arrays of scenarios', () => {
  it('one scenario is answered as one result, not an array', () => {
    const result = validateScenarios(minimalScenario);
    expect(result).toMatchObject({ ok: true, array: false });
    expect(result.ok && result.values).toHaveLength(1);
  });

  it('an array returns per-index results, with issue paths prefixed by [i]', () => {
    const bad = scenarioWith((s) => { s.cluster.gpu = 3; });
    const result = validateScenarios([minimalScenario, bad, contractExample]);
    expect(result.ok).toBe(false);
    expect(result.array).toBe(true);
    expect(result.results.map((r) => r.ok)).toEqual([true, false, true]);
    expect(result.results[1]).toEqual({ ok: false, issues: [{ path: '[1].cluster.gpu', message: 'expected a non-empty string of at most 64 characters, got 3' }] });
    expect(!result.ok && result.issues.map((i) => i.path)).toEqual(['[1].cluster.gpu']);
  });

  it('an array of valid scenarios yields their resolved values in order', () => {
    const result = validateScenarios([contractExample, minimalScenario]);
    expect(result.ok && result.values.map((v) => v.model)).toEqual(['gpt3-175b', 'llama3-8b']);
  });

  it(`accepts ${MAX_SCENARIOS} scenarios`, () => {
    const result = validateScenarios(Array.from({ length: MAX_SCENARIOS }, () => minimalScenario));
    expect(result.ok && result.values).toHaveLength(MAX_SCENARIOS);
  });

  it.each([
    [0, 'expected a scenario or a non-empty array of scenarios, got an empty array'],
    [5000, 'expected an array of 1 to 1,024 scenarios, got 5,000'],
  ])('refuses an array of %i scenarios as a whole, without looking inside', (length, message) => {
    const result = validateScenarios(Array.from({ length }, () => null));
    expect(result).toEqual({ ok: false, array: true, issues: [{ path: '', message }], results: [] });
  });
});

describe('hostile input', () => {
  const deepObject = (depth: number): unknown => {
    let junk: unknown = {};
    for (let i = 0; i < depth; i++) junk = { layers: junk };
    return junk;
  };
  const deepArray = (depth: number): unknown => {
    let junk: unknown = [];
    for (let i = 0; i < depth; i++) junk = [junk];
    return junk;
  };

  it('junk nested 10,000 deep is refused at its first level, without overflowing the stack', () => {
    const result = validateScenario(scenarioWith((s) => { s.model = deepObject(10_000); }));
    expect(result.ok || result.issues[0]).toEqual({ path: 'model.layers', message: 'expected an integer from 1 to 1000, got an object' });
    expect(validateScenarios(deepArray(10_000))).toMatchObject({
      ok: false, issues: [{ path: '[0]', message: 'expected a scenario object, got an array of 1 item' }],
    });
  });

  it('a 100 KB string is reported in a short message', () => {
    const result = validateScenario(scenarioWith((s) => { s.cluster.gpu = 'a'.repeat(100_000); }));
    expect(result.ok).toBe(false);
    expect(result.ok || result.issues[0]?.message.length).toBeLessThan(200);
  });

  it('an object with 10,000 unknown keys yields 100 issues and a count of the rest', () => {
    const input: Record<string, unknown> = { ...minimalScenario };
    for (let i = 0; i < 10_000; i++) input[`junk${i}`] = i;
    const result = validateScenario(input);
    expect(result.ok || result.issues).toHaveLength(101);
    expect(result.ok || result.issues.at(-1)).toEqual({ path: '', message: '9900 more issues not shown' });
  });

  it.each([
    ['a getter that throws', { ...minimalScenario, get training(): unknown { throw new Error('boom'); } }],
    ['a proxy whose keys throw', new Proxy({}, { ownKeys: () => { throw new Error('boom'); } })],
    ['a revoked proxy', (() => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; })()],
  ])('%s is an issue, never a throw', (_, input) => {
    expect(validateScenario(input)).toMatchObject({
      ok: false, issues: expect.arrayContaining([{ path: '', message: expect.stringContaining('could not be read') }]),
    });
    expect(validateScenarios(input).ok).toBe(false);
    expect(validateScenarios([input])).toMatchObject({ ok: false, array: true });
  });

  it('a cyclic object cannot loop: unknown keys are never entered', () => {
    const cyclic: Record<string, unknown> = { ...minimalScenario };
    cyclic.self = cyclic;
    expect(validateScenario(cyclic)).toEqual({ ok: false, issues: [{ path: 'self', message: expect.stringContaining('unknown field') }] });
  });
});
