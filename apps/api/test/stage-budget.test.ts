import { describe, expect, it } from 'vitest';
import { createApi } from '../src/index.ts';
import { HTTP_MAX_PIPELINE_STAGES } from '../src/operations/stage-budget.ts';

const app = createApi();
const post = (path: string, body: unknown) =>
  app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

/** A custom model `pipeline` stages deep, one layer a stage, on as many B200 GPUs (data parallel 1). */
const deep = (pipeline: number) => ({
  model: { layers: pipeline, hiddenSize: 1024, attentionHeads: 8, vocabSize: 1000, seqLength: 128 },
  cluster: { gpu: 'b200', gpus: pipeline },
  training: { globalBatchSize: pipeline },
  parallelism: { pipeline },
});
/** 32 scenarios of 512 stages: the limit exactly. */
const AT_LIMIT = Array.from({ length: 32 }, () => deep(512));

describe(`/v1/memory answers every pipeline stage: at most ${HTTP_MAX_PIPELINE_STAGES} stages a request`, () => {
  // Security QA: 397 scenarios at pipeline 1,000 in a 61,935-byte body answered 81 MB in 5.9 s, holding /healthz 4.2 s.
  it('answers an array at the limit, every stage of it', async () => {
    expect(32 * 512).toBe(HTTP_MAX_PIPELINE_STAGES);
    const res = await post('/v1/memory', AT_LIMIT);
    expect(res.status).toBe(200);
    const answers = (await res.json()) as { ok: boolean; stages: unknown[] }[];
    expect(answers.map((a) => a.ok)).toEqual(Array(32).fill(true));
    expect(answers.reduce((sum, a) => sum + a.stages.length, 0)).toBe(HTTP_MAX_PIPELINE_STAGES);
  });
  it('refuses one stage past it (422 naming the limit), before answering any', async () => {
    const started = performance.now();
    const res = await post('/v1/memory', [...AT_LIMIT, deep(1)]);
    const refusedMs = performance.now() - started;
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      status: 422, title: 'Over budget', limit: 'pipelineStages', max: HTTP_MAX_PIPELINE_STAGES, requested: HTTP_MAX_PIPELINE_STAGES + 1,
      detail: '16,385 pipeline stages are over the API\'s limit of 16,384 per request (summed over an array\'s scenarios, '
        + 'each stage answered with its own breakdown); split the scenarios over requests',
    });
    // Ratios in one run: the refusal costs a small part of answering the array at the limit.
    const at = performance.now();
    await (await post('/v1/memory', AT_LIMIT)).arrayBuffer();
    expect(refusedMs / (performance.now() - at)).toBeLessThan(0.5);
  });
  it('/v1/estimate, whose answer names a stage by one integer, is not held to it', async () => {
    const res = await post('/v1/estimate', [...AT_LIMIT, deep(1)]);
    expect(res.status).toBe(200);
  });
  it('/openapi.json says so in /v1/memory\'s description', async () => {
    const doc = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, { post: { description: string } }> };
    expect(doc.paths['/v1/memory']!.post.description)
      .toContain(`summed over an array's scenarios) are capped at ${HTTP_MAX_PIPELINE_STAGES.toLocaleString('en-US')}`);
  });
});
