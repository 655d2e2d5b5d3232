import { runInference } from '@trainplan/protocol';
import { formatSeconds } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { figure, llama3_70bOnA100, served, type Served } from './support/serving.ts';

/** What the bot sends for the question below, with the defaults it says it assumed. */
const LLAMA3_70B_ON_8_A100 = llama3_70bOnA100(8);

describe('a latency asked with no bound leads with the lowest latency, then the throughput traded for it', () => {
  const question = 'latency of llama3-70b inference on 8 a100';

  it('the headline quotes the fastest point (one request on the widest replica), not the plan the assumed 200 ms bound sets', () => {
    const plan = runInference(LLAMA3_70B_ON_8_A100) as Served;
    // The lowest time per token of every point the planner tried: one request at a time on TP 8 (all 8 GPUs read the
    // weights for each token, so each reads an eighth).
    const fastest = plan.frontier.reduce((a, b) => (b.decodeStepSeconds < a.decodeStepSeconds ? b : a));
    expect([fastest.tensor, fastest.pipeline, fastest.batch]).toEqual([8, 1, 1]);
    // QA: the headline said the plan's 199 ms per token, the 200 ms bound's, the lowest latency only in a note.
    expect(plan.best!.decodeStepSeconds).toBeGreaterThan(5 * fastest.decodeStepSeconds);
    const a = ask(question, { publicUrl: null });
    expect(a.intent).toBe('serving');
    expect(a.headline.startsWith(`Llama 3 70B on 8 × A100 SXM4 80GB: lowest latency ${formatSeconds(fastest.decodeStepSeconds)} per token, first token in ${formatSeconds(fastest.prefillSeconds)}, `
      + 'with TP 8 · PP 1 serving 1 request at a time')).toBe(true);
    // Then the trade: the plan with the most throughput within the bounds, said as assumed.
    const best = plan.best!;
    expect(a.headline).toContain(`; for throughput, TP ${best.tensor} · PP ${best.pipeline}`);
    expect(a.headline).toContain(`at ${best.batch.toLocaleString('en-US')} concurrent requests, ${formatSeconds(best.decodeStepSeconds)} per token`);
    expect(a.headline).toMatch(/the most within the bounds assumed \(≤ 200 ms per token, ≤ 2\.00 s to the first token\)$/);
  });

  it('a lower bound on one request\'s time per token, by hand: TP 8 reads an eighth of the weights from HBM each token', () => {
    const { a, data } = served(question);
    const fastest = data.frontier[0]!;
    // 70.6B parameters × 2 bytes / 8 GPUs = 17.6 GB a GPU, read at the A100 80GB's 2.039 TB/s (NVIDIA's datasheet): ≥ 8.66 ms.
    expect(fastest.decodeStepSeconds).toBeGreaterThan((70.6e9 * 2) / 8 / 2.039e12);
    // The configuration and figures are that point's, labelled, as the headline's lead.
    expect(a.configuration).toBe('lowest latency: TP 8 · PP 1 · batch 1 · BF16 · 2,048 prompt tokens + 512 output tokens');
    expect(figure(a, 'Time per output token').startsWith(formatSeconds(fastest.decodeStepSeconds))).toBe(true);
    // The lowest latency is the headline's: no "Fastest per token" note repeats it.
    expect(a.notes.join(' ')).not.toMatch(/Fastest per token/);
  });

  it('a latency bound stated is a service\'s: its plan leads, as before', () => {
    const { a, data } = served('latency of llama3-70b on 8 a100 under 50 ms per token');
    const best = data.best!;
    expect(best.decodeStepSeconds).toBeLessThanOrEqual(0.05);
    expect(a.headline).not.toMatch(/lowest latency/);
    expect(a.headline).toMatch(new RegExp(`TP ${best.tensor} · PP ${best.pipeline}.* serves [\\d,.]+ tokens/s per GPU at ${best.batch} concurrent requests`));
    expect(a.headline).toContain(`${formatSeconds(best.decodeStepSeconds)} per token`);
  });

  it('a serving question that asks no latency keeps the plan in its headline', () => {
    expect(ask('serve llama3-70b on 8 a100', { publicUrl: null }).headline).not.toMatch(/lowest latency/);
  });
});
