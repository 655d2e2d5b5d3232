import { describe, expect, it } from 'vitest';
import { runDeadlineNodes, runNodes } from '../../src/index.ts';

const GPT3 = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9 };

describe('runDeadlineNodes: runNodes without the budget search (what the widget bundles)', () => {
  it.each([
    ['a deadline', { days: 30 }],
    ['a cluster size', { nodes: 64 }],
    ['the time–cost curve', { frontier: true }],
  ])('%s: the same answer as runNodes', (_what, goal) => {
    expect(runDeadlineNodes({ ...GPT3, ...goal })).toEqual(runNodes({ ...GPT3, ...goal }));
  });

  it.each([
    ['gpuHours', { gpuHours: 600e3 }],
    ['gpuHours', { gpuHours: 600e3, days: 30 }],
    ['budget', { budget: 1.2e6, pricePerGpuHour: 2 }],
  ])('a budget is refused naming %s, where runNodes answers it', (path, goal) => {
    const a = runDeadlineNodes({ ...GPT3, ...goal });
    expect(a).toMatchObject({ ok: false, reason: 'invalid' });
    if (a.ok || a.reason !== 'invalid') throw new Error('expected a refusal');
    expect((a.issues ?? []).map((i) => i.path)).toEqual([path]);
    expect(a.issues?.[0]?.message).toMatch(/^a budget is not answered here .*POST \/v1\/nodes/);
    expect(runNodes({ ...GPT3, ...goal }).ok).toBe(true);
  });
});
