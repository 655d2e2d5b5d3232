import { describe, expect, it } from 'vitest';
import { createApi } from '@trainplan/api';
import { main, type CliIo } from '@trainplan/cli';

/**
 * `trainplan nodes --input FILE` and POST /v1/nodes read one body alike, and `trainplan presets --json` and GET
 * /v1/presets/{kind} serve one catalogue (QA: --input refused a body without training.globalBatchSize that the API
 * planned at its default; the CLI's presets carried a summary the API's lacked). This package depends on both apps, so the
 * two surfaces are compared here as a user sees them: the CLI's stdout against the API's response body.
 */

const app = createApi();

async function cli(argv: string[], files: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (s) => { out += s; },
    stderr: (s) => { err += s; },
    readStdin: async () => '',
    readFile: async (path) => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: open '${path}'`), { code: 'ENOENT' });
      return text;
    },
  };
  const code = await main(argv, io);
  return { code, out, err };
}

const post = async (path: string, body: unknown) => {
  const res = await app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
};

/** `trainplan nodes --input body.json --json`. */
const nodesInput = (body: unknown) => cli(['nodes', '--input', 'body.json', '--json'], { 'body.json': JSON.stringify(body) });

// A space narrowed to one layout a size keeps each search short, and under the API's 5,000 estimates a search
// (HTTP_MAX_CANDIDATE_BUDGET), which the CLI does not cap: both then search the same candidates.
const ONE_LAYOUT = {
  tensorSizes: [1], pipelineSizes: [1], contextSizes: [1], virtualStageCounts: [1], pipelineSlots: ['layers'], microBatchSizes: [1],
  recompute: ['full'], sharding: ['distributed-optimizer'], sequenceParallel: [false],
};

describe('trainplan nodes --input and POST /v1/nodes: one body, one answer, the batch omitted', () => {
  // Each case runs its search twice (once a surface), a curve over every size: longer than one search's 60 s allowance on a busy machine.
  it.each([
    ['the QA body: Llama 3 70B on H100, 1T tokens within 30 days', { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, tokens: 1e12, days: 30 }],
    ['Llama 3.2 1B at a 4,096-token training.seqLength, a GPU-hour budget', {
      model: 'llama3.2-1b', cluster: { gpu: 'h100-sxm' }, training: { seqLength: 4096 }, tokens: 20e9, gpuHours: 2000, constraints: ONE_LAYOUT,
    }],
    ['GPT-3 Small (its published 256-sequence batch), the time–cost curve with a price', {
      model: 'gpt3-126m', cluster: { gpu: 'a100-80gb' }, training: {}, tokens: 3e9, frontier: true, pricePerGpuHour: 2, constraints: ONE_LAYOUT,
    }],
    ['Llama 2 7B on 4 nodes (that size\'s own default)', { model: 'llama2-7b', cluster: { gpu: 'h100-sxm' }, tokens: 20e9, nodes: 4, constraints: ONE_LAYOUT }],
  ])('%s', async (_, body) => {
    const api = await post('/v1/nodes', body);
    expect(api.status).toBe(200);
    expect(api.body).toHaveProperty('assumedGlobalBatch');
    const { code, out, err } = await nodesInput(body);
    expect(code, err).toBe(0);
    expect(JSON.parse(out)).toEqual(api.body);
    // stderr says the batch assumed, as the flags' line does, in the answer's own words.
    const note = (api.body.assumedGlobalBatch as { note: string }).note.replace(/^training\.globalBatchSize omitted: /, '');
    expect(err).toContain(`trainplan: assumed (no training.globalBatchSize): ${note}\n`);
  }, 180_000);

  it('a model given by its shape takes no default: both refuse the body, naming training.globalBatchSize', async () => {
    const shape = { layers: 2, hiddenSize: 256, attentionHeads: 4, vocabSize: 1000, seqLength: 128 };
    const body = { model: shape, cluster: { gpu: 'h100-sxm' }, tokens: 1e9, days: 3 };
    const api = await post('/v1/nodes', body);
    expect(api.status).toBe(400);
    expect((api.body.issues as { path: string }[]).map((i) => i.path)).toEqual(['training']);
    const withTraining = await post('/v1/nodes', { ...body, training: {} });
    expect((withTraining.body.issues as { path: string }[]).map((i) => i.path)).toEqual(['training.globalBatchSize']);
    const { code, err } = await nodesInput({ ...body, training: {} });
    expect(code).toBe(2);
    expect(err).toMatch(/^trainplan: training\.globalBatchSize: missing required field/m);
  });
});

describe('trainplan presets --json and GET /v1/presets/{kind}: one catalogue', () => {
  it.each(['models', 'gpus', 'systems', 'networks'])('%s: the same presets, summary and all, key for key', async (kind) => {
    const res = await app.request(`/v1/presets/${kind}`);
    const api = await res.json() as { id: string; summary: string }[];
    const { code, out } = await cli(['presets', kind, '--json']);
    expect(code).toBe(0);
    const printed = JSON.parse(out) as typeof api;
    expect(printed).toEqual(api);
    for (const [i, p] of printed.entries()) expect(Object.keys(p), p.id).toEqual(Object.keys(api[i]!));
    expect(api.every((p) => p.summary.length > 0)).toBe(true);
  });

  it('one preset by id: the same object, its summary the line the list prints after its name', async () => {
    const api = await (await app.request('/v1/presets/networks/ndr-ib-8x')).json() as { name: string; summary: string };
    expect(JSON.parse((await cli(['presets', 'ndr-ib-8x', '--json'])).out)).toEqual(api);
    const line = (await cli(['presets', 'networks'])).out.split('\n').find((l) => l.startsWith('  ndr-ib-8x '));
    expect(line?.replace(/^  ndr-ib-8x +/, '')).toBe(`${api.name} · ${api.summary}`);
  });
});
