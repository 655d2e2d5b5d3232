import { describe, expect, it } from 'vitest';
import { createApi } from '../src/index.ts';
import { HTTP_MAX_EMULATED_GPUS } from '../src/operations/emulation-budget.ts';

const app = createApi();
const post = (path: string, body: unknown) =>
  app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

/** GPT-3 175B, TP 8 × PP 8, on `nodes` DGX A100 nodes (8 GPUs each), its collectives emulated. */
const emulated = (nodes: number, oversubscription = 2) => ({
  model: 'gpt3-175b',
  cluster: { gpu: 'a100-80gb', nodes, oversubscription, communicationModel: 'emulated' },
  training: { globalBatchSize: nodes * 12 },
  parallelism: { tensor: 8, pipeline: 8, recompute: 'full' },
});

describe(`the emulated communication model over HTTP: at most ${HTTP_MAX_EMULATED_GPUS} GPUs a request`, () => {
  // Measured on the 2-core machine: 2,048 nodes (16,384 GPUs) emulated took 0.3–1.3 s by layout,
  // 250,000 nodes 14 s, and an array multiplies it: five 16,384-node scenarios in 1,094 bytes held Node
  // 8.6 s. A request is refused (422) before the emulator runs, as /v1/collective's emulations are.
  it.each(['/v1/estimate', '/v1/memory'])('%s: one scenario of 2,104 nodes (16,832 GPUs) is a 422 naming the limit, at once', async (path) => {
    const started = performance.now();
    const res = await post(path, emulated(2104));
    expect(res.status).toBe(422);
    expect(performance.now() - started).toBeLessThan(200);
    expect(await res.json()).toMatchObject({
      status: 422, title: 'Over budget', limit: 'emulatedGpus', max: HTTP_MAX_EMULATED_GPUS, requested: 16_832,
      detail: `16,832 GPUs under the emulated communication model are over the API's limit of 16,384 per request (summed over an array's scenarios); the CLI has none: trainplan estimate --emulate`,
    });
  });
  it('an array is counted whole: 16 scenarios of 128 nodes (16,384 GPUs) are answered, one GPU more is a 422', async () => {
    // Security QA: an array of 250 emulated 8-node scenarios (16,000 GPUs) took 3.7–4.6 s; the sum, not each scenario, is held.
    const oneGpu = { model: 'gpt3-1.3b', cluster: { gpu: 'a100-80gb', gpus: 1, communicationModel: 'emulated' }, training: { globalBatchSize: 8 } };
    const over = await post('/v1/estimate', [...Array.from({ length: 16 }, () => emulated(128)), oneGpu]);
    expect(over.status).toBe(422);
    expect(await over.json()).toMatchObject({ limit: 'emulatedGpus', max: HTTP_MAX_EMULATED_GPUS, requested: HTTP_MAX_EMULATED_GPUS + 1 });
    const at = await post('/v1/estimate', Array.from({ length: 16 }, () => emulated(128)));
    expect(at.status).toBe(200);
    expect(((await at.json()) as { ok: boolean; communicationModel?: string }[]).map((e) => e.ok)).toEqual(Array(16).fill(true));
  });
  it('closed-form scenarios do not count: 250,000 nodes answer (the closed form costs microseconds)', async () => {
    const { cluster, ...rest } = emulated(250_000);
    const res = await post('/v1/estimate', { ...rest, cluster: { gpu: cluster.gpu, nodes: cluster.nodes } });
    expect(res.status).toBe(200);
  });
  it('a scenario that does not resolve (an unknown GPU) is its own ok: false answer, not counted', async () => {
    const { cluster, ...rest } = emulated(250_000);
    const res = await post('/v1/estimate', { ...rest, cluster: { ...cluster, gpu: 'a100-81gb' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: false, reason: 'invalid' });
  });
  it('/openapi.json says so in both operations\' descriptions', async () => {
    const doc = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, { post: { description: string } }> };
    for (const path of ['/v1/estimate', '/v1/memory']) {
      expect(doc.paths[path]!.post.description).toContain(`communicationModel "emulated" over HTTP is capped at ${HTTP_MAX_EMULATED_GPUS.toLocaleString('en-US')} GPUs per request`);
    }
  });
});
