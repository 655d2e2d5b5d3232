import { describe, expect, it } from 'vitest';
import { runDeadlineNodes, runNodes, validateNodesResponse } from '../../src/index.ts';

/**
 * A nodes request's uptime: the share of wall-clock time spent training. Days are the ideal days over it and GPU-hours
 * the GPUs times those wall-clock hours (Meta: "higher than 90% effective training time" for Llama 3 405B, Dubey et al.
 * 2024, §3.3.4).
 */
const GPT3 = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9 };
const DAY_HOURS = 24;

describe('nodes request: uptime', () => {
  // The schema names the bound a value breaks: (0, 1] excludes 0 and anything above 1 (a percentage, 90, included).
  it.each([
    [0, 'expected a number > 0, got 0'],
    [-0.1, 'expected a number > 0, got -0.1'],
    [1.5, 'expected a number ≤ 1, got 1.5'],
    [90, 'expected a number ≤ 1, got 90'],
  ])('uptime %j is refused, naming the field: %s', (uptime, message) => {
    const a = runNodes({ ...GPT3, nodes: 128, uptime });
    expect(a).toMatchObject({ ok: false, reason: 'invalid' });
    if (a.ok || a.reason !== 'invalid') throw new Error('expected a refusal');
    expect(a.issues?.map((i) => [i.path, i.message])).toEqual([['uptime', message]]);
  });

  it('days on 128 nodes at 90%: the days at 100% over 0.9, GPU-hours 1,024 GPUs × those days × 24 hours, the uptime echoed', () => {
    const full = runNodes({ ...GPT3, nodes: 128 });
    const wall = runNodes({ ...GPT3, nodes: 128, uptime: 0.9 });
    if (!full.ok || !wall.ok) throw new Error('GPT-3 175B runs on 128 nodes of A100');
    expect(validateNodesResponse(wall).ok).toBe(true);
    expect(wall.uptime).toBe(0.9);
    expect(wall.days).toBeCloseTo(full.days / 0.9, 9);
    expect(wall.gpuHours).toBeCloseTo(1024 * wall.days * DAY_HOURS, 6);
    // The plan is the one full uptime finds, its estimate the ideal one POST /v1/estimate gives.
    expect(wall.configuration).toEqual(full.configuration);
  });

  it('without uptime the answer is as it was: no uptime field, and the same as uptime 1 but for the echo', () => {
    const full = runNodes({ ...GPT3, nodes: 128 });
    expect(full).not.toHaveProperty('uptime');
    const { uptime, ...rest } = runNodes({ ...GPT3, nodes: 128, uptime: 1 }) as { uptime?: number };
    expect(uptime).toBe(1);
    expect(rest).toEqual(full);
  });

  it('runDeadlineNodes (the widget\'s) plans at the uptime too, without the echo', () => {
    const a = runDeadlineNodes({ ...GPT3, nodes: 128, uptime: 0.9 });
    const b = runNodes({ ...GPT3, nodes: 128, uptime: 0.9 });
    expect(a).not.toHaveProperty('uptime');
    expect({ ...a, uptime: 0.9 }).toEqual(b);
  });

  it('a 30-day deadline at 50% uptime: a size whose ideal days are at most 15, its wall-clock days twice them', () => {
    const a = runNodes({ ...GPT3, days: 30, uptime: 0.5 });
    if (!a.ok) throw new Error(a.message);
    expect(a.uptime).toBe(0.5);
    expect(a.days).toBeLessThanOrEqual(30);
    // On the answer's own size at full uptime: half the days, within 15.
    const ideal = runNodes({ ...GPT3, nodes: a.nodes });
    if (!ideal.ok) throw new Error(ideal.message);
    expect(ideal.days).toBeCloseTo(a.days / 2, 9);
    expect(ideal.days).toBeLessThanOrEqual(15);
  });
});
