import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { runInference, runSearch } from '@trainplan/protocol';
import { buildWidgetBundle, withoutJsonSchema } from '../src/build.ts';
import {
  DEFAULT_BATCHES, inferenceRequestWithoutShapes, NEVER_MADE, ONE_STAGE_SPECULATING, requestsNeverMade, SEARCH_ON_GIVEN_NODES,
  SOME_SHAPE_TRIED, UNASKED_INFERENCE_FIELDS, withoutConstraintFields,
} from '../src/requests-never-made.ts';

const source = (path: string) => readFile(fileURLToPath(new URL(`../../../packages/${path}`, import.meta.url)), 'utf8');

/** The protocol's runInference and runSearch bundled with requestsNeverMade alone, the rest of the sources as they are. */
async function trimmed(): Promise<{ runInference: typeof runInference; runSearch: typeof runSearch }> {
  const out = await build({
    stdin: { contents: "export { runInference, runSearch } from '@trainplan/protocol';", resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts' },
    bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent', plugins: [requestsNeverMade(withoutJsonSchema)],
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0]!.text).toString('base64')}`);
}

describe('what only requests the widget never makes reach (requests-never-made.ts)', () => {
  it('finds each part it leaves out in the sources as they are (else the build fails)', async () => {
    const paths = [
      'protocol/src/search/run-search.ts', 'protocol/src/search/inference-request.ts', 'protocol/src/search/inference-messages.ts',
      'protocol/src/search/request-parts.ts', 'search/src/inference/frontier.ts', 'search/src/inference/inference-plan.ts',
    ];
    expect(NEVER_MADE.map(([pattern]) => paths.filter((p) => pattern.test(`/packages/${p}`)).length)).toEqual([1, 1, 1, 1, 1, 1]);
    for (const [pattern, trim] of NEVER_MADE) {
      const path = paths.find((p) => pattern.test(`/packages/${p}`))!;
      const text = path.startsWith('protocol/') ? withoutJsonSchema(await source(path)) : await source(path);
      expect(trim(text), path).not.toBe(text);
    }
  });

  it('refuses to build when a part it leaves out is no longer there', () => {
    for (const [pattern, trim] of NEVER_MADE) expect(() => trim('export const x = 1;'), String(pattern)).toThrow(/^no "/);
    expect(SEARCH_ON_GIVEN_NODES.length + DEFAULT_BATCHES.length + ONE_STAGE_SPECULATING.length + SOME_SHAPE_TRIED.length).toBe(8);
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
    for (const request of [search('gpt3-1.3b', 1, 512), search('gpt3-175b', 1, 1536)]) {
      expect(bundled.runSearch(request), JSON.stringify(request)).toEqual(runSearch(request));
    }
  });

  it("leaves those parts' words out of the widget's bundle", async () => {
    const { code } = await buildWidgetBundle();
    for (const text of ['this service caps a search at', 'the smallest asked', 'speculative decoding is modelled on one pipeline stage', 'shape tried divides the']) {
      expect(code).not.toContain(text);
    }
  });
});
