import { runInference } from '@trainplan/protocol';
import { formatGrouped, formatSeconds, GiB, MiB } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { figure, llama3_70bOnA100, served, type Served } from './support/serving.ts';


const LLAMA3_70B_ON_4_A100 = llama3_70bOnA100(4);

describe('"how many concurrent requests fit" leads with the most that fit in memory, then what the latency bound allows', () => {
  const question = 'how many concurrent requests fit when serving llama3-70b on 4 a100-80gb';

  it('the headline quotes the planner\'s largest batch that fits first, and the plan\'s bounded batch after, naming the per-token bound', () => {
    // The planner's own answer to the request the bot says it sent, run here apart from the bot.
    const plan = runInference(LLAMA3_70B_ON_4_A100) as Served;
    const best = plan.best!;
    // QA: the headline led with the plan's 190, the 255 that fit only in the figures' parentheses.
    expect(best.batch).toBeLessThan(best.maxBatch);
    const a = ask(question, { publicUrl: null });
    expect(a.intent).toBe('serving');
    expect(a.headline).toMatch(new RegExp(`^Llama 3 70B on 4 × A100 SXM4 80GB: up to ${formatGrouped(best.maxBatch)} concurrent requests fit in memory on TP ${best.tensor} · PP ${best.pipeline} \\(4 GPUs\\); `
      + `the 200 ms per-token bound \\(assumed\\) allows ${formatGrouped(best.batch)}: `));
    // The bound named is the one a batch one larger misses (its time per token past 200 ms, its first token within 2 s).
    const next = runInference({ ...LLAMA3_70B_ON_4_A100, tensor: [best.tensor], pipeline: [best.pipeline], batches: [best.batch + 1], maxDecodeSecondsPerToken: undefined, maxPrefillSeconds: undefined }) as Served;
    expect(next.best!.decodeStepSeconds).toBeGreaterThan(0.2);
    expect(next.best!.prefillSeconds).toBeLessThanOrEqual(2);
  });

  it('the largest batch is what the memory holds: weights and each request\'s paged KV cache within the 80 GiB, by hand', () => {
    const { a, data } = served(question);
    const x = data.best!;
    // Llama 3 70B's 70.6B parameters × 2 bytes over TP 4: about 32.9 GiB a GPU. A token's KV cache on each GPU at TP 4 is
    // 2 × 80 layers × 2 of the 8 KV heads × 128 dims × 2 bytes = 81,920 B; a paged request holds 2,048 + 513/2 + 15/2 =
    // 2,312 tokens on average (search's pagedTokensPerSequence): 180.6 MiB. So at most (80 − 32.9) GiB / 180.6 MiB ≈ 267
    // requests, fewer with the activations and reserves beside them.
    const perRequest = 81_920 * (2048 + 513 / 2 + 15 / 2);
    expect(perRequest / MiB(1)).toBeCloseTo(180.6, 1);
    expect(x.maxBatch).toBeLessThanOrEqual(Math.floor((GiB(80) - x.weightsBytesPerGpu) / perRequest));
    expect(x.maxBatch).toBeGreaterThan(0.9 * Math.floor((GiB(80) - x.weightsBytesPerGpu) / perRequest));
    expect(a.headline).toContain(`up to ${formatGrouped(x.maxBatch)} concurrent requests fit in memory`);
    // The figures still say the plan's batch beside what fits.
    expect(figure(a, 'Concurrent requests')).toBe(`${formatGrouped(x.batch)} per replica (${formatGrouped(x.maxBatch)} fit in memory)`);
    // The count asked is of requests: no note asking for a load to count GPUs.
    expect(a.notes.join(' ')).not.toMatch(/give a load/);
  });

  it('a bound the question states is named without "assumed"', () => {
    const { a, data } = served('max batch for llama3-70b on 4 a100-80gb at 100 ms per token');
    const x = data.best!;
    expect(x.decodeStepSeconds).toBeLessThanOrEqual(0.1);
    expect(a.headline).toContain(`up to ${formatGrouped(x.maxBatch)} concurrent requests fit in memory on TP ${x.tensor} · PP ${x.pipeline} (4 GPUs); the 100 ms per-token bound allows ${formatGrouped(x.batch)}: `);
  });

  it('on more GPUs than a replica: each replica\'s, and all of them on the GPUs named', () => {
    const { a, data } = served('max concurrent sequences for llama3-70b on 8 a100-80gb');
    const x = data.best!;
    const replicas = 8 / x.gpus;
    expect(replicas).toBeGreaterThan(1);
    expect(a.headline).toContain(`up to ${formatGrouped(x.maxBatch)} concurrent requests fit in memory on each TP ${x.tensor} · PP ${x.pipeline} replica (${x.gpus} GPUs), ${formatGrouped(x.maxBatch * replicas)} on the 8 GPUs`);
  });
});

describe('"max batch" where the bounds allow all that fit', () => {
  it('"largest batch to serve llama3-8b on 1 a100-80gb with a 4k prompt": all of them, with the plan\'s figures', () => {
    const { a, data } = served('largest batch to serve llama3-8b on 1 a100-80gb with a 4k prompt');
    const x = data.best!;
    expect(x.batch).toBe(x.maxBatch);
    expect(a.headline).toBe(`Llama 3 8B on 1 × A100 SXM4 80GB: up to ${formatGrouped(x.maxBatch)} concurrent requests fit in memory on TP 1 · PP 1 (1 GPU), all within the latency bounds: `
      + `${formatGrouped(x.tokensPerSecondPerGpu)} tokens/s per GPU, ${formatSeconds(x.decodeStepSeconds)} per token, first token in ${formatSeconds(x.prefillSeconds)}`);
  });

  it('"max batch for llama3-8b on a100-80gb with 4k context" (QA: a training plan) is the serving plan\'s largest batch, its context read as prompt + output', () => {
    const { a, data } = served('max batch for llama3-8b on a100-80gb with 4k context');
    expect(a.intent).toBe('serving');
    // 4,096 tokens of context less the 512 generated: a 3,584-token prompt.
    expect(data.promptTokens).toBe(3584);
    expect(a.headline).toMatch(new RegExp(`^Llama 3 8B on A100 SXM4 80GB: up to ${formatGrouped(data.best!.maxBatch)} concurrent requests fit in memory on TP ${data.best!.tensor} · PP ${data.best!.pipeline} \\(`));
    expect(a.headline).not.toMatch(/days|15\.0T/);
    // With no GPU count, the smallest replica that serves is said beside the plan's larger one.
    const smallest = data.byShape.flatMap((s) => (s.ok && s.tensor * s.pipeline === 1 ? [s.largestBatch] : []))[0]!;
    expect(a.notes.join(' ')).toContain(`The smallest replica, TP 1 · PP 1 (1 GPU), holds up to ${formatGrouped(smallest.maxBatch)} concurrent requests in memory`);
  });
});

describe('a serving question that asks no capacity keeps the plan in its headline', () => {
  it.each([
    'serve llama3-70b on 4 a100-80gb',
    'how many requests per second can llama3-8b serve on 8 h100',
    'can 64 concurrent requests of llama3-70b be served on 4 a100-80gb',
  ])('"%s"', (question) => {
    expect(ask(question, { publicUrl: null }).headline).not.toMatch(/fit in memory/);
  });
});
