import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchema } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { createApi } from '../src/index.ts';
import { hoistTrainingTokens } from '../src/operations/nodes-training-tokens.ts';
import { nodesAnswerOf, postNodes } from './support/nodes-post.ts';

// An estimate's scenario carries its token budget as training.tokens; a nodes request takes it at the top level. A
// scenario copied from an estimate into /v1/nodes was refused twice over: "training.tokens: unknown field" and "tokens:
// missing required field". The searches are narrowed (Llama 3 8B, TP ≤ 8, PP ≤ 4, micro-batch 1, full recompute).
const CONSTRAINTS = { maxTensor: 8, maxPipeline: 4, maxContext: 1, maxVirtualStages: 1, microBatchSizes: [1], recompute: ['full'] };
const BASE = { model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, constraints: CONSTRAINTS, nodes: 3 };
const TOKENS = 100e9;

type Issues = { issues: { path: string; message: string }[] };

describe("POST /v1/nodes reads an estimate's training.tokens as the token budget", () => {
  it('training.tokens alone: the same answer as tokens at the top level', async () => {
    const top = await nodesAnswerOf({ ...BASE, training: { globalBatchSize: 480 }, tokens: TOKENS });
    const inside = await nodesAnswerOf({ ...BASE, training: { globalBatchSize: 480, tokens: TOKENS } });
    expect(top.ok).toBe(true);
    expect(inside).toEqual(top);
  });

  it('both, the same: answered as one budget', async () => {
    const top = await nodesAnswerOf({ ...BASE, training: { globalBatchSize: 480 }, tokens: TOKENS });
    expect(await nodesAnswerOf({ ...BASE, training: { globalBatchSize: 480, tokens: TOKENS }, tokens: TOKENS })).toEqual(top);
  });

  it('both, different: a 400 naming training.tokens and the top-level budget, nothing picked silently', async () => {
    const res = await postNodes({ ...BASE, training: { globalBatchSize: 480, tokens: 2 * TOKENS }, tokens: TOKENS });
    expect(res.status).toBe(400);
    const { issues } = await res.json() as Issues;
    expect(issues.map((i) => i.path)).toEqual(['training.tokens']);
    expect(issues[0]!.message).toContain('one token budget');
    expect(issues[0]!.message).toContain(String(TOKENS));
  });

  it('neither: still a 400 naming tokens', async () => {
    const res = await postNodes({ ...BASE, training: { globalBatchSize: 480 } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Issues).issues.map((i) => i.path)).toEqual(['tokens']);
  });

  it('a body that is no object, or whose training is none, passes through untouched for the schema to name', () => {
    for (const body of [null, 5, [], { training: 5 }, { training: { globalBatchSize: 8 } }]) expect(hoistTrainingTokens(body)).toBe(body);
  });

  it('/openapi.json takes the budget at either place and refuses a body with neither', async () => {
    const doc = await (await createApi().request('/openapi.json')).json() as {
      paths: Record<string, { post: { requestBody: { content: Record<string, { schema: JsonSchema }> } } }>;
    };
    const valid = new Ajv2020({ strict: false }).compile(doc.paths['/v1/nodes']!.post.requestBody.content['application/json']!.schema);
    const body = { model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, days: 30 };
    expect(valid({ ...body, training: { globalBatchSize: 512 }, tokens: TOKENS })).toBe(true);
    expect(valid({ ...body, training: { globalBatchSize: 512, tokens: TOKENS } })).toBe(true);
    expect(valid({ ...body, training: { globalBatchSize: 512 } })).toBe(false);
    expect(valid(body)).toBe(false);
  });
});
