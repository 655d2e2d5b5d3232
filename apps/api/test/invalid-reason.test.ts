import { describe, expect, it } from 'vitest';
import { createApi, POST_OPERATIONS } from '../src/index.ts';

// QA: the spec did not say when reason "invalid" is a 200 answer and when a 400 problem. Each POST operation's
// description now says it, and each operation is held to it: its example with an unknown GPU id (the README's
// "a100-81gb") is a 200, ok false, "invalid", naming the field; its example with an unknown field is a 400 problem.

const app = createApi();
const post = (path: string, body: unknown) =>
  app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

/** The example with its GPU id (cluster.gpu, or a collective's top-level gpu) replaced by one no catalogue has. */
function withUnknownGpu(example: unknown): { body: unknown; field: string } {
  const ex = example as Record<string, unknown> & { cluster?: Record<string, unknown> };
  return ex.cluster !== undefined
    ? { body: { ...ex, cluster: { ...ex.cluster, gpu: 'a100-81gb' } }, field: 'cluster.gpu' }
    : { body: { ...ex, gpu: 'a100-81gb' }, field: 'gpu' };
}

describe('reason "invalid": a 200 for an unknown preset id, a 400 for a body that breaks the schema', () => {
  it.each(POST_OPERATIONS.map((op) => [op.path, op] as const))('%s answers both ways, as its description says', async (path, op) => {
    const unknown = withUnknownGpu(op.example);
    const answered = await post(path, unknown.body);
    expect(answered.status).toBe(200);
    const answer = await answered.json() as { ok: boolean; reason: string; issues: { path: string }[] };
    expect(answer).toMatchObject({ ok: false, reason: 'invalid' });
    expect(answer.issues.map((i) => i.path)).toEqual([unknown.field]);

    const refused = await post(path, { ...(op.example as object), notAField: 1 });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(await refused.json()).toMatchObject({ ok: false, reason: 'invalid', issues: [{ path: 'notAField' }] });

    const doc = await (await app.request('/openapi.json')).json() as { paths: Record<string, { post: { description: string } }> };
    expect(doc.paths[path]!.post.description).toMatch(/naming an id no preset catalogue has .* is a 200 answer, ok: false with reason "invalid".* is a 400 problem/);
  });
});
