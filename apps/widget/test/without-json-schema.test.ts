import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { protocolWithoutJsonSchema } from '../src/build.ts';

/** What the widget calls of the protocol (compute/backend.ts, form/), bundled as the widget bundles it. */
const ENTRY = "export { validateScenario, resolveScenario, runEstimate, runSearch, runNodes, runInference } from '@trainplan/protocol';";

const transformed = protocolWithoutJsonSchema;

type Protocol = Record<'validateScenario' | 'resolveScenario' | 'runEstimate' | 'runSearch' | 'runNodes' | 'runInference', (input: unknown) => unknown>;

async function protocol(name: string, plugins: Plugin[]): Promise<Protocol> {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: fileURLToPath(new URL('../src/', import.meta.url)), loader: 'ts' },
    bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent', plugins,
  });
  const file = join(await mkdtemp(join(tmpdir(), 'trainplan-protocol-')), `${name}.mjs`);
  await writeFile(file, result.outputFiles[0]?.text ?? '');
  return await import(pathToFileURL(file).href) as Protocol;
}

/** The answer as JSON, or what it threw (resolveScenario takes only a validated scenario). */
function answer(run: (input: unknown) => unknown, input: unknown): string {
  try {
    return JSON.stringify(run(input));
  } catch (error) {
    return `threw ${String(error)}`;
  }
}

const gpt3 = {
  model: 'gpt3-175b',
  cluster: { gpu: 'a100-80gb', gpusPerNode: 8, nodes: 128, network: 'hdr-ib-8x' },
  training: { globalBatchSize: 1536, microBatchSize: 1, precision: 'bf16', tokens: 300e9 },
  parallelism: { tensor: 8, pipeline: 8, recompute: 'full' },
};

/** Inputs that reach every kind of schema: missing, mistyped, out of range, unknown and misspelt fields, refinements. */
const SCENARIOS: unknown[] = [
  gpt3,
  {},
  'gpt3',
  { ...gpt3, modle: 'x' },
  { ...gpt3, cluster: { ...gpt3.cluster, gpu: 7, nodes: 0, gpus: 8 } },
  { ...gpt3, training: { ...gpt3.training, precision: 'fp4', microBatchSize: 1.5 } },
  { ...gpt3, parallelism: { tensor: 8, pipeline: 8, zeroStage: 1, distributedOptimizer: true, schedule: 'interleaved', virtualStages: 1 } },
  { ...gpt3, model: { layers: 'many', hiddenSize: -1 } },
];
const REQUESTS: unknown[] = [
  {},
  { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 0 } },
  { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 2, gpus: 16 }, training: { globalBatchSize: 64 }, tokens: -1, frontier: true, days: 3 },
  { model: 'llama3-70b', gpu: 'h100-sxm', promptTokens: 'long', maxDecodeSecondsPerToken: 0 },
];

describe('the protocol without its JSON Schema (build.ts withoutJsonSchema)', () => {
  let plain: Protocol;
  let stripped: Protocol;
  beforeAll(async () => {
    [plain, stripped] = await Promise.all([protocol('plain', []), protocol('stripped', [transformed])]);
  });

  it.each(SCENARIOS.map((s, i) => [i, s]))('validates, resolves and estimates scenario %i exactly as the untouched protocol does', (_, scenario) => {
    for (const f of ['validateScenario', 'resolveScenario', 'runEstimate'] as const) {
      expect(answer(stripped[f], scenario)).toBe(answer(plain[f], scenario));
    }
  });

  it.each(REQUESTS.map((r, i) => [i, r]))('refuses search, nodes and serving request %i with the same issues', (_, request) => {
    for (const f of ['runSearch', 'runNodes', 'runInference'] as const) {
      expect(answer(stripped[f], request)).toMatch(/^\{"ok":false/);
      expect(answer(stripped[f], request)).toBe(answer(plain[f], request));
    }
  });
});
