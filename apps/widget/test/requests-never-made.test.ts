import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { runDeadlineNodes, runInference, runSearch, type ScenarioInput } from '@trainplan/protocol';
import { buildWidgetBundle, capacityForWidgetRequests, protocolForWidgetRequests, withoutJsonSchema, withoutNodesModes } from '../src/build.ts';
import {
  DEADLINE_OR_CURVE, DEFAULT_BATCHES, inferenceRequestWithoutShapes, WHOLE_STEPS_ASKED, LOADED_IN_BUILD, NEVER_MADE, nodesForDeadlineOrCurve, ONE_STAGE_SPECULATING,
  requestsNeverMade, SEARCH_ON_GIVEN_NODES, searchSchemaOnGivenNodes, SOME_SHAPE_TRIED, UNASKED_INFERENCE_FIELDS, UNASKED_NODES_FIELDS,
  UNASKED_SEARCH_FIELDS, UNCONSTRAINED_SEARCH, UNCONSTRAINED_SPACE, withoutConstraintFields, withoutFieldsOf,
} from '../src/requests-never-made.ts';
import {
  NO_ALTERNATIVES_TO_EXPLAIN, NO_CHECK_TALLY, NO_CONTRADICTION, NO_LARGER_BATCH, NO_PROGRESS_OR_CUTOFF, ONE_BATCH_A_SIZE, UNREACHED, UNREACHED_SOURCES,
  withoutUnreached,
} from '../src/unreached-by-calls.ts';
import { frontierRequestFor, nodesRequestFor, searchRequestFor } from '../src/compute/search-requests.ts';

const source = (path: string) => readFile(fileURLToPath(new URL(`../../../packages/${path}`, import.meta.url)), 'utf8');

type Calls = { runDeadlineNodes: typeof runDeadlineNodes; runInference: typeof runInference; runSearch: typeof runSearch };

/**
 * The protocol's runDeadlineNodes, runInference and runSearch bundled with protocolForWidgetRequests (nodes.ts and
 * search-schema.ts, with nodesForDeadlineOrCurve and searchSchemaOnGivenNodes) and requestsNeverMade alone, in the widget
 * build's order, and capacity.ts as the widget build loads it (capacityForWidgetRequests: withoutBudgetOrNote, then
 * withoutUnreached), the rest of the sources as they are. Built once.
 */
let bundle: Promise<Calls> | undefined;
const trimmed = (): Promise<Calls> => (bundle ??= (async () => {
  const out = await build({
    stdin: {
      contents: "export { runDeadlineNodes, runInference, runSearch } from '@trainplan/protocol';", resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts',
    },
    bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent', plugins: [protocolForWidgetRequests, requestsNeverMade(withoutJsonSchema), capacityForWidgetRequests],
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0]!.text).toString('base64')}`) as Promise<Calls>;
})());

/** A scenario as the estimator's form makes one (scenarioFromFields), for the widget's own request builders. */
const scenario = (model: string, gpu: string, nodes: number, globalBatchSize: number, training: object = {}, cluster: object = {}): ScenarioInput => ({
  model, cluster: { gpu, nodes, ...cluster }, training: { globalBatchSize, microBatchSize: 1, ...training },
  parallelism: { tensor: 1, pipeline: 1, virtualStages: 1, context: 1, sequenceParallel: false, recompute: 'none', distributedOptimizer: false },
});

describe('what only requests the widget never makes reach (requests-never-made.ts)', () => {
  it('finds each part it leaves out in the sources as they are (else the build fails)', async () => {
    const paths = [
      'protocol/src/search/run-search.ts', 'protocol/src/search/inference-request.ts', 'protocol/src/search/inference-messages.ts',
      'protocol/src/search/request-parts.ts', 'search/src/search-space.ts', 'search/src/search.ts', 'search/src/inference/frontier.ts',
      'search/src/inference/inference-plan.ts',
    ];
    expect(NEVER_MADE.map(([pattern]) => paths.filter((p) => pattern.test(`/packages/${p}`)).length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    for (const [pattern, trim] of NEVER_MADE) {
      const path = paths.find((p) => pattern.test(`/packages/${p}`))!;
      const text = path.startsWith('protocol/') ? withoutJsonSchema(await source(path)) : await source(path);
      expect(trim(text), path).not.toBe(text);
    }
    // nodes.ts and search-schema.ts, which protocolForWidgetRequests loads, after its own trims (build.ts).
    const nodes = withoutNodesModes(withoutJsonSchema(await source('protocol/src/search/nodes.ts')));
    expect(nodesForDeadlineOrCurve(nodes)).not.toMatch(/gpuHourBudget|costBudget|budgetSearch|answer\.smallest|req\.uptime|req\.pricePerGpuHour|\n\s*(?:gpuHours|budget|uptime|pricePerGpuHour):/);
    const schema = withoutJsonSchema(await source('protocol/src/search/search-schema.ts'));
    expect(searchSchemaOnGivenNodes(schema)).not.toMatch(/\n\s*(?:gpus|pricePerGpuHour|candidateBudget):/);
  });

  it('refuses to build when a part it leaves out is no longer there', () => {
    for (const [pattern, trim] of NEVER_MADE) expect(() => trim('export const x = 1;'), String(pattern)).toThrow(/^no "/);
    expect(SEARCH_ON_GIVEN_NODES.length + DEFAULT_BATCHES.length + ONE_STAGE_SPECULATING.length + SOME_SHAPE_TRIED.length).toBe(11);
    expect([UNCONSTRAINED_SPACE.length, UNCONSTRAINED_SEARCH.length, DEADLINE_OR_CURVE.length, WHOLE_STEPS_ASKED.length]).toEqual([10, 2, 9, 1]);
    expect([...UNASKED_NODES_FIELDS]).toEqual(['gpuHours', 'budget', 'pricePerGpuHour', 'uptime']);
    expect(UNASKED_SEARCH_FIELDS.map(([, fields]) => fields)).toEqual([['gpus'], ['pricePerGpuHour', 'candidateBudget']]);
    expect(() => nodesForDeadlineOrCurve('export const x = 1;')).toThrow('no "export const nodesRequestSchema');
    expect(() => searchSchemaOnGivenNodes('export const x = 1;')).toThrow('no "const cluster = object({');
    // A schema's fields: each asked must be there, and only the schema's own are left out (not a `gpus:` elsewhere).
    const head = 'const s = object({';
    const schema = `${head}\n  nodes: optional(n({ min: 1 })),\n  gpus: optional(n({ min: 1, max: m(10) })),\n}, { expected: 'e' });\nconst j = { gpus: 1 };`;
    expect(withoutFieldsOf(schema, 'f.ts', head, ['gpus'])).toBe(`${head}\n  nodes: optional(n({ min: 1 })),\n  \n}, { expected: 'e' });\nconst j = { gpus: 1 };`);
    expect(withoutFieldsOf(`${head} a: 1, b: f(2) })`, 'f.ts', head, ['b'])).toBe(`${head} a: 1, })`);
    expect(() => withoutFieldsOf(schema, 'f.ts', head, ['gpus', 'price'])).toThrow('no "price:" to leave out of f.ts');
    expect(() => withoutFieldsOf(schema, 'f.ts', 'const t = object({', ['gpus'])).toThrow('no "const t = object({ … }" to leave out of f.ts');
    expect([...UNASKED_INFERENCE_FIELDS]).toEqual(['tensor', 'pipeline', 'batches']);
    expect(() => inferenceRequestWithoutShapes('object({\n  tensor: a,\n  pipeline: b,\n})')).toThrow('no "batches:"');
    expect(inferenceRequestWithoutShapes('object({\n  model: m,\n  tensor: a(1),\n  pipeline: b,\n  batches: c([1]),\n  gpus: g,\n})'))
      .not.toMatch(/tensor|pipeline|batches/);
    expect(withoutConstraintFields("x;\nexport const constraintsSchema = withDefault(object({\n  maxTensor: optional(p({ a: 1 })),\n}, { expected: 'e' }), {});"))
      .toBe("x;\nexport const constraintsSchema = withDefault(object({}, { expected: 'e' }), {});");
  });

  it("answers the widget's serving requests as @trainplan/protocol does", async () => {
    const bundled = await trimmed();
    const base = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, batching: 'continuous' };
    const requests = [
      base,
      { ...base, maxDecodeSecondsPerToken: 0.05, maxPrefillSeconds: 1 },
      { ...base, gpus: 24, requestsPerSecond: 5, pricePerGpuHour: 2 },
      // A rate whose first-token bound the prefill nearly fills: the idle fleet, and tensor parallelism across nodes.
      { ...base, model: 'llama3.1-405b', promptTokens: 8192, requestsPerSecond: 50, maxPrefillSeconds: 2 },
      { ...base, prefillChunkTokens: 512, sharedPrefixTokens: 1024, speculative: { draftModel: 'llama3.2-1b', draftTokens: 4, acceptanceRate: 0.7 } },
      { ...base, batching: 'static', gpus: 3 },
      { ...base, model: 'llama3.1-405b', cluster: { gpu: 'v100-32gb' }, gpus: 8 },
      { ...base, maxDecodeSecondsPerToken: 1e-6 },
    ];
    for (const request of requests) expect(bundled.runInference(request), JSON.stringify(request)).toEqual(runInference(request));
  });

  it("answers the widget's search requests as @trainplan/protocol does", async () => {
    const bundled = await trimmed();
    const search = (model: string, nodes: number, globalBatchSize: number) => ({
      model, cluster: { gpu: 'h100-sxm', nodes }, training: { globalBatchSize }, objective: 'throughput', top: 1,
    });
    // As searchRequestFor builds them too: the node size, network, precision, sequence, tokens and FP8 weights the form gives
    // (the space searched, unconstrained, is every dimension's default: UNCONSTRAINED_SPACE).
    const requests = [
      search('gpt3-1.3b', 1, 512), search('gpt3-175b', 1, 1536),
      searchRequestFor(scenario('llama3-70b', 'h100-sxm', 4, 512, { precision: 'fp8', fp8Params: true, seqLength: 4096, tokens: 1e12 })),
      searchRequestFor(scenario('gpt3-13b', 'a100-80gb', 2, 256, { precision: 'bf16' }, { gpusPerNode: 4 })),
      searchRequestFor(scenario('gpt3-6.7b', 'a100-80gb', 1, 128, {}, { network: 'hdr-ib-8x' })),
    ];
    // Less the runner-up plans, which the widget's bundle never explains (no-alternatives.ts): none to map (NO_ALTERNATIVES_TO_EXPLAIN).
    for (const request of requests) {
      const sources = runSearch(request);
      const answer = bundled.runSearch(request);
      if (sources.ok && answer.ok) {
        expect(answer.alternatives).toEqual([]);
        expect({ ...answer, alternatives: sources.alternatives }, JSON.stringify(request)).toEqual(sources);
      } else expect(answer, JSON.stringify(request)).toEqual(sources);
    }
    expect(requests.some((request) => { const a = runSearch(request); return a.ok && a.alternatives.length > 0; })).toBe(true);
  });

  it("answers the widget's \"how many nodes\" and time–cost curve requests as @trainplan/protocol does (runDeadlineNodes)", async () => {
    const bundled = await trimmed();
    const gpt3 = scenario('gpt3-175b', 'a100-80gb', 1, 1536);
    // A deadline met, one no size meets (deadline-unreachable, with its closest size), and the curve. Never fewer tokens
    // than one step (WHOLE_STEPS_ASKED): the estimator refuses that beside the token budget before it asks (the browser test).
    const requests = [
      nodesRequestFor(gpt3, { tokens: 300e9, deadlineDays: 30 }), nodesRequestFor(gpt3, { tokens: 300e9, deadlineDays: 0.5 }),
      frontierRequestFor(scenario('gpt3-13b', 'h100-sxm', 1, 512, { precision: 'fp8' }), 100e9),
    ];
    const answers = requests.map((request) => ({ request, sources: runDeadlineNodes(request), bundle: bundled.runDeadlineNodes(request) }));
    expect(answers.map((a) => (a.sources.ok ? a.sources.mode : a.sources.reason))).toEqual(['fewest-nodes', 'deadline-unreachable', 'cost-time-frontier']);
    // Less the twice-the-batch hint, which no-larger-batch.ts never gives in the bundle (NO_LARGER_BATCH leaves out asking
    // it), and a deadline's note and the tally of the sizes below its answer that only the note and `checked` read, which
    // the widget never shows (withoutBudgetOrNote, NO_CHECK_TALLY). The curve's note is as the sources give it.
    expect(answers.some((a) => 'largerBatch' in a.sources)).toBe(true);
    expect(answers[0]!.sources).toMatchObject({ checked: { noPlan: expect.any(Number), outOfMemory: expect.any(Number) }, note: expect.any(String) });
    for (const { request, sources, bundle: answer } of answers) {
      const { largerBatch: _hint, checked: _checked, note, ...rest } = sources as Extract<typeof sources, { ok: true }>;
      const curve = sources.ok && sources.mode === 'cost-time-frontier';
      expect(answer, JSON.stringify(request)).toEqual({ ...rest, ...(curve && note !== undefined && { note }) });
    }
  });

  it('refuses the request fields the widget never gives as unknown, where the sources answer them', async () => {
    const bundled = await trimmed();
    const gpt3 = scenario('gpt3-1.3b', 'h100-sxm', 1, 512);
    const paths = (a: { ok: boolean; reason?: string; issues?: { path: string }[] }) => (a.ok || a.reason !== 'invalid' ? [] : (a.issues ?? []).map((i) => i.path));
    const nodes = nodesRequestFor(gpt3, { tokens: 10e9, deadlineDays: 30 });
    for (const field of UNASKED_NODES_FIELDS) expect(paths(bundled.runDeadlineNodes({ ...nodes, [field]: 1 })), field).toEqual([field]);
    const search = searchRequestFor(gpt3) as { cluster: object };
    expect(paths(bundled.runSearch({ ...search, candidateBudget: 100 }))).toEqual(['candidateBudget']);
    expect(paths(bundled.runSearch({ ...search, training: { globalBatchSize: 512, tokens: 1e9 }, pricePerGpuHour: 2 }))).toEqual(['pricePerGpuHour']);
    expect(paths(bundled.runSearch({ ...search, cluster: { ...search.cluster, gpus: 8 } }))).toEqual(['cluster.gpus']);
    // A request with neither a deadline nor the curve: refused as a budget was.
    const { days: _days, ...neither } = nodes as { days: number };
    expect(bundled.runDeadlineNodes(neither)).toMatchObject({ ok: false, reason: 'invalid', issues: [{ path: 'days', message: 'not answered here: ask the API' }] });
  });

  it('finds each part UNREACHED leaves out in the sources as they are (else the build fails), and refuses to build without one', async () => {
    expect(UNREACHED).toEqual([NO_PROGRESS_OR_CUTOFF, ONE_BATCH_A_SIZE, NO_CONTRADICTION, NO_LARGER_BATCH, NO_ALTERNATIVES_TO_EXPLAIN, NO_CHECK_TALLY]);
    expect(UNREACHED.map((concern) => concern.reduce((n, [, swaps]) => n + swaps.length, 0))).toEqual([14, 6, 9, 6, 1, 3]);
    expect(LOADED_IN_BUILD.every((file) => UNREACHED_SOURCES.includes(file))).toBe(true);
    for (const file of UNREACHED_SOURCES) {
      const text = file.startsWith('protocol/') ? withoutJsonSchema(await source(file)) : await source(file);
      // nodes.ts comes to it with withoutNodesModes first (nodesForDeadlineOrCurve, build.ts), and NEVER_MADE's sources past their own trims.
      const before = file === 'protocol/src/search/nodes.ts' ? withoutNodesModes(text) : NEVER_MADE.find(([pattern]) => pattern.test(`/packages/${file}`))?.[1](text) ?? text;
      expect(withoutUnreached(`/repo/packages/${file}`, before), file).not.toBe(before);
      expect(() => withoutUnreached(`/repo/packages/${file}`, 'export const x = 1;'), file).toThrow(/^no "/);
    }
    expect(withoutUnreached('/repo/packages/search/src/explain.ts', 'export const x = 1;')).toBe('export const x = 1;');
  });

  it("leaves those parts' words out of the widget's bundle", async () => {
    const { code } = await buildWidgetBundle();
    for (const text of ['this service caps a search at', 'the smallest asked', 'speculative decoding is modelled on one pipeline stage', 'shape tried divides the']) {
      expect(code).not.toContain(text);
    }
    // nodes.ts's budget answers (nodesForDeadlineOrCurve) and the constraints' narrowing of the space (UNCONSTRAINED_SPACE, UNCONSTRAINED_SEARCH).
    for (const text of ['fastest-within-budget', 'viaBudget', 'withinBudget', 'tensorWithinNode', 'maxVirtualStages', 'microBatchSizes', 'pipelineSizes']) {
      expect(code).not.toContain(text);
    }
    // What the widget's calls never reach (UNREACHED): a search's progress and cutoff, a batch per size, contradicting
    // constraints, the twice-the-batch hint's search (results.ts still shows an API's largerBatch, so only its call is checked).
    // The runner-up plans' mapping (NO_ALTERNATIVES_TO_EXPLAIN) and the refusal of fewer tokens than one step (WHOLE_STEPS_ASKED).
    for (const text of [
      'onChunk', 'stepCutoffSeconds', 'globalBatchFor', 'alternativeFor', 'contradiction', 'no configuration runs on any cluster size', 'whenBound',
      'slowdown', 'less than one optimizer step',
    ]) {
      expect(code).not.toContain(text);
    }
  });
});
