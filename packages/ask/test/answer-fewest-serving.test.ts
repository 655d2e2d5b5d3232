import { describe, expect, it } from 'vitest';
import { inferenceFailureText, retryInference, runInference, type InferenceResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { figure } from './support/serving.ts';

/**
 * Where nothing serves on the GPUs named, the bot's "closest that works" is the fewest GPUs that serve: the count the CLI's
 * `trainplan inference … --gpus 8` names on stderr (the protocol's inferenceFailureText with retryInference), computed here
 * from the request those flags build, not the power-of-two replica a run with no count finds (16 GPUs as TP 8 · PP 2).
 */
describe('the fewest GPUs that serve, where the GPUs named hold no replica', () => {
  const a = ask('can I serve llama3.1-405b on 8 H100', { publicUrl: null, today: '2026-11-28' });
  // `trainplan inference --model llama3.1-405b --gpu h100-sxm --prompt 2048 --output 512 --batching continuous --gpus 8
  // --max-token-ms 200 --max-ttft-s 2`: the bot's defaults (2,048 + 512 tokens, 200 ms a token, 2 s to the first), said in its assumptions.
  const request = {
    model: 'llama3.1-405b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, batching: 'continuous',
    gpus: 8, maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2,
  };

  it('uses the defaults the CLI comparison gives', () => {
    expect(a.assumptions).toContainEqual(expect.stringMatching(/^a 2,048-token prompt/));
    expect(a.assumptions).toContainEqual(expect.stringMatching(/^512 generated tokens per request/));
    expect(a.assumptions).toContainEqual(expect.stringMatching(/^first token within 2 s and each next within 200 ms/));
  });

  it('names the count and replica the protocol remedy (the CLI) names, fewer GPUs than the 16 of a power-of-two replica', () => {
    const served = runInference(request) as Extract<InferenceResponseJson, { ok: true }>;
    expect(served.ok && served.unservable !== undefined).toBe(true);
    const remedy = inferenceFailureText(served, request, { fromFlags: false, unservable: served.unservable }, retryInference(request));
    const m = /give gpus (\d+)[^:]*: a replica of TP (\d+) · PP (\d+)/.exec(remedy);
    expect(m).not.toBeNull();
    const [, gpus, tp, pp] = m!;
    expect(a.ok).toBe(false);
    // The precision and lengths planned follow, as every serving configuration says them: the defaults above, BF16 weights.
    expect(a.configuration).toBe(`closest that works, not what was asked: TP ${tp} · PP ${pp} on ${gpus} GPUs · BF16 · 2,048 prompt tokens + 512 output tokens`);
    // By hand: 405B parameters × 2 bytes = 810 GB = 754 GiB of weights over 79.6 GiB a GPU is 9.5 GPUs, so at least 10; fewer than 16.
    expect(Number(gpus)).toBeGreaterThanOrEqual(10);
    expect(Number(gpus)).toBeLessThan(16);
    // Its plan keeps the bounds: a token within 200 ms.
    const perToken = /^([\d.]+) ms/.exec(figure(a, 'Time per output token (closest)'))?.[1];
    expect(Number(perToken)).toBeLessThanOrEqual(200);
  });
});
