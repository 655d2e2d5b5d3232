import { describe, expect, it } from 'vitest';
import { nodesAnswerOf, postNodes } from './support/nodes-post.ts';

// POST /v1/nodes's extensions (nodes-extensions.ts): the uptime every planned answer assumes, and a warning where the
// batch given is implausible as sequences. Days on one size only: one search each.


/** Llama 2 7B on 32 nodes of A100 (256 GPUs), 2T tokens: its published batch is 1,024 sequences of 4,096 (4M tokens). */
const LLAMA2 = { model: 'llama2-7b', cluster: { gpu: 'a100-80gb' }, tokens: 2e12, nodes: 32 };

describe('POST /v1/nodes: uptime', () => {
  it('omitted, the answer says 1 (no restarts or failures); given, it says that, with the days over it and GPU-hours 256 GPUs × those days × 24', async () => {
    const full = await nodesAnswerOf({ ...LLAMA2, training: { globalBatchSize: 1024 } });
    const wall = await nodesAnswerOf({ ...LLAMA2, training: { globalBatchSize: 1024 }, uptime: 0.9 });
    if (!full.ok || !wall.ok) throw new Error('Llama 2 7B runs on 32 nodes');
    expect([full.uptime, wall.uptime]).toEqual([1, 0.9]);
    expect(wall.days).toBeCloseTo(full.days / 0.9, 9);
    expect(wall.gpuHours).toBeCloseTo(256 * 24 * wall.days, 6);
  });

  it.each([
    [90, 'expected a number ≤ 1, got 90'],
    [0, 'expected a number > 0, got 0'],
  ])('uptime %j is refused (400), the schema\'s words and what uptime is', async (uptime, said) => {
    const res = await postNodes({ ...LLAMA2, training: { globalBatchSize: 1024 }, uptime });
    expect(res.status).toBe(400);
    const problem = await res.json() as { issues: { path: string; message: string }[] };
    expect(problem.issues).toEqual([{
      path: 'uptime',
      message: `${said} (uptime is the share of wall-clock time spent training, above 0 and at most 1: 0.9 for 90%, Meta's figure for Llama 3)`,
    }]);
  });
});

describe('POST /v1/nodes: a global batch implausible as sequences', () => {
  it('globalBatchSize 4,000,000 (4M tokens meant): 16.4B tokens a step, 123 steps, and the 977 sequences 4M tokens make', async () => {
    const a = await nodesAnswerOf({ ...LLAMA2, training: { globalBatchSize: 4e6 } });
    // 4e6 × 4,096 = 16,384,000,000 tokens a step; 2e12 / 1.6384e10 = 122.07, 123 whole steps; 4e6 / 4,096 = 976.6, 977.
    expect(a.warnings).toEqual(['a global batch of 4,000,000 sequences is 16.4B tokens a step, 123 optimizer steps for 2T tokens, '
      + 'where published runs step 3.2M to 16M tokens (GPT-3 175B to Llama 3 405B); '
      + 'training.globalBatchSize counts sequences: 4M tokens is 977 sequences of 4,096']);
  });

  it('the published 1,024 sequences given, or the batch omitted (a default): no warnings', async () => {
    const [given, omitted] = await Promise.all([nodesAnswerOf({ ...LLAMA2, training: { globalBatchSize: 1024 } }), nodesAnswerOf(LLAMA2)]);
    expect(given).not.toHaveProperty('warnings');
    expect(omitted).not.toHaveProperty('warnings');
    expect(omitted.assumedGlobalBatch?.sequences).toBe(1024);
  });
});
