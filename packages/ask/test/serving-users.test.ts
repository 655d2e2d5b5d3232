import { runInference, type InferencePointJson } from '@trainplan/protocol';
import { formatGrouped } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { figure, served, type Served } from './support/serving.ts';

const options = { publicUrl: null } as const;

/**
 * The request the bot says it sends with its defaults (2,048 prompt tokens, 512 generated, BF16, continuous batching), for the
 * planner's own figures apart from the bot: `extra` adds the bounds, the shape, the batch or the GPUs.
 */
const request = (model: string, gpu: string, extra: Record<string, unknown> = {}) => ({
  model, cluster: { gpu }, promptTokens: 2048, outputTokens: 512, batching: 'continuous', ...extra,
});

/** One replica of a shape at one batch with no bound, as the planner estimates it; undefined where it does not fit. */
function replicaAt(model: string, gpu: string, x: Pick<InferencePointJson, 'tensor' | 'pipeline'>, batch: number): InferencePointJson | undefined {
  const a = runInference(request(model, gpu, { tensor: [x.tensor], pipeline: [x.pipeline], batches: [batch] }));
  return a.ok ? a.best : undefined;
}

/** Whether a point keeps a bound per token and 2 s to the first (the interactive service the bot assumes). */
const keeps = (x: InferencePointJson | undefined, perTokenSeconds: number): boolean =>
  x !== undefined && x.decodeStepSeconds <= perTokenSeconds && x.prefillSeconds <= 2;

/**
 * The plan's replicas and the fullest replica's batch, from the protocol's answer the bot gives as its data (runInference on
 * the plan's GPUs: its best point carries the replicas), checked by hand: the users over r replicas put ⌈N / r⌉ on the
 * fullest and ⌊N / r⌋ on the others, so r × batch ≥ N > r × (batch − 1), and both batches keep the bound when estimated
 * apart from the bot.
 */
function spreadOf(data: Served, users: number, model: string, gpu: string, perTokenSeconds: number) {
  const x = data.best!;
  const replicas = x.replicas!;
  expect(replicas * x.batch).toBeGreaterThanOrEqual(users);
  expect(replicas * (x.batch - 1)).toBeLessThan(users);
  expect(keeps(replicaAt(model, gpu, x, x.batch), perTokenSeconds)).toBe(true);
  expect(keeps(replicaAt(model, gpu, x, Math.floor(users / replicas)), perTokenSeconds)).toBe(true);
  return { x, replicas, gpus: replicas * x.gpus };
}

describe('"serve llama3-70b to 500 concurrent users on h100 at 50 ms per token": 500 in all, over several replicas', () => {
  const question = 'serve llama3-70b to 500 concurrent users on h100 at 50 ms per token';

  it('the replicas hold all 500 within 50 ms a token, on fewer GPUs than the one replica holding all 500 the bot answered before', () => {
    const { a, data } = served(question);
    expect(a.ok).toBe(true);
    const { x, replicas, gpus } = spreadOf(data, 500, 'llama3-70b', 'h100-sxm', 0.05);
    // QA: answered as one replica's batch, TP 4 · PP 8 (32 GPUs) at 500; that plan, from the planner at batch 500.
    const single = runInference(request('llama3-70b', 'h100-sxm', { batches: [500], maxDecodeSecondsPerToken: 0.05, maxPrefillSeconds: 2 })) as Served;
    expect(gpus).toBeLessThan(single.best!.gpus);
    // One replica fewer of the shape: its fullest holds ⌈500 / (r − 1)⌉, past memory or past the bound.
    const fewer = Math.ceil(500 / (replicas - 1));
    expect(fewer > x.maxBatch || !keeps(replicaAt('llama3-70b', 'h100-sxm', x, fewer), 0.05)).toBe(true);
    const upTo = 500 % replicas === 0 ? '' : 'up to ';
    expect(a.headline).toContain(`: ${gpus} GPUs serve 500 concurrent requests as ${replicas} replicas of TP ${x.tensor} · PP ${x.pipeline} at ${upTo}${x.batch} concurrent requests each: `);
  });

  it('the figures are one replica\'s, the 500 said as the total, never as a replica\'s batch', () => {
    const { a, data } = served(question);
    const x = data.best!;
    expect(figure(a, 'Concurrent requests')).toMatch(new RegExp(`^${x.batch} per replica( at most)? \\(${formatGrouped(x.maxBatch)} fit in memory\\), 500 in all on the ${x.replicas} replicas$`));
    expect(figure(a, 'Replica')).toBe(`TP ${x.tensor} · PP ${x.pipeline}: ${x.gpus} GPUs · ${x.replicas} replicas on the ${x.replicas! * x.gpus} GPUs`);
    expect(a.figures.some((f) => f.value.startsWith('500 per replica'))).toBe(false);
    expect(a.assumptions.join(' ')).toContain('500 concurrent requests in all, spread over the replicas');
    // The one replica holding them all is said beside, on its GPUs.
    expect(a.notes.join(' ')).toMatch(/^One replica holding all 500 takes \d+ GPUs: TP \d+ · PP \d+, /);
  });
});

describe('the other concurrent-users questions', () => {
  it('"how many H100 to serve llama3-70b to 500 concurrent users": all 500 within 200 ms a token, on no more GPUs than one replica holding them', () => {
    const { a, data } = served('how many H100 to serve llama3-70b to 500 concurrent users');
    const { gpus } = spreadOf(data, 500, 'llama3-70b', 'h100-sxm', 0.2);
    const single = runInference(request('llama3-70b', 'h100-sxm', { batches: [500], maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2 })) as Served;
    expect(gpus).toBeLessThanOrEqual(single.best!.gpus);
    expect(a.headline).toContain(`: ${gpus} GPUs serve 500 concurrent requests as `);
    // The count is the plan's: no "give a load" note asking for what the users already say.
    expect(a.notes.join(' ')).not.toMatch(/give a load/);
  });

  it('"serve llama3-8b to 2000 concurrent users on a100-80gb": all 2,000 within 200 ms a token, on no more GPUs than one replica holding them', () => {
    const { a, data } = served('serve llama3-8b to 2000 concurrent users on a100-80gb');
    const { gpus } = spreadOf(data, 2000, 'llama3-8b', 'a100-80gb', 0.2);
    const single = runInference(request('llama3-8b', 'a100-80gb', { batches: [2000], maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2 })) as Served;
    expect(gpus).toBeLessThanOrEqual(single.best!.gpus);
    expect(a.headline).toContain(`: ${gpus} GPUs serve 2,000 concurrent requests as `);
  });

  it('"serve llama3-70b to 64 concurrent users on 8 h100": 64 in all (not 64 a replica, 128 on the 8), within the 8 GPUs, the spare ones said', () => {
    const { a, data } = served('serve llama3-70b to 64 concurrent users on 8 h100');
    const { gpus } = spreadOf(data, 64, 'llama3-70b', 'h100-sxm', 0.2);
    expect(gpus).toBeLessThanOrEqual(8);
    expect(a.assumptions.join(' ')).not.toMatch(/taken per replica|128/);
    const spare = 8 - gpus;
    expect(figure(a, 'GPUs for 64 concurrent requests')).toMatch(new RegExp(`\\(the 8 GPUs named are enough${spare > 0 ? `: ${spare} GPUs? spare` : ''}\\)$`));
    // The least time per token on the GPUs named, where said, is on them too.
    const fastest = /on the 8 GPUs named: (\d+) GPUs as /.exec(a.notes.join(' '));
    if (fastest !== null) expect(Number(fastest[1])).toBeLessThanOrEqual(8);
  });

  it('"serve llama3-70b on 16 h100 with 500 concurrent requests": all 500 within 200 ms a token on at most the 16 GPUs named', () => {
    const { a, data } = served('serve llama3-70b on 16 h100 with 500 concurrent requests');
    const { gpus } = spreadOf(data, 500, 'llama3-70b', 'h100-sxm', 0.2);
    expect(gpus).toBeLessThanOrEqual(16);
    expect(a.headline).toContain(gpus === 16 ? ': 16 GPUs serve 500 concurrent requests as ' : `: ${gpus} of the 16 GPUs serve 500 concurrent requests as `);
  });

  it('where the GPUs named hold too few within the bound, the most they hold and the plan on more GPUs are said', () => {
    const a = ask('serve llama3-70b to 500 concurrent users on 8 h100 at 50 ms per token', options);
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(/^Llama 3 70B on 8 × H100 SXM5 80GB: no plan serves 500 concurrent requests on the 8 GPUs within ≤ 50\.0 ms per token, ≤ 2\.00 s to the first token: /);
    const most = Number(/the 8 GPUs hold ([\d,]+) within them/.exec(a.headline)?.[1]?.replace(/,/g, ''));
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThan(500);
    const more = /^On more GPUs than named: (\d+) GPUs serve 500 concurrent requests/.exec(a.notes.join(' '));
    expect(Number(more?.[1])).toBeGreaterThan(8);
  });

  it('"64 concurrent requests per replica" is one replica\'s batch, as before', () => {
    const { a, data } = served('serve llama3-70b on 8 h100 with 64 concurrent requests per replica');
    expect(data.frontier.every((x) => x.batch === 64)).toBe(true);
    const replicas = 8 / data.best!.gpus;
    expect(a.assumptions).toContain(`64 concurrent requests taken per replica: ${64 * replicas} on the 8 GPUs`);
  });
});

describe('capacity and rate questions are answered as before', () => {
  it('"max batch for llama3-70b on 8 h100" leads with the most that fit in memory, the planner\'s plan on the 8 GPUs', () => {
    const { a, data } = served('max batch for llama3-70b on 8 h100');
    const plan = runInference(request('llama3-70b', 'h100-sxm', { gpus: 8, maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2 })) as Served;
    expect(data.best).toEqual(plan.best);
    expect(a.headline).toMatch(new RegExp(`^Llama 3 70B on 8 × H100 SXM5 80GB: up to ${formatGrouped(plan.best!.maxBatch)} concurrent requests fit in memory on TP ${plan.best!.tensor} · PP ${plan.best!.pipeline} `));
    expect(a.assumptions.join(' ')).not.toMatch(/in all, spread/);
  });

  it('"serve llama3-70b at 10 requests/s": the replicas the rate takes, in the load\'s words', () => {
    const { a, data } = served('serve llama3-70b at 10 requests/s');
    const plan = runInference(request('llama3-70b', 'h100-sxm', { requestsPerSecond: 10, maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2 })) as Served;
    expect(data.best).toEqual(plan.best);
    const { load, tensor, pipeline, batch } = plan.best!;
    expect(a.headline).toContain(`: ${load!.gpus} GPUs serve 10 requests/s as ${load!.replicas} replicas of TP ${tensor} · PP ${pipeline} at ${formatGrouped(batch)} concurrent requests each, `);
    expect(a.assumptions.join(' ')).not.toMatch(/in all, spread/);
  });
});

describe('GPUs named that no shape divides: every shape that fits in them at least once is tried', () => {
  // QA: on 10 (or 9) H100 only shapes of 1, 2, 5 and 10 GPUs (9: 1, 3, 9) were tried, so "no plan serves 150 concurrent
  // requests on the 10 GPUs", then "on more GPUs than named: 8 GPUs serve 150 … as 1 replica of TP 4 · PP 2", 8 being fewer.
  it.each([10, 9])('"serve llama3-70b on %i H100 to 150 concurrent users at 50 ms per token": a plan on at most 8 of them', (named) => {
    // Apart from the bot: one replica of TP 4 · PP 2 (8 GPUs, fewer than either count) at batch 150 keeps 50 ms a token and
    // 2 s to the first, so the fewest GPUs holding the 150 within the bounds are 8 or fewer, some of the GPUs named.
    expect(keeps(replicaAt('llama3-70b', 'h100-sxm', { tensor: 4, pipeline: 2 }, 150), 0.05)).toBe(true);
    const { a, data } = served(`serve llama3-70b on ${named} H100 to 150 concurrent users at 50 ms per token`);
    expect(a.ok).toBe(true);
    const { gpus } = spreadOf(data, 150, 'llama3-70b', 'h100-sxm', 0.05);
    expect(gpus).toBeLessThanOrEqual(8);
    expect(a.headline).toContain(`: ${gpus} of the ${named} GPUs serve 150 concurrent requests as `);
    expect(a.notes.join(' ')).not.toMatch(/On more GPUs than named/);
  });
});

describe('where no plan keeps the bounds on the GPUs named, the figures do not say the GPUs are enough', () => {
  it('"500 concurrent users on 16 h100 at 30 ms per token": the closest plan is placed among the 16, never "are enough"', () => {
    const a = ask('serve llama3-70b to 500 concurrent users on 16 h100 at 30 ms per token', options);
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(/no plan serves 500 concurrent requests on the 16 GPUs within ≤ 30\.0 ms per token/);
    // QA: "(the 16 GPUs named are enough)" beside that headline.
    const taken = figure(a, 'GPUs for 500 concurrent requests (closest)');
    expect(taken).not.toMatch(/enough/);
    expect(taken).toMatch(/ \((all 16 named|\d+ of the 16 named)\)$/);
  });

  it('"serve llama3-8b on 1 H100 to 300 concurrent users": the 1 GPU holds what fits in its memory, and that memory is said to be the limit', () => {
    // Apart from the bot: one H100 holds Llama 3 8B as TP 1 · PP 1 only; its largest batch is memory's bound (maxBatch).
    const one = runInference(request('llama3-8b', 'h100-sxm', { gpus: 1, batches: [1] })) as Served;
    const fit = one.best!.maxBatch;
    expect(fit).toBeLessThan(300);
    // At that batch it keeps the default 200 ms a token and 2 s to the first, so memory, not latency, stops more.
    expect(keeps(replicaAt('llama3-8b', 'h100-sxm', { tensor: 1, pipeline: 1 }, fit), 0.2)).toBe(true);
    const a = ask('serve llama3-8b on 1 H100 to 300 concurrent users', options);
    expect(a.ok).toBe(false);
    // QA: "the 1 GPU hold …": one GPU holds.
    expect(a.headline).toContain(`: the 1 GPU holds ${formatGrouped(fit)} within them, as 1 replica of TP 1 · PP 1 (`);
    expect(a.headline).toMatch(new RegExp(`; memory holds at most ${formatGrouped(fit)} in that replica$`));
    expect(figure(a, `GPUs for ${formatGrouped(fit)} concurrent requests (closest)`)).toBe('1 GPU: 1 replica of TP 1 · PP 1 (the 1 GPU named)');
  });
});

describe('a concurrency beside a request rate', () => {
  it('"to 500 concurrent users at 100 requests/s": read per replica, and what the rate makes of concurrency said (Little\'s law)', () => {
    const { a, data } = served('serve llama3-70b on H100 to 500 concurrent users at 100 requests/s');
    const x = data.best!;
    const { replicas } = x.load!;
    // Little's law (L = λW): a request is in the service from its arrival until its last token: its first token (the wait
    // for a slot included), then 511 more at one decode step each. λ × that, to three figures, is what the service holds;
    // the bot reckons the slot's time as the load does (512 iterations), which differs from this by one step less the
    // prefill (a few tenths of a second of some 60 s): within 1% here.
    const seconds = x.load!.firstTokenSeconds + 511 * x.decodeStepSeconds;
    const m = /at 100 requests\/s of ([\d.]+) s each the service holds about ([\d,]+) at once \(Little's law/.exec(a.assumptions.join('\n'));
    expect(m, a.assumptions.join('\n')).not.toBeNull();
    const [, stated = '', held = ''] = m!;
    expect(Math.abs(Number(stated) / seconds - 1)).toBeLessThan(0.01);
    expect(Math.abs(Number(held.replace(/,/g, '')) / (100 * seconds) - 1)).toBeLessThan(0.01);
    expect(a.assumptions).toContainEqual(expect.stringMatching(new RegExp(`^500 concurrent requests taken per replica, a rate being given: ${formatGrouped(500 * replicas)} on the ${replicas} replicas; `)));
    expect(a.assumptions).toContainEqual(expect.stringMatching(/, so the 500 asked and the rate disagree$/));
  });
});
