import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApi, type RunInBackground } from '../src/index.ts';

// QA: /openapi.json's /v1/nodes request schema took bodies the server refused with a 400: one with no goal, one with
// nodes and days. Each body below is sent to the server and held to the published schema by Ajv (an independent JSON
// Schema 2020-12 validator), and both must agree with what the body should get, written out from the server's rules
// (protocol search/nodes.ts, the request's refine): exactly one question, the time–cost curve (frontier true), the
// days on given nodes, or a deadline and/or a budget (days, gpuHours, budget), and a budget in money only with its price.

// What is under test is which bodies pass validation, so the search they would start is stubbed: the API hands a slow
// operation's validated request to runInBackground, which answers at once here.
const runInBackground: RunInBackground = async () => ({ answer: { ok: true } });
const app = createApi({ runInBackground });

/** A valid request but for its goal: the batch given, so the body is validated as sent (nodes-default-batch.ts). */
const BASE = { model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, training: { globalBatchSize: 512 }, tokens: 100e9 };

const ACCEPTED: readonly (readonly [name: string, goal: object])[] = [
  ['a deadline', { days: 7 }],
  ['a budget in GPU-hours', { gpuHours: 1e5 }],
  ['a budget in money, with its price', { budget: 1e6, pricePerGpuHour: 2.5 }],
  ['a deadline within a budget', { days: 7, gpuHours: 1e5 }],
  ['a deadline within a money budget', { days: 7, budget: 1e6, pricePerGpuHour: 2.5 }],
  ['the days on given nodes', { nodes: 16 }],
  ['the days on given nodes, costed', { nodes: 16, pricePerGpuHour: 2.5 }],
  ['the time–cost curve', { frontier: true }],
  ['the time–cost curve, costed', { frontier: true, pricePerGpuHour: 2.5 }],
  ['frontier false beside a deadline (no curve asked)', { frontier: false, days: 7 }],
];

/** Each with the field the server's 400 names. */
const REJECTED: readonly (readonly [name: string, field: string, goal: object])[] = [
  ['no goal at all (QA)', 'days', {}],
  ['nodes and a deadline (QA)', 'nodes', { nodes: 16, days: 7 }],
  ['nodes and a budget', 'nodes', { nodes: 16, gpuHours: 1e5 }],
  ['the curve and a deadline', 'frontier', { frontier: true, days: 7 }],
  ['the curve and nodes', 'frontier', { frontier: true, nodes: 16 }],
  ['the curve and a money budget', 'frontier', { frontier: true, budget: 1e6, pricePerGpuHour: 2.5 }],
  ['frontier false and nothing else', 'days', { frontier: false }],
  ['a budget in money without its price', 'pricePerGpuHour', { budget: 1e6 }],
  ['a deadline and a money budget without its price', 'pricePerGpuHour', { days: 7, budget: 1e6 }],
];

const post = (body: object) =>
  app.request('/v1/nodes', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

type Media = { schema: object };
const published: Record<string, ValidateFunction> = {};

beforeAll(async () => {
  const doc = await (await app.request('/openapi.json')).json() as { paths: Record<string, { post: { requestBody: { content: Record<string, Media> } } }> };
  // Strict, as response-schemas.test.ts reads the document: an unknown keyword is an error.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false });
  for (const [type, media] of Object.entries(doc.paths['/v1/nodes']!.post.requestBody.content)) published[type] = ajv.compile(media.schema);
});

describe('POST /v1/nodes: the published request schema takes exactly the goals the server takes', () => {
  it('is published for JSON and MessagePack alike', () => {
    expect(Object.keys(published).sort()).toEqual(['application/json', 'application/msgpack']);
  });

  it.each(ACCEPTED)('%s: the server answers and the schema accepts', async (_, goal) => {
    const body = { ...BASE, ...goal };
    expect((await post(body)).status).toBe(200);
    for (const validate of Object.values(published)) expect(validate(body), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it.each(REJECTED)('%s: the server answers 400 naming %s, and the schema refuses it', async (_, field, goal) => {
    const body = { ...BASE, ...goal };
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([field]);
    for (const validate of Object.values(published)) expect(validate(body)).toBe(false);
  });
});
