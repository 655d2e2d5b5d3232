import { readFileSync } from 'node:fs';
import { runInference } from '@trainplan/protocol';
import { formatGrouped, formatSeconds } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { servingAnswer } from './support/serving-answer.ts';
import { inferenceRequestFromFields } from '../src/serving/request-from-fields.ts';
import { SERVING_DEFAULTS, SERVING_FIELDS } from '../src/serving/serving-fields.ts';
import { servingSections } from '../src/serving/serving-results.ts';
import { servingView, type ServingView } from '../src/serving/serving-view.ts';

const ask = servingAnswer;

const stat = (v: ServingView, name: string) => v.stats.find((s) => s.name === name)!;
/** A figure as the reader sees it, back to a number ("2,842" → 2842, "23.2 ms" → 23.2). */
const figure = (value: string) => Number(value.replace(/,/g, '').split(' ')[0]);
/** A figure shown to three significant figures is within half a unit of its third figure: 0.5 % at most. */
const ROUNDING = 0.005;
const near = (ratio: number) => expect(Math.abs(ratio - 1)).toBeLessThanOrEqual(ROUNDING);
/** A time as the reader sees it, back to seconds ("389 ms" → 0.389, "1.08 s" → 1.08). */
const secondsOf = (value: string) => {
  const [n, unit] = value.split(' ');
  const scale: Record<string, number> = { s: 1, ms: 1e-3, 'µs': 1e-6 };
  expect(scale).toHaveProperty(unit!);
  return Number(n) * scale[unit!]!;
};
const names = (v: ServingView) => v.stats.map((s) => s.name);
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));

describe('the serving view of an answer', () => {
  it("shows runInference's best plan: its shape and batch in the title, its own figures", () => {
    const { answer, view } = ask();
    const best = answer.best!;
    expect(view.kind).toBe('best');
    expect(view.point).toEqual(best);
    expect(view.title).toContain(`TP ${best.tensor} · PP ${best.pipeline} · batch ${best.batch.toLocaleString('en-US')} · continuous batching`);
    expect(view.title).toMatch(/^Highest throughput \(no latency bound given\)/);
    expect(stat(view, 'shape').value).toBe(`TP ${best.tensor} · PP ${best.pipeline}`);
    expect(figure(stat(view, 'batch').value)).toBe(best.batch);
    expect(view.frontier).toEqual(answer.frontier);
  });

  it('with a memory fraction, the memory figure and bar are of what the server may use (0.9 of an H100\'s 79.6 GiB: 71.7 GiB)', () => {
    const { answer, view } = ask({ 'gpu-memory': '0.9' });
    expect(stat(view, 'memory').value).toMatch(/ of 71\.7 GiB$/);
    expect(stat(view, 'memory').label).toBe('memory per GPU (of what the server may use)');
    expect(stat(ask().view, 'memory').value).toMatch(/ of 79\.6 GiB$/);
    expect(answer.best!.totalBytesPerGpu).toBeLessThanOrEqual(answer.best!.usableBytesPerGpu!);
  });

  it('an FP8 KV cache is named in the title, as the CLI names it; without one, no cache format is', () => {
    expect(ask({ 'kv-cache': 'fp8' }).view.title).toMatch(/ · continuous batching · FP8 KV cache/);
    expect(ask().view.title).not.toMatch(/KV cache/);
  });

  it('with a price, a million output tokens\' cost (the GPUs\' time over their tokens), and with a rate the hour of its GPUs; without one, neither', () => {
    const { answer, view } = ask({ price: '2.5', 'max-token-ms': '50' });
    const best = answer.best!;
    expect(figure(stat(view, 'cost').value)).toBeCloseTo((1e6 * 2.5) / 3600 / best.tokensPerSecondPerGpu, 2);
    // In the price's currency, said once (QA: a bare "1.90 per million output tokens" read as dollars).
    expect(stat(view, 'cost').label).toBe("per million output tokens, in the price's currency");
    expect(view.stats.some((s) => s.name === 'cost-hour')).toBe(false);
    const rated = ask({ price: '2.5', rate: '10', 'max-token-ms': '50' });
    expect(figure(stat(rated.view, 'cost-hour').value)).toBe(rated.answer.best!.load!.gpus * 2.5);
    expect(stat(rated.view, 'cost').label).toBe("per million output tokens at this load (idle slots paid), in the price's currency");
    expect(rated.view.stats.filter((s) => s.label.includes('currency')).map((s) => s.name)).toEqual(['cost']);
    expect(ask().view.stats.some((s) => s.name === 'cost')).toBe(false);
  });

  it('takes the price in any currency and says so on its field, as the CLI says "in --price\'s currency" (QA: no unit anywhere)', () => {
    expect(SERVING_FIELDS.find((f) => f.name === 'price')!.label).toMatch(/^Price per GPU-hour \(any currency\)$/);
  });

  it('gives each user one token per decode step (tokens/s per user × time per token = 1) and a replica its GPUs\' tokens', () => {
    const { answer, view } = ask({ 'max-token-ms': '50' });
    const best = answer.best!;
    const perUser = figure(stat(view, 'user-rate').value);
    near(perUser * best.decodeStepSeconds);
    const perGpu = figure(stat(view, 'gpu-rate').value);
    near(figure(stat(view, 'total-rate').value) / (best.tokensPerSecondPerGpu * best.gpus));
    near(perGpu / best.tokensPerSecondPerGpu);
    expect(stat(view, 'total-rate').label).toBe('tokens/s per replica');
  });

  it('on a GPU count, totals the tokens/s over all the GPUs given, replicas × the replica\'s GPUs', () => {
    const { answer, view } = ask({ gpus: '16', 'max-token-ms': '50' });
    const best = answer.best!;
    expect(best.replicas! * best.gpus).toBe(16);
    expect(stat(view, 'total-rate').label).toBe('tokens/s on the 16 GPUs');
    near(figure(stat(view, 'total-rate').value) / (best.tokensPerSecondPerGpu * 16));
    expect(view.title).toMatch(new RegExp(`× ${best.replicas} replicas?\\.$`));
  });

  it('draws memory per GPU as weights, KV cache and the rest, adding up to the total, against the capacity', () => {
    const { answer, view } = ask();
    const best = answer.best!;
    const parts = Object.fromEntries(view.memory!.parts.map((p) => [p.key, p.bytes]));
    expect(parts.weights).toBe(best.weightsBytesPerGpu);
    expect(parts.kv).toBe(best.kvCacheBytesPerGpu);
    expect(parts.weights! + parts.kv! + parts.other!).toBeCloseTo(best.totalBytesPerGpu, 0);
    expect(parts.other).toBeGreaterThan(0);
    expect(view.memory).toMatchObject({ capacityBytes: best.capacityBytes, fits: true });
  });

  it('a tighter bound per token never yields more tokens/s per GPU, and the plan given always meets it, said as typed ("Best at ≤ 50 ms")', () => {
    const bounds = [500, 100, 50, 30, 20];
    const rates = bounds.map((ms) => {
      const { view } = ask({ 'max-token-ms': String(ms) });
      // Llama 3 70B on H100 serves within each of these bounds: none may pass by missing it.
      expect(view.kind).toBe('best');
      expect(view.point!.decodeStepSeconds).toBeLessThanOrEqual(ms / 1000);
      // The bound as typed, whole: not "within ≤" (the bound said twice) nor "50.0 ms" (QA).
      expect(view.title.startsWith(`Best at ≤ ${ms} ms per token: `)).toBe(true);
      return view.point!.tokensPerSecondPerGpu;
    });
    for (let i = 1; i < rates.length; i += 1) expect(rates[i]!).toBeLessThanOrEqual(rates[i - 1]!);
  });

  it('keeps a bound\'s figures that are not whole zeros: "≤ 12.5 ms per token, ≤ 2.50 s to the first token"', () => {
    // The protocol says a bound to three figures (formatSeconds): 12.5 ms stays "12.5", 2.5 s is "2.50" (not a whole number
    // padded with ".0", so left as the protocol writes it).
    const { view } = ask({ 'max-token-ms': '12.5', 'max-ttft': '2.5' });
    expect(view.kind).toBe('best');
    expect(view.title.startsWith('Best at ≤ 12.5 ms per token, ≤ 2.50 s to the first token: ')).toBe(true);
  });

  it("says plainly when no plan meets the bounds, with the protocol's why, and shows the closest plan's figures as closest", () => {
    const { answer, view } = ask({ 'max-token-ms': '0.001' });
    expect(answer.best).toBeUndefined();
    expect(view.kind).toBe('missed');
    expect(view.title).toContain('No plan meets ≤ ');
    expect(view.title).toContain(answer.closest!.why);
    expect(view.point).toEqual(answer.closest!.point);
    expect(stat(view, 'shape').label).toContain('(closest plan)');
    expect(text(servingSections(view)['.out-memory'])).toContain('Memory per GPU (closest plan)');
  });

  it("says the protocol's unservable message when no shape holds the model, once (not again among the warnings)", () => {
    const { answer, view } = ask({ model: 'llama3.1-405b', gpus: '2' });
    expect(answer.unservable).toBeDefined();
    expect(view.kind).toBe('unservable');
    expect(view.title).toContain(answer.unservable);
    expect(view.warnings).not.toContain(answer.unservable);
    expect(view.stats).toEqual([]);
    const html = servingSections(view);
    expect(html['.out-memory']).toBe('');
    expect(html['.headline']).toBe('');
  });
});

describe('the serving view of a large batch', () => {
  it('groups the batch and how many fit past a thousand, as every other figure ("2,048 …", "(8,927 fit)")', () => {
    // A one-layer shape on an H100 fits batches in the thousands.
    const { answer, view } = ask({ model: 'custom', layers: '1', 'hidden-size': '256', heads: '4', vocab: '1000', prompt: '16', output: '16' });
    const best = answer.best!;
    expect(best.maxBatch).toBeGreaterThan(1000);
    expect(stat(view, 'batch').value).toBe(best.batch.toLocaleString('en-US'));
    expect(stat(view, 'batch').label).toBe(`concurrent sequences per replica (${best.maxBatch.toLocaleString('en-US')} fit)`);
    expect(view.title).toContain(`batch ${best.batch.toLocaleString('en-US')} ·`);
  });
});

describe('the serving sections', () => {
  it('put the title, one marked figure each, the memory bar and the frontier chart in their slots', () => {
    const { answer, request, view } = ask({ 'max-token-ms': '50' });
    const html = servingSections(view, request.maxDecodeSecondsPerToken);
    expect(text(html['.answer'])).toBe(view.title);
    expect(html['.answer']).toContain('data-answer="best"');
    for (const s of view.stats) expect(html['.headline']).toContain(`data-stat="${s.name}"`);
    expect(html['.out-memory']).toContain('class="mem mem-kv"');
    expect(html['.out-frontier'].match(/<circle class="dot/g)).toHaveLength(answer.frontier.length);
    expect(html['.out-frontier']).toContain('data-marker="plan"');
    expect(text(html['.out-frontier'])).toContain('dashed: the bound per token');
  });

  it("lists the answer's warnings (a context past the model's sequence length)", () => {
    const { answer, view } = ask({ prompt: '100000' });
    expect(answer.warnings?.length).toBeGreaterThan(0);
    const items = servingSections(view)['.warnings'].match(/<li data-warning>/g) ?? [];
    expect(items).toHaveLength(answer.warnings!.length);
  });
});

describe('the serving view with a request rate', () => {
  it("shows the load runInference gives the best plan: its GPUs (replicas × TP × PP), how loaded, the wait for a slot and the first token with it", () => {
    const { answer, view } = ask({ rate: '20', 'max-token-ms': '50' });
    const best = answer.best!;
    const load = best.load!;
    expect(view.point).toEqual(best);
    // The GPUs the rate takes are whole replicas of the plan, enough for 20 requests/s of 512 output tokens each.
    expect(load.gpus).toBe(load.replicas * best.tensor * best.pipeline);
    expect((load.gpus * best.tokensPerSecondPerGpu) / 512).toBeGreaterThan(20);
    expect(figure(stat(view, 'load-gpus').value)).toBe(load.gpus);
    expect(stat(view, 'load-gpus').label).toBe(`${load.replicas} replicas for 20 requests/s`);
    expect(stat(view, 'shape').label).toBe(`${best.gpus} GPUs per replica`);
    // A percentage to the unit: within half a point of the utilization.
    expect(Math.abs(parseFloat(stat(view, 'utilization').value) - load.utilization * 100)).toBeLessThanOrEqual(0.5);
    expect(stat(view, 'utilization').value).toMatch(/^\d+%$/);
    near(secondsOf(stat(view, 'queue').value) / load.queueSeconds);
    // The first token shown is the load's: the prompt's own wait plus the wait for a slot.
    expect(stat(view, 'ttft').label).toBe('time to first token (wait included)');
    near(secondsOf(stat(view, 'ttft').value) / (best.prefillSeconds + load.queueSeconds));
    expect(load.queueSeconds).toBeGreaterThan(0);
    expect(view.title).toBe(`Fewest GPUs for 20 requests/s at ≤ 50 ms per token: TP ${best.tensor} · PP ${best.pipeline} · batch ${best.batch}`
      + ` · continuous batching × ${load.replicas} replicas (${load.gpus} GPUs).`);
    // The load's figures come straight after the plan's shape.
    expect(names(view).slice(0, 4)).toEqual(['shape', 'load-gpus', 'utilization', 'queue']);
  });

  it('without a rate the figures are as before: no load, and the first token without a wait', () => {
    const { answer, view } = ask({ 'max-token-ms': '50' });
    expect(answer.best!.load).toBeUndefined();
    expect(names(view)).toEqual(['shape', 'batch', 'ttft', 'tpot', 'gpu-rate', 'user-rate', 'total-rate', 'memory']);
    expect(stat(view, 'ttft')).toEqual({ name: 'ttft', value: formatSeconds(answer.best!.prefillSeconds), label: 'time to first token' });
    expect(stat(view, 'shape').label).toBe(`one replica of ${answer.best!.gpus} GPUs`);
  });

  it('on a GPU count, says how many of the GPUs given the rate takes, and still totals tokens/s over all of them', () => {
    const { answer, view } = ask({ rate: '20', gpus: '64', 'max-token-ms': '50' });
    const best = answer.best!;
    expect(best.load!.gpus).toBeLessThanOrEqual(64);
    expect(stat(view, 'load-gpus').label).toBe(`${best.load!.replicas} replicas for 20 requests/s, 64 given`);
    expect(stat(view, 'total-rate').label).toBe('tokens/s on the 64 GPUs');
    expect(view.title).toMatch(new RegExp(`× ${best.load!.replicas} replicas \\(${best.load!.gpus} GPUs\\)\\.$`));
  });

  it("on too few GPUs for the rate, says so with the protocol's why and shows the closest plan's load, past the GPUs given", () => {
    const { answer, view } = ask({ rate: '20', gpus: '16', 'max-token-ms': '50' });
    const closest = answer.closest!;
    const load = closest.point.load!;
    expect(view.kind).toBe('missed');
    expect(view.title).toBe(`No plan meets ≤ 50 ms per token, 20 requests/s: ${closest.why}.`);
    // The protocol's why names the rate as the bounds do, as it was given ("20 requests/s").
    expect(view.title).toMatch(new RegExp(`20 requests/s need ${load.replicas} replicas of it \\(${load.gpus} GPUs\\), 16 given\\.$`));
    expect(view.point).toEqual(closest.point);
    expect(load.gpus).toBeGreaterThan(16);
    expect(figure(stat(view, 'load-gpus').value)).toBe(load.gpus);
    expect(stat(view, 'load-gpus').label).toBe(`${load.replicas} replicas for 20 requests/s, 16 given`);
    expect(stat(view, 'shape').label).toBe(`${closest.point.gpus} GPUs per replica (closest plan)`);
  });

  it('groups a count of GPUs past a thousand (a million requests/s)', () => {
    const { answer, view } = ask({ rate: '1000000' });
    const load = answer.best!.load!;
    expect(load.gpus).toBeGreaterThan(1000);
    expect(stat(view, 'load-gpus').value).toBe(`${load.gpus.toLocaleString('en-US')} GPUs`);
    expect(figure(stat(view, 'load-gpus').value)).toBe(load.gpus);
    expect(view.title).toMatch(/^Fewest GPUs for 1,000,000 requests\/s: /);
  });

  it('says a wait for a slot too short for any clock as "under 1 µs", not "0.000000 ns" (a millionth of a request/s)', () => {
    const { answer, view } = ask({ rate: '0.000001' });
    expect(answer.best!.load!.queueSeconds).toBeLessThan(1e-6);
    expect(stat(view, 'queue')).toEqual({ name: 'queue', value: 'under 1 µs', label: 'mean wait for a slot' });
  });

  it('draws the load figures in the headline, one marked figure each', () => {
    const { view } = ask({ rate: '20' });
    const html = servingSections(view)['.headline'];
    for (const name of ['load-gpus', 'utilization', 'queue']) expect(html).toContain(`data-stat="${name}"`);
    expect(text(html)).toContain('mean wait for a slot');
  });
});

/** A Llama 3.2 1B draft for Llama 3 70B on H100, as the reader picks it (γ 4 and α 0.7 unless given). */
const DRAFT = { 'draft-model': 'llama3.2-1b' };

describe('the serving view with speculative decoding', () => {
  it('names the draft in the title and shows the tokens a step the answer gives: (1 − 0.7⁵)/(1 − 0.7) = 0.83193/0.3 = 2.77 for γ 4, α 0.7', () => {
    const { answer, view } = ask({ ...DRAFT, 'max-token-ms': '50' });
    const best = answer.best!;
    const spec = best.speculation!;
    expect(spec).toMatchObject({ draftTokens: 4, acceptanceRate: 0.7 });
    expect(spec.tokensPerStep).toBeCloseTo((1 - 0.7 ** 5) / (1 - 0.7), 12);
    expect(spec.tokensPerStep).toBeCloseTo(2.7731, 4);
    expect(stat(view, 'speculation')).toEqual({ name: 'speculation', value: '2.77 tokens a step', label: '4 drafted, 70% accepted' });
    near(figure(stat(view, 'speculation').value) / spec.tokensPerStep);
    expect(view.title).toBe(`Best at ≤ 50 ms per token: TP ${best.tensor} · PP 1 · batch ${best.batch} · continuous batching · speculative decoding with llama3.2-1b.`);
    // The figure follows the time per output token it explains, which is already the step over those tokens.
    expect(names(view)).toEqual(['shape', 'batch', 'ttft', 'tpot', 'speculation', 'gpu-rate', 'user-rate', 'total-rate', 'memory']);
    near(figure(stat(view, 'user-rate').value) * best.decodeStepSeconds);
  });

  it.each([
    // γ, α, (1 − α^(γ+1))/(1 − α) worked by hand, and the figure shown.
    ['1', '0.5', 0.75 / 0.5, '1.50 tokens a step', '1 drafted, 50% accepted'],
    ['2', '0.5', 0.875 / 0.5, '1.75 tokens a step', '2 drafted, 50% accepted'],
    ['3', '0.8', 0.5904 / 0.2, '2.95 tokens a step', '3 drafted, 80% accepted'],
    // Every draft token accepted: γ + 1, shown whole.
    ['4', '1', 5, '5 tokens a step', '4 drafted, 100% accepted'],
  ])('γ %s, α %s: %s tokens a step, as the answer gives', (gamma, alpha, tokens, value, label) => {
    const { answer, view } = ask({ ...DRAFT, 'draft-tokens': gamma, acceptance: alpha, 'max-token-ms': '50' });
    const spec = answer.best!.speculation!;
    expect(spec).toMatchObject({ draftTokens: Number(gamma), acceptanceRate: Number(alpha) });
    expect(spec.tokensPerStep).toBeCloseTo(tokens, 12);
    expect(stat(view, 'speculation')).toEqual({ name: 'speculation', value, label });
  });

  it("draws the draft's weights and KV cache as their own part of the memory, taken out of the point's weights and KV cache", () => {
    const { answer, view } = ask({ ...DRAFT, 'max-token-ms': '50' });
    const best = answer.best!;
    const spec = best.speculation!;
    const parts = Object.fromEntries(view.memory!.parts.map((p) => [p.key, p.bytes]));
    expect(view.memory!.parts.map((p) => p.key)).toEqual(['weights', 'kv', 'draft', 'other']);
    expect(parts.draft).toBe(spec.draftWeightsBytesPerGpu + spec.draftKvCacheBytesPerGpu);
    expect(parts.weights).toBe(best.weightsBytesPerGpu - spec.draftWeightsBytesPerGpu);
    expect(parts.kv).toBe(best.kvCacheBytesPerGpu - spec.draftKvCacheBytesPerGpu);
    expect(parts.weights! + parts.kv! + parts.draft! + parts.other!).toBeCloseTo(best.totalBytesPerGpu, 0);
    expect(spec.draftWeightsBytesPerGpu).toBeGreaterThan(0);
    const html = servingSections(view);
    expect(html['.out-memory']).toContain('class="mem mem-draft"');
    expect(text(html['.out-memory'])).toContain('draft model');
    expect(html['.headline']).toContain('data-stat="speculation"');
    expect(text(html['.headline'])).toContain('2.77 tokens a step4 drafted, 70% accepted');
  });

  it('meets a bound per token no plan meets alone (≤ 10 ms on H100: the closest alone is TP 8 at batch 1; with the draft, TP 8 at batch 16, the largest within the bound), as the README says', () => {
    const alone = ask({ 'max-token-ms': '10' });
    const drafted = ask({ ...DRAFT, 'max-token-ms': '10' });
    expect(alone.view.kind).toBe('missed');
    expect(alone.answer.closest!.point.decodeStepSeconds).toBeGreaterThan(0.01);
    expect([stat(alone.view, 'shape').value, stat(alone.view, 'batch').value]).toEqual(['TP 8 · PP 1', '1']);
    expect(drafted.view.kind).toBe('best');
    expect(drafted.view.point!.decodeStepSeconds).toBeLessThanOrEqual(0.01);
    expect([stat(drafted.view, 'shape').value, stat(drafted.view, 'batch').value]).toEqual(['TP 8 · PP 1', '16']);
    // The README's example quotes both times as the widget shows them.
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`(the closest, TP 8 at batch 1, takes ${stat(alone.view, 'tpot').value}) and TP 8 at batch 16 with a Llama 3.2 1B draft (${stat(drafted.view, 'tpot').value})`);
    expect(drafted.view.title).toMatch(/^Best at ≤ 10 ms per token: .* · speculative decoding with llama3\.2-1b\.$/);
  });

  it('shows the closest plan speculating when no plan meets the bounds', () => {
    const { answer, view } = ask({ ...DRAFT, 'max-token-ms': '0.001' });
    expect(view.kind).toBe('missed');
    expect(view.point).toEqual(answer.closest!.point);
    expect(stat(view, 'speculation').value).toBe(`${formatGrouped(answer.closest!.point.speculation!.tokensPerStep, 3)} tokens a step`);
  });

  it('without a draft model the view is as before, γ and α filled or not: no figure, no memory part, no draft in the title', () => {
    const { view } = ask({ 'draft-tokens': '8', acceptance: '0.9' });
    expect(view).toEqual(ask().view);
    expect(names(view)).not.toContain('speculation');
    expect(view.memory!.parts.map((p) => p.key)).toEqual(['weights', 'kv', 'other']);
    expect(view.title).not.toContain('speculative');
  });

  it("says the protocol's refusal when a pipeline is asked beside a draft (one pipeline stage only)", () => {
    const r = inferenceRequestFromFields({ ...SERVING_DEFAULTS, ...DRAFT });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const request = { ...r.request, pipeline: [2] };
    const a = runInference(request);
    if (!a.ok) throw new Error(a.message);
    const view = servingView(a, request);
    expect(view.kind).toBe('unservable');
    expect(view.title).toContain('speculative decoding is modelled on one pipeline stage, not 2');
    expect(view.stats).toEqual([]);
  });
});
