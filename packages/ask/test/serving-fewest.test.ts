import { describe, expect, it } from 'vitest';
import { inferenceFailureText, retryInference, runInference } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import { ASKS_FEWEST_GPUS } from '../src/answer/serving-fewest.ts';
import { figure, type Served } from './support/serving.ts';

const options = { publicUrl: null, today: '2026-11-28' } as const;

/**
 * The request the bot sends for a question with its defaults, which it says among its assumptions: 2,048 prompt tokens and
 * 512 generated, 200 ms a token and 2 s to the first, BF16, continuous batching (`trainplan inference --model … --gpu …
 * --prompt 2048 --output 512 --max-token-ms 200 --max-ttft-s 2 --gpus N`).
 */
const request = (model: string, gpu: string, gpus: number, extra: Record<string, unknown> = {}) => ({
  model, cluster: { gpu }, promptTokens: 2048, outputTokens: 512, batching: 'continuous', gpus,
  maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2, ...extra,
});

describe('"minimum number of GPUs to serve" is answered with the fewest GPUs that serve, as the CLI names them', () => {
  it('"what is the minimum number of H100s to serve llama 3 70b": 2 GPUs as TP 2 · PP 1, the count the CLI\'s --gpus 1 remedy names', () => {
    const a = ask('what is the minimum number of H100s to serve llama 3 70b', options);
    // QA: answered "TP 2 · PP 8" (16 GPUs), the plan of most tokens/s per GPU. By hand: 70.6B parameters × 2 bytes =
    // 131 GiB of BF16 weights, over one H100's 79.6 GiB: no one GPU holds them, two (65.7 GiB each) do.
    expect(a.headline).toMatch(/^Llama 3 70B on H100 SXM5 80GB: 2 GPUs are the fewest that serve it within the bounds \(the count the CLI's inference names\): TP 2 · PP 1 serves /);
    expect(a.configuration).toMatch(/^TP 2 · PP 1 · batch [\d,]+ · BF16 · 2,048 prompt tokens \+ 512 output tokens$/);
    expect(figure(a, 'Replica')).toBe('TP 2 · PP 1: 2 GPUs');
    // The CLI: `trainplan inference --model llama3-70b --gpu h100-sxm --prompt 2048 --output 512 --gpus 1` says "give --gpus 2, the fewest that serve".
    const one = request('llama3-70b', 'h100-sxm', 1);
    const onOne = runInference(one) as Served;
    const remedy = inferenceFailureText(onOne, one, { fromFlags: true, unservable: onOne.unservable }, retryInference(one));
    expect(remedy).toMatch(/give --gpus 2\b/);
  });

  it('"fewest A100 40GB GPUs to serve llama 2 7b": one GPU, which holds its 12.6 GiB of weights', () => {
    const a = ask('fewest A100 40GB GPUs to serve llama 2 7b', options);
    // QA: answered TP 4 · PP 2 (8 GPUs). By hand: 6.74B parameters × 2 bytes = 13.5 GB = 12.6 GiB, a third of the 39.6 GiB an
    // A100 40GB gives; a plan on one GPU within the bounds is the fewest there can be.
    expect(a.headline).toMatch(/^Llama 2 7B on A100 SXM4 40GB: 1 GPU is the fewest that serves it within the bounds: TP 1 · PP 1 serves /);
    expect(figure(a, 'Replica')).toBe('TP 1 · PP 1: 1 GPU');
    expect(figure(a, 'Memory per GPU')).toMatch(/: weights 12\.6 GiB, /);
    // Its plan keeps the bounds assumed: a token within 200 ms.
    expect(Number(/^([\d.]+) ms/.exec(figure(a, 'Time per output token'))?.[1])).toBeLessThanOrEqual(200);
  });

  it.each([
    'min gpus to serve llama 3 70b on h100',
    'how few h100s can serve llama 3 70b',
    'smallest number of H100 GPUs needed to serve llama 3 70b',
    'least number of h100 to serve llama 3 70b',
  ])('"%s": the same 2 GPUs', (question) => {
    expect(ask(question, options).headline).toMatch(/: 2 GPUs are the fewest that serve it within the bounds .*: TP 2 · PP 1 serves /);
  });

  it('where one GPU holds the model but misses the bounds, the fewest whose plan meets them: llama 3 8b at 6 ms a token on H100 is 2', () => {
    // By hand: a decode step reads all 16.1 GB of Llama 3 8B's BF16 weights (8.03B × 2 bytes) from HBM at 3.35 TB/s, 4.8 ms
    // before any other cost: one GPU is past 6 ms with what the model adds, two (each reading half) are not.
    const onOne = runInference(request('llama3-8b', 'h100-sxm', 1, { maxDecodeSecondsPerToken: 0.006 })) as Served;
    expect(onOne.unservable).toBeUndefined();
    expect(onOne.best).toBeUndefined();
    const a = ask('fewest h100s to serve llama 3 8b at 6 ms per token', options);
    expect(a.headline).toMatch(/^Llama 3 8B on H100 SXM5 80GB: 2 GPUs are the fewest that serve it within the bounds: TP 2 · PP 1 serves .*\(≤ 6\.00 ms per token, ≤ 2\.00 s to the first token\)$/);
    expect(Number(/^([\d.]+) ms/.exec(figure(a, 'Time per output token'))?.[1])).toBeLessThanOrEqual(6);
  });

  it('a count named, or a rate, keeps its own answer: the fewest are not searched past them', () => {
    expect(ask('minimum number of gpus to serve llama 3 70b on 8 h100', options).headline).toMatch(/^Llama 3 70B on 8 × H100 SXM5 80GB: (?!.*fewest)/);
    // At a rate the plan is already the fewest GPUs for it ("96 GPUs serve 100 requests/s").
    expect(ask('min gpus to serve llama 3 70b at 100 qps', options).headline).toMatch(/^Llama 3 70B on H100 SXM5 80GB: [\d,]+ GPUs serve 100 requests\/s /);
  });

  it.each([
    ['what is the minimum number of H100s to serve llama 3 70b', true],
    ['fewest A100 40GB GPUs to serve llama 2 7b', true],
    ['the minimum NVIDIA H100 SXM GPUs to serve 70b', true],
    // A count stated, the GPUs' memory, a kind of GPU, a latency: no count asked.
    ['serve llama 3 70b with at least 8 GPUs', false],
    ['minimum gpu memory to serve llama 3 70b', false],
    ['what is the smallest gpu to serve llama 3 8b', false],
    ['minimum latency on h100 for llama 3 8b', false],
    ['fewest gpu hours to serve llama 3 8b', false],
  ])('"%s" asks the fewest GPUs: %s', (question, asks) => {
    expect(ASKS_FEWEST_GPUS.test(question)).toBe(asks);
    if (asks) expect(parse(question).intent).toBe('serving');
  });
});
