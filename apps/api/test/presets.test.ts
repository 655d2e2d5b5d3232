import {
  GPU_IDS, GPU_SOURCES, MODEL_IDS, MODEL_SOURCES, NETWORK_IDS, NETWORK_SOURCES, SYSTEM_IDS, SYSTEM_SOURCES,
} from '@trainplan/presets';
import { validate } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { createApi } from '../src/index.ts';
import { gpuPresetSchema, modelPresetSchema, networkPresetSchema, presetIndexSchema, systemPresetSchema } from '../src/presets/preset-schemas.ts';

const app = createApi();
const get = async (path: string) => {
  const res = await app.request(path);
  return { res, body: res.status === 200 ? await res.json() : undefined };
};

describe('GET /v1/presets', () => {
  it.each([
    ['gpus', GPU_IDS, gpuPresetSchema],
    ['systems', SYSTEM_IDS, systemPresetSchema],
    ['networks', NETWORK_IDS, networkPresetSchema],
    ['models', MODEL_IDS, modelPresetSchema],
  ] as const)('/v1/presets/%s lists every preset, each valid against its published schema', async (kind, ids, schema) => {
    const { res, body } = await get(`/v1/presets/${kind}`);
    expect(res.status).toBe(200);
    const list = body as { id: string }[];
    expect(list.map((p) => p.id)).toEqual([...ids]);
    for (const preset of list) expect(validate(schema as never, preset)).toMatchObject({ ok: true });
  });
  it('/v1/presets lists the ids of every catalogue, valid against its published schema', async () => {
    const { res, body } = await get('/v1/presets');
    expect(res.status).toBe(200);
    expect(validate(presetIndexSchema, body)).toMatchObject({ ok: true });
    expect(body).toEqual({ gpus: [...GPU_IDS], systems: [...SYSTEM_IDS], networks: [...NETWORK_IDS], models: [...MODEL_IDS] });
  });
  it.each([
    ['gpus', GPU_SOURCES],
    ['systems', SYSTEM_SOURCES],
    ['networks', NETWORK_SOURCES],
    ['models', MODEL_SOURCES],
  ] as const)('/v1/presets/%s: every preset cites its source, the one its catalogue records for its id', async (kind, sources) => {
    const list = (await get(`/v1/presets/${kind}`)).body as { id: string; source: { title: string } }[];
    const byId: Readonly<Record<string, unknown>> = sources;
    expect(Object.keys(sources).sort()).toEqual(list.map((p) => p.id).sort());
    for (const preset of list) {
      expect(preset.source.title.trim(), preset.id).not.toBe('');
      expect(preset.source, preset.id).toEqual(byId[preset.id]);
    }
  });
  it('serves the contract ids the scenario contract requires', async () => {
    const models = ((await get('/v1/presets/models')).body as { id: string }[]).map((m) => m.id);
    for (const id of ['gpt3-175b', 'llama3.1-405b', 'nemotron4-340b', 'bloom-176b', 'mt-nlg-530b']) expect(models).toContain(id);
  });
  it('one model by id: GPT-3 175B is 96 layers of 12288 with 96 heads (Brown et al. 2020, Table 2.1)', async () => {
    const { res, body } = await get('/v1/presets/models/gpt3-175b');
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ id: 'gpt3-175b', layers: 96, hiddenSize: 12288, attentionHeads: 96 });
    expect((body as { source: { title: string } }).source.title.length).toBeGreaterThan(0);
  });
  it('a model states whether it trained with dropout, the default of a scenario\'s training.dropout: GPT-3 yes, Llama 3 no', async () => {
    expect((await get('/v1/presets/models/gpt3-175b')).body).toMatchObject({ trainedWithDropout: true });
    expect((await get('/v1/presets/models/llama3-70b')).body).toMatchObject({ trainedWithDropout: false });
  });
  it('a model carries its sourced figures beside the shape (QA: the JSON lacked them though the help says it carries every figure)', async () => {
    // Llama 3.1 405B (Dubey et al. 2024): RoPE θ 500,000, scaling factor 8, a 128K context.
    expect((await get('/v1/presets/models/llama3.1-405b')).body).toMatchObject({ rotaryBase: 500_000, ropeScalingFactor: 8, contextWindowTokens: 131_072 });
    // Llama 2 70B (Touvron et al. 2023, §2.2): 4M tokens a step, 1,024 sequences of 4,096.
    expect((await get('/v1/presets/models/llama2-70b')).body).toMatchObject({ publishedGlobalBatchSize: 1024 });
    // Nemotron-4 340B (NVIDIA 2024): squared ReLU, LayerNorm-1p, RoPE on half of each head.
    expect((await get('/v1/presets/models/nemotron4-340b')).body).toMatchObject({ mlpActivation: 'squared-relu', layerNorm1p: true, rotaryPercent: 0.5 });
    // GPT-3 175B has none of the RoPE figures: learned positions.
    expect((await get('/v1/presets/models/gpt3-175b')).body).not.toHaveProperty('rotaryBase');
  });
  it('the A100 40GB holds 40,536 MiB, as nvidia-smi reports it, not the round 40 GiB', async () => {
    expect((await get('/v1/presets/gpus/a100-40gb')).body).toMatchObject({ hbmBytes: 40536 * 2 ** 20 });
  });
  it('the A100 80GB: 312 TFLOP/s dense BF16 and 12 NVLink 3 links of 25 GB/s each way (datasheet)', async () => {
    const { body } = await get('/v1/presets/gpus/a100-80gb');
    const gpu = body as { peakFlopsPerSecond: { bf16: number }; nvlinkBandwidthBytesPerSecond: number };
    expect(gpu.peakFlopsPerSecond.bf16).toBe(312e12);
    expect(gpu.nvlinkBandwidthBytesPerSecond).toBe(12 * 25e9);
  });
  it.each([
    ['/v1/presets/gpus/h100', 'did you mean h100-sxm or h100-pcie?'],
    ['/v1/presets/models/gpt3-175', 'did you mean gpt3-175b?'],
    ['/v1/presets/models/llama3-7b', 'did you mean llama2-7b, llama3-8b or llama3-70b?'],
    ['/v1/presets/model', 'did you mean models?'],
  ])('%s is a 404 that says what was meant, as a scenario naming the id does (%s)', async (path, meant) => {
    const res = await app.request(path);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail).toContain(meant);
  });
  it.each(['/v1/presets/models/nope', '/v1/presets/cpus', '/v1/presets/gpus/h900'])('%s is a 404 problem', async (path) => {
    const res = await app.request(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});

describe('the catalogue states its figures as their sources do', () => {
  /** Every number in a JSON value, with its path. */
  const numbers = (value: unknown, at = ''): [string, number][] =>
    typeof value === 'number' ? [[at, value]]
      : value !== null && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, v]) => numbers(v, `${at}.${key}`))
        : [];
  it.each(['gpus', 'systems', 'networks', 'models'])('/v1/presets/%s: no binary-float residue (66.9 TFLOP/s is 66900000000000, not 66900000000000.01)', async (kind) => {
    // A datasheet figure has a handful of significant digits; one that needs 16 or 17 to print is
    // the float product of a unit constructor (66.9 × 10^12, 0.87 µs as 8.699999999999999e-7 s).
    const { body } = await get(`/v1/presets/${kind}`);
    const residue = numbers(body).filter(([, x]) => !Number.isInteger(x) && Number(x.toPrecision(15)) !== x);
    expect(residue).toEqual([]);
  });
  it('an H100\'s FP32 peak and each fabric\'s latency read as their sources give them', async () => {
    const { body: h100 } = await get('/v1/presets/gpus/h100-sxm');
    expect(JSON.stringify((h100 as { peakFlopsPerSecond: { fp32: number } }).peakFlopsPerSecond.fp32)).toBe('66900000000000');
    const { body: networks } = await get('/v1/presets/networks');
    for (const n of networks as { latencySeconds: number }[]) expect(JSON.stringify(n.latencySeconds)).toMatch(/^\d(\.\d{1,3})?e-\d$|^0\.\d{1,9}$/);
  });
});

describe('each preset\'s summary, the line `trainplan presets` lists (an extension: QA, the CLI\'s JSON had it and this had not)', () => {
  it.each(['gpus', 'systems', 'networks', 'models'])('/v1/presets/%s: every preset carries one, after its source, documented in /openapi.json', async (kind) => {
    const list = (await get(`/v1/presets/${kind}`)).body as Record<string, unknown>[];
    for (const p of list) {
      expect(typeof p.summary === 'string' && p.summary.length > 0, String(p.id)).toBe(true);
      expect(Object.keys(p).slice(-2), String(p.id)).toEqual(['source', 'summary']);
    }
    const doc = (await get('/openapi.json')).body as { paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: { items: { properties: Record<string, { description?: string }> } } }> }> } }> };
    const item = doc.paths[`/v1/presets/${kind}`]!.get.responses['200']!.content['application/json']!.schema.items;
    expect(item.properties.summary?.description).toContain('trainplan presets');
  });
  it('made from the figures beside it: H100 SXM and a fabric and a model, by their sources', async () => {
    // H100 whitepaper Table 1, SXM5 dense: BF16 989.4, FP8 1978.9, TF32 494.7 TFLOPS; 81,559 MiB = 79.6 GiB; 3.35 TB/s;
    // NVLink 4: 18 links × 25 GB/s a direction = 450 GB/s; 700 W.
    expect(((await get('/v1/presets/gpus/h100-sxm')).body as { summary: string }).summary)
      .toBe('peak dense TFLOP/s: 989 BF16, 1,979 FP8, 495 TF32 · 79.6 GiB HBM at 3,350 GB/s · NVLink 450 GB/s per direction (18 links) · 700 W');
    // 8 × 200 Gb/s = 25 GB/s a NIC a direction; 0.6 µs + 3 × 130 ns = 0.99 µs; SHARP.
    expect(((await get('/v1/presets/networks/hdr-ib-8x')).body as { summary: string }).summary)
      .toBe('infiniband: 8 NICs a node × 25 GB/s a direction · 0.99 µs latency · in-network reduction (SHARP)');
    // Touvron et al. 2023 Table 1 / Llama 2 70B: 80 layers, hidden 8,192, 64 heads with 8 KV heads (GQA), 4,096-token context.
    expect(((await get('/v1/presets/models/llama2-70b')).body as { summary: string }).summary)
      .toBe('70B parameters · 80 layers, hidden 8,192, 64 heads (8 KV) · 4,096-token sequences');
  });
});
