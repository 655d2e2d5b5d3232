import { expect } from 'vitest';
import { createApi, type NodesAnswer } from '../../src/index.ts';

/** One API app for a test file's POST /v1/nodes calls. */
const app = createApi();

/** POST /v1/nodes with `body` as JSON. */
export const postNodes = (body: unknown): Promise<Response> =>
  Promise.resolve(app.request('/v1/nodes', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }));

/** POST /v1/nodes, expecting a 200, and its answer. */
export const nodesAnswerOf = async (body: unknown): Promise<NodesAnswer> => {
  const res = await postNodes(body);
  expect(res.status).toBe(200);
  return await res.json() as NodesAnswer;
};
