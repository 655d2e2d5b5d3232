import { describe, expect, it } from 'vitest';
import { runScale, validateScaleResponse, type ScaleResponseJson } from '../../src/index.ts';

const GPT3 = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 } };

describe('runScale where no size runs a plan', () => {
  it('answers ok: false with a reason, as search and nodes do, and keeps every point with its own reason', () => {
    // TP 8 × PP 8 is 64 GPUs: 24 and 40 GPUs are fewer than one replica, 96 GPUs one and a half.
    const a = runScale({ ...GPT3, nodes: [3, 5, 12], parallelism: { tensor: 8, pipeline: 8 } });
    expect(a).toMatchObject({ ok: false, reason: 'no-feasible-configuration', mode: 'strong' });
    if (a.ok || a.reason !== 'no-feasible-configuration') throw new Error('expected no-feasible-configuration');
    expect(a.points.map((p) => [p.nodes, p.reason])).toEqual([
      [3, '24 GPUs are fewer than one replica of TP × PP × CP = 64 GPUs (whole replicas need a multiple of 8 nodes)'],
      [5, '40 GPUs are fewer than one replica of TP × PP × CP = 64 GPUs (whole replicas need a multiple of 8 nodes)'],
      [12, '96 GPUs are not divisible by TP × PP × CP = 64 (whole replicas need a multiple of 8 nodes)'],
    ]);
    expect(a.message).toBe('no configuration runs on any of the 3 sizes asked: 3 nodes (24 GPUs): 24 GPUs are fewer than one replica of TP × PP × CP = 64 GPUs '
      + '(whole replicas need a multiple of 8 nodes); 5 nodes (40 GPUs): 40 GPUs are fewer than one replica of TP × PP × CP = 64 GPUs (whole replicas need a '
      + 'multiple of 8 nodes); 12 nodes (96 GPUs): 96 GPUs are not divisible by TP × PP × CP = 64 (whole replicas need a multiple of 8 nodes)');
    expect(validateScaleResponse(a)).toEqual({ ok: true, value: a });
  });

  it('one size out of memory: the message names it once; the trade-off table asked for is still there', () => {
    const a = runScale({ ...GPT3, nodes: [1], tradeOff: true });
    if (a.ok || a.reason !== 'no-feasible-configuration') throw new Error(`expected no-feasible-configuration, got ${JSON.stringify(a).slice(0, 200)}`);
    expect(a.message).toMatch(/^no configuration runs on the size asked: 1 node \(8 GPUs\): no configuration fits: out of memory: /);
    expect(a.tradeOff!.length).toBeGreaterThan(0);
    expect(validateScaleResponse(a)).toEqual({ ok: true, value: a });
  });

  it('one size that runs is enough for ok: true (the others keep their reasons)', () => {
    const a = runScale({ ...GPT3, nodes: [3, 16], parallelism: { tensor: 8, pipeline: 8, recompute: 'full' } });
    expect(a.ok).toBe(true);
    expect((a as Extract<ScaleResponseJson, { ok: true }>).points.map((p) => p.reason === undefined)).toEqual([false, true]);
  });

  it('an invalid request is still told from it by its reason, with its issues', () => {
    const a = runScale({ ...GPT3, cluster: { gpu: 'no-such-gpu' }, nodes: [8] });
    expect(a).toMatchObject({ ok: false, reason: 'invalid' });
    expect(validateScaleResponse(a).ok).toBe(true);
    // A failure of one kind with the other's fields is refused: the reason tells them apart.
    expect(validateScaleResponse({ ok: false, reason: 'no-feasible-configuration', message: 'm', issues: [] }).ok).toBe(false);
    expect(validateScaleResponse({ ok: false, reason: 'invalid', message: 'm', mode: 'strong', points: [{ nodes: 1, gpus: 8, globalBatchSize: 8, reason: 'r' }] }).ok).toBe(false);
  });
});

describe('runScale carries the planner\'s warnings on each size\'s plan', () => {
  it('a batch of 64 on 128 nodes at TP 8 · PP 8 leaves 4 micro-batches for 8 stages: that size says the bubble dominates, 8 nodes do not', () => {
    // 128 nodes: DP 16, 64 / 16 = 4 micro-batches of 1 for 8 stages; 8 nodes: DP 1, 64 micro-batches.
    const a = runScale({ ...GPT3, training: { globalBatchSize: 64 }, nodes: [8, 128], parallelism: { tensor: 8, pipeline: 8, recompute: 'full' } });
    if (!a.ok) throw new Error(a.message);
    const [small, large] = a.points;
    expect(small!.warnings).toBeUndefined();
    expect(large!.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^only 4 micro-batches for 8 pipeline stages/)]));
    expect(validateScaleResponse(a)).toEqual({ ok: true, value: a });
  });
});
