import { formatSeconds } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { servingAnswer } from './support/serving-answer.ts';
import { ceilFigures } from '@trainplan/protocol';
import { servingSections } from '../src/serving/serving-results.ts';

const ask = servingAnswer;

/** The remedy that starts with `lead`, and the number after it ("a bound per token of 12.5 ms or more" → 12.5). */
function remedy(remedies: readonly string[], lead: string): { text: string; value: number } {
  const text = remedies.find((r) => r.startsWith(lead));
  if (text === undefined) throw new Error(`no remedy "${lead}…" among ${JSON.stringify(remedies)}`);
  return { text, value: Number(text.slice(lead.length).replace(/,/g, '').split(' ')[0]) };
}

const SPECULATE = 'speculative decoding with a draft model';
const FP8 = 'FP8 weights (precision fp8)';

// The remedies' bounds are rounded up by the protocol's ceilFigures (the widget's own ceilSignificant was its twin):
// the figures the serving view writes, in ms per token and seconds to the first token.
describe('ceilFigures, as the remedies round a bound', () => {
  it.each([[12.430003, 12.5], [0.11372, 0.114], [0.115, 0.115], [96, 96], [999.7, 1000]])('rounds %f up to three significant figures: %f', (x, up) => {
    expect(ceilFigures(x)).toBeCloseTo(up, 9);
    expect(ceilFigures(x)).toBeGreaterThanOrEqual(x);
  });
});

describe('what the serving view offers when no plan meets the bounds', () => {
  it('a bound per token the closest plan meets, rounded up so that the bound typed as shown serves (≤ 10 ms: the closest takes 12.4 ms)', () => {
    const { answer, view } = ask({ 'max-token-ms': '10' });
    expect(view.kind).toBe('missed');
    const closest = answer.closest!.point;
    const bound = remedy(view.remedies, 'a bound per token of ');
    expect(bound.text).toContain(`the closest plan decodes a token in ${formatSeconds(closest.decodeStepSeconds)}`);
    expect(bound.value / 1000).toBeGreaterThanOrEqual(closest.decodeStepSeconds);
    expect(bound.value / 1000).toBeLessThanOrEqual(closest.decodeStepSeconds * 1.01);
    expect(ask({ 'max-token-ms': String(bound.value) }).view.kind).toBe('best');
  });

  it('a first-token bound the closest plan meets (≤ 0.05 s to the first token), in the field\'s unit, seconds', () => {
    const { answer, view } = ask({ 'max-ttft': '0.05' });
    const bound = remedy(view.remedies, 'a first-token bound of ');
    expect(bound.text).toMatch(/ s or more: the closest plan's first token comes after /);
    expect(bound.value).toBeGreaterThanOrEqual(answer.closest!.point.prefillSeconds);
    expect(ask({ 'max-ttft': String(bound.value) }).view.kind).toBe('best');
    expect(view.remedies.some((r) => r.startsWith('a bound per token'))).toBe(false);
  });

  it('FP8 weights and a draft model while the closest plan decodes memory-bound, on a GPU with FP8 tensor cores; each, taken, serves', () => {
    const { answer, view } = ask({ 'max-token-ms': '10' });
    expect(answer.closest!.point.memoryBound).toBe(true);
    expect(view.remedies.some((r) => r.startsWith(FP8))).toBe(true);
    expect(view.remedies.some((r) => r.startsWith(SPECULATE))).toBe(true);
    expect(ask({ 'max-token-ms': '10', precision: 'fp8' }).view.kind).toBe('best');
    expect(ask({ 'max-token-ms': '10', 'draft-model': 'llama3.2-1b' }).view.kind).toBe('best');
  });

  it('no FP8 weights on a GPU without FP8 tensor cores (A100) or when the weights are FP8 already, and no draft model when one is chosen', () => {
    expect(ask({ 'max-token-ms': '10', gpu: 'a100-80gb' }).view.remedies.some((r) => r.startsWith(FP8))).toBe(false);
    const fp8 = ask({ 'max-token-ms': '7', precision: 'fp8' }).view;
    expect(fp8.kind).toBe('missed');
    expect(fp8.remedies.some((r) => r.startsWith(FP8))).toBe(false);
    const drafted = ask({ 'max-token-ms': '5', 'draft-model': 'llama3.2-1b' }).view;
    expect(drafted.kind).toBe('missed');
    expect(drafted.remedies.some((r) => r.startsWith(SPECULATE))).toBe(false);
  });

  it('with a rate on too few GPUs, the GPUs its replicas of the closest plan take (100 requests/s on 8 GPUs); given them, it serves', () => {
    const { answer, view } = ask({ rate: '100', gpus: '8' });
    const load = answer.closest!.point.load!;
    expect(view.remedies).toContain(`${load.gpus} GPUs or more (8 given): 100 requests/s take ${load.replicas} replicas of the closest plan; or a lower rate`);
    expect(load.gpus).toBeGreaterThan(8);
    expect(ask({ rate: '100', gpus: String(load.gpus) }).view.kind).toBe('best');
  });

  it('with a rate and a first-token bound the prefill alone reaches, a bound above that prefill (the wait comes on top)', () => {
    const { answer, view } = ask({ rate: '100', 'max-ttft': '0.1' });
    const closest = answer.closest!.point;
    expect(closest.load).toBeUndefined();
    expect(view.remedies).toContain(`a first-token bound above ${formatSeconds(closest.prefillSeconds)}: the closest plan's prefill alone takes that, and the wait for a slot comes on top`);
  });

  it('nothing when a plan serves', () => {
    expect(ask({ 'max-token-ms': '50' }).view.remedies).toEqual([]);
    expect(ask().view.remedies).toEqual([]);
  });
});

describe('what the serving view offers when no shape holds the model', () => {
  it('more GPUs per replica than the widest tried, and FP8 weights (Llama 3.1 405B on 8 H100s); each, taken, serves', () => {
    const { view } = ask({ model: 'llama3.1-405b', gpus: '8' });
    expect(view.kind).toBe('unservable');
    expect(view.remedies[0]).toMatch(/^more GPUs per replica than the widest tried, TP \d+ · PP \d+ \(8 GPUs\), which runs out of memory: more GPUs than the 8 given$/);
    expect(view.remedies).toContain('FP8 weights (precision fp8): half the memory of 16-bit weights');
    expect(ask({ model: 'llama3.1-405b', gpus: '16' }).view.kind).toBe('best');
    expect(ask({ model: 'llama3.1-405b', gpus: '8', precision: 'fp8' }).view.kind).toBe('best');
  });

  it('all of each GPU\'s memory when the request leaves the server only part of it (Llama 3 70B on 2 H100s at 0.5); given it, it serves', () => {
    const { view } = ask({ gpus: '2', 'gpu-memory': '0.5' });
    expect(view.kind).toBe('unservable');
    expect(view.remedies).toContain("let the server use all of each GPU's memory, not 50% of it");
    expect(ask({ gpus: '2' }).view.kind).toBe('best');
  });

  it('without a GPU count, a count above the widest shape tried, and no FP8 on a V100 (Megatron 1T on V100 32GB: TP 8 · PP 8 is 64 GPUs); 128 serve it', () => {
    const { view } = ask({ model: 'megatron-1t', gpu: 'v100-32gb' });
    expect(view.kind).toBe('unservable');
    expect(view.remedies).toEqual(['more GPUs per replica than the widest tried, TP 8 · PP 8 (64 GPUs), which runs out of memory: give a GPU count above 64']);
    expect(ask({ model: 'megatron-1t', gpu: 'v100-32gb', gpus: '128' }).view.kind).toBe('best');
  });
});

describe('the serving answer\'s markup', () => {
  const text = (html: string) => html.replace(/<[^>]+>/g, '\n').replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))).split('\n').filter(Boolean);

  it('lists the remedies under the title, after a lead that says what they are for', () => {
    const missed = servingSections(ask({ 'max-token-ms': '10' }).view)['.answer'];
    expect(missed).toContain('<ul class="remedies" data-remedies>');
    const lines = text(missed);
    expect(lines[1]).toBe('To meet the bounds, try:');
    expect(lines.slice(2).map((l) => l.split(' ')[0])).toEqual(['a', 'FP8', 'speculative']);
    expect(text(servingSections(ask({ model: 'llama3.1-405b', gpus: '8' }).view)['.answer'])[1]).toBe('To hold the model, try:');
  });

  it('has no list when a plan serves', () => {
    expect(servingSections(ask().view)['.answer']).not.toContain('remedies');
  });
});
