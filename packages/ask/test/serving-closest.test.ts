import { inferenceFailureText, retryInference, runInference } from '@trainplan/protocol';
import { formatGrouped, formatSeconds } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

describe('a model that does not fit on the GPUs named for serving', () => {
  const a = ask('will 405B fit on 8 H100s for inference', { publicUrl: null });
  const seconds = (label: string): number => {
    const value = a.figures.find((f) => f.label === label)?.value ?? '';
    const m = /^([\d.]+) (ms|s)\b/.exec(value);
    if (m === null) throw new Error(`no time in ${label}: ${value}`);
    return Number(m[1]) * (m[2] === 'ms' ? 1e-3 : 1);
  };
  it('offers the fewest GPUs that serve, at a batch within the latency bounds, not its largest batch past them', () => {
    expect(a.ok).toBe(false);
    // 12 as TP 4 · PP 3, the CLI's remedy (answer-fewest-serving.test.ts); 16 as TP 8 · PP 2 before, powers of two alone tried.
    // Then the precision and lengths planned: no length asked, so the default 2,048-token prompt and 512 output tokens.
    expect(a.configuration).toMatch(/^closest that works, not what was asked: TP \d+ · PP \d+ on 12 GPUs · BF16 · 2,048 prompt tokens \+ 512 output tokens$/);
    // The default bounds: each next token within 200 ms, the first within 2 s.
    expect(seconds('Time per output token (closest)')).toBeLessThanOrEqual(0.2);
    expect(seconds('Time to first token (closest)')).toBeLessThanOrEqual(2);
    expect(a.notes[0]).toMatch(/^Closest that works: 12 GPUs \(TP \d+ · PP \d+\), the fewest that serve within the bounds \(the count the CLI's inference names\), hold it, with up to [\d,]+ requests at a time/);
  });
  it('says FP8 weights would fit on the 8 GPUs, and asked in FP8 they do', () => {
    expect(a.headline).toMatch(/; in FP8 weights it fits on 8 × H100 SXM5 80GB: TP \d+ · PP \d+ serves /);
    const fp8 = ask('will 405B fit on 8 H100s for inference in fp8', { publicUrl: null });
    expect(fp8.ok).toBe(true);
    expect(fp8.headline).toMatch(/fits/);
  });
  it('names no FP8 on a GPU without FP8 tensor cores', () => {
    const a100 = ask('will 405B fit on 8 A100 80GB for inference', { publicUrl: null });
    expect(a100.ok).toBe(false);
    expect(a100.headline).not.toMatch(/FP8/);
    expect(a100.notes.join(' ')).not.toMatch(/FP8/);
  });
});

/**
 * The request the CLI sends for `inference --model M --gpu G --gpus N --prompt 2048 --output 512 --batching continuous`
 * with the bounds the bot assumes (each next token within 200 ms, the first within 2 s), or others given in `bounds`.
 */
const cliRequest = (model: string, gpu: string, gpus: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  model, cluster: { gpu }, gpus, promptTokens: 2048, outputTokens: 512, maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2, batching: 'continuous', ...extra,
});

/** Whether the CLI's stderr for a request no shape holds offers FP8 weights: the protocol's own remedy, inferenceFailureText. */
function cliOffersFp8(request: Record<string, unknown>): boolean {
  const a = runInference(request);
  if (!a.ok || a.unservable === undefined) return false;
  return inferenceFailureText(a, request, { fromFlags: false, unservable: a.unservable }, retryInference(request)).includes('FP8 weights (precision "fp8")');
}

describe('a model whose BF16 weights do not fit the GPUs named: FP8 weights offered where the CLI offers them', () => {
  // By hand: BF16 weights take 2 bytes a parameter, FP8 one; an H100 holds 80 GB (79.6 GiB), an A100 has no FP8 tensor cores.
  it.each([
    ['will llama 3 70b fit on a single H100 for inference', true, cliRequest('llama3-70b', 'h100-sxm', 1)], // 141 GB no, 70.6 GB yes
    ['will llama 3 70b fit on a single H100 for inference at 20 ms per token', true, cliRequest('llama3-70b', 'h100-sxm', 1, { maxDecodeSecondsPerToken: 0.02 })], // holds, misses 20 ms
    ['will llama 3 70b fit on a single A100 80GB for inference', false, cliRequest('llama3-70b', 'a100-80gb', 1)], // no FP8 on an A100
    ['will 405B fit on 8 H100s for inference', true, cliRequest('llama3.1-405b', 'h100-sxm', 8)], // 810 GB over 640 GB no, 405 GB yes
    ['can I serve llama3.1-405b on one H100?', false, cliRequest('llama3.1-405b', 'h100-sxm', 1)], // 405 GB over 80 GB in FP8 too
    ['can I serve llama3.1-405b on one H100 in fp8', false, cliRequest('llama3.1-405b', 'h100-sxm', 1, { precision: 'fp8' })], // FP8 asked already
  ] as [string, boolean, Record<string, unknown>][])('%s: FP8 offered %s', (question, offered, request) => {
    const a = ask(question, { publicUrl: null });
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(/: does not fit for serving \(/);
    expect(cliOffersFp8(request)).toBe(offered);
    expect(a.headline.includes('; in FP8 weights it fits on ')).toBe(offered);
  });

  it('"will llama 3 70b fit on a single H100 for inference": the plan FP8 weights give on that 1 GPU, the one asking "in fp8" gets', () => {
    const a = ask('will llama 3 70b fit on a single H100 for inference', { publicUrl: null });
    // Still no fit as asked (BF16), so the CLI's exit 1 holds; the remedy follows the reason in the headline.
    expect(a.ok).toBe(false);
    const fp8 = runInference({ ...cliRequest('llama3-70b', 'h100-sxm', 1), precision: 'fp8' });
    if (!fp8.ok || fp8.best === undefined) throw new Error('no FP8 plan on 1 H100');
    const best = fp8.best;
    // One GPU holds one shape only: TP 1 · PP 1.
    expect([best.tensor, best.pipeline, best.gpus]).toEqual([1, 1, 1]);
    const plan = `TP 1 · PP 1 serves ${formatGrouped(best.tokensPerSecondPerGpu)} tokens/s per GPU at ${best.batch} concurrent requests, `
      + `${formatSeconds(best.decodeStepSeconds)} per token, first token in ${formatSeconds(best.prefillSeconds)}`;
    expect(a.headline).toMatch(/^Llama 3 70B on 1 × H100 SXM5 80GB: does not fit for serving \(TP 1 · PP 1: needs [\d.]+ GiB per GPU .*\); in FP8 weights it fits on 1 × H100 SXM5 80GB: /);
    expect(a.headline.endsWith(`; in FP8 weights it fits on 1 × H100 SXM5 80GB: ${plan}; ask again "in fp8" for its plan`)).toBe(true);
    // Asked again in FP8, that plan is the answer.
    const asked = ask('will llama 3 70b fit on a single H100 for inference in fp8', { publicUrl: null });
    expect(asked.ok).toBe(true);
    expect(asked.headline).toContain(`: fits; ${plan} (`);
    // Said once, in the headline, not again in a note.
    expect(a.notes.join(' ')).not.toMatch(/FP8/);
  });

  it('FP8 weights that fit but miss a latency bound are said as missing it', () => {
    const a = ask('will llama 3 70b fit on a single H100 for inference at 20 ms per token', { publicUrl: null });
    expect(a.headline).toMatch(/; in FP8 weights it fits on 1 × H100 SXM5 80GB \(TP 1 · PP 1 holds up to [\d,]+ requests at a time\), but no plan meets ≤ 20\.0 ms per token, ≤ 2\.00 s to the first token; ask again "in fp8" for its plan$/);
  });
});
