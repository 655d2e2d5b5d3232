import type { NodesResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { compactCount } from '../src/format.ts';
import { parse } from '../src/parse.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

/** Seconds in an hour and a day. */
const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * The tokens a budget of `gpuHours` trains on the plan answered, worked by hand from the plan's own throughput: tokens a
 * second over its GPUs is the tokens a GPU-second, × 3,600 a GPU-hour, × the GPU-hours. The answer counts whole optimizer
 * steps, so it may fall short of this by up to a step (and a step's share of rounding in the rate): never above it.
 */
function expectTokensOfBudget(a: ReturnType<typeof ask>, gpuHours: number): NodesOk {
  const data = a.data as NodesOk;
  expect(data.ok).toBe(true);
  const e = data.configuration.estimate;
  const stepTokens = e.resolved.globalBatchSize * e.resolved.seqLength;
  const byHand = (gpuHours * e.tokensPerSecond * HOUR) / data.gpus;
  expect(data.tokens).toBeLessThanOrEqual(byHand);
  expect(byHand - data.tokens).toBeLessThan(2 * stepTokens);
  // Whole steps, and the budget never passed.
  expect(data.tokens % stepTokens).toBe(0);
  expect(data.gpuHours).toBeLessThanOrEqual(gpuHours);
  expect(a.headline).toContain(`buy about ${compactCount(data.tokens)} training tokens, on ${data.nodes} node`);
  // The model's published tokens and the default 128 nodes are no part of this answer.
  expect(a.assumptions.join(' ')).not.toMatch(/published budget|no cluster size given/);
  expect(a.notes.join(' ')).not.toMatch(/over the .* budget/);
  return data;
}

describe('"how many tokens can I train … with <budget>": the tokens the budget buys, headline first', () => {
  it('parses as a time question with a budget and no token count (the tokens are what is asked)', () => {
    const q = parse('how many tokens can I train llama3-8b on with 100k H100 GPU-hours');
    expect(q.intent).toBe('time');
    expect(q.stated).toMatchObject({ model: 'llama3-8b', gpu: 'h100-sxm', gpuHours: 100_000 });
    expect(q.stated.tokens).toBeUndefined();
  });

  it('QA: "how many tokens can I train llama3-8b on with 100k H100 GPU-hours" (was: 15T tokens planned, "483% over")', () => {
    const a = ask('how many tokens can I train llama3-8b on with 100k H100 GPU-hours', { publicUrl: null });
    expect(a.headline).toMatch(/^Llama 3 8B on H100 SXM5 80GB: 100k GPU-hours buy about /);
    const data = expectTokensOfBudget(a, 100_000);
    // No cluster named: the size that buys the most within a year of spending the budget (100k GPU-hours / its GPUs / 24).
    expect(100_000 / data.gpus / 24).toBeLessThanOrEqual(365);
    expect(a.notes.some((n) => n.startsWith('The size that trains the most tokens spending the budget within a year'))).toBe(true);
  });

  it('QA: "… with $1M at $2/GPU-hour on H100": $1,000,000 / $2 = 500,000 GPU-hours, and their tokens', () => {
    const a = ask('how many tokens can I train llama3-70b on with $1M at $2/GPU-hour on H100', { publicUrl: null });
    expect(a.headline).toMatch(/^Llama 3 70B on H100 SXM5 80GB: \$1M at \$2\/GPU-hour \(500k GPU-hours\) buy about /);
    expectTokensOfBudget(a, 500_000);
  });

  it('QA: "I have 500k GPU-hours of H100, how many tokens can I train a 70B on": the 70B reading kept', () => {
    const a = ask('I have 500k GPU-hours of H100, how many tokens can I train a 70B on', { publicUrl: null });
    expect(a.headline).toMatch(/^Llama 3 70B on H100 SXM5 80GB: 500k GPU-hours buy about /);
    expect(a.assumptions[0]).toMatch(/^70B taken as Llama 3 70B/);
    expectTokensOfBudget(a, 500_000);
  });

  it('on a cluster named with a deadline: the deadline ends the run first, 64 GPUs × 14 days of the 100k GPU-hours', () => {
    const a = ask('how many tokens can I train llama3-8b on 64 H100 in 2 weeks with 100k GPU-hours', { publicUrl: null });
    // By hand: 64 GPUs × 14 days × 24 hours = 21,504 GPU-hours, under the 100,000: the tokens are 14 days of the plan's throughput.
    const data = expectTokensOfBudget(a, 64 * 14 * 24);
    expect(data.gpus).toBe(64);
    expect(data.days).toBeLessThanOrEqual(14);
    const e = data.configuration.estimate;
    expect(data.tokens).toBeLessThanOrEqual(e.tokensPerSecond * 14 * DAY);
    expect(a.notes).toContain('The deadline (14 days) ends the run first: 8 nodes (64 GPUs) spend 21.5k of the 100k GPU-hours in it.');
  });
});
