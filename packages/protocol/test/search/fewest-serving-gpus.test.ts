import { describe, expect, it } from 'vitest';
import { fewestServingGpus, inferenceFailureText, retryInference, runInference, type InferenceResponseJson } from '../../src/index.ts';

type Served = Extract<InferenceResponseJson, { ok: true }>;
const served = (request: Record<string, unknown>): Served => {
  const a = runInference(request);
  if (!a.ok) throw new Error(`not served: ${JSON.stringify(a)}`);
  return a;
};

/** Llama 3.1 405B in 16-bit on 8 H100s: 754 GiB of weights over 79.6 GiB a GPU, so no replica of 8 holds it. */
const base = { model: 'llama3.1-405b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, batching: 'continuous', gpus: 8 };
const bounds = { maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2 };

/** Every count from `from` below `to` has no plan: the count found is the fewest, checked by asking each. */
function noneBelow(request: Record<string, unknown>, from: number, to: number): void {
  for (let n = from; n < to; n++) expect(served({ ...request, gpus: n }).best).toBeUndefined();
}

/** The failure line the CLI prints for `request` (its stderr), with the fields as flags. */
const cliText = (a: Served, request: Record<string, unknown>): string =>
  inferenceFailureText(a, request, { fromFlags: true, unservable: a.unservable }, retryInference(request));

describe('fewestServingGpus: the fewest GPUs for another surface, from the search the failure remedy names its counts from', () => {
  it.each([['with latency bounds', { ...base, ...bounds }], ['without bounds', base]])('%s: the fewest count with a plan, the count the remedy text names', (_, request) => {
    const a = served(request);
    expect(a.unservable).toBeDefined();
    const found = fewestServingGpus(request, retryInference(request), a);
    const gpus = found?.serves?.gpus;
    // By hand: 754 GiB of weights need at least 10 GPUs; a power-of-two replica would take 16.
    expect(gpus).toBeGreaterThanOrEqual(10);
    expect(gpus).toBeLessThan(16);
    noneBelow(request, 8, gpus!);
    // Its plan is the plan `--gpus N` gives, within the bounds where there are bounds.
    expect(found!.serves!.best).toEqual(served({ ...request, gpus }).best);
    if ('maxDecodeSecondsPerToken' in request) expect(found!.serves!.best.decodeStepSeconds).toBeLessThanOrEqual(0.2);
    expect(found!.named).toBe(gpus);
    expect(cliText(a, request)).toContain(`give --gpus ${gpus}`);
  });

  it('where no count meets the bounds, the count named is the fewest that hold it, as the remedy says "give at least"', () => {
    const request = { ...base, maxDecodeSecondsPerToken: 0.01 };
    const a = served(request);
    const found = fewestServingGpus(request, retryInference(request), a)!;
    expect(found.serves).toBeUndefined();
    expect(found.named).toBe(found.holds);
    expect(cliText(a, request)).toContain(`give at least --gpus ${found.holds}, the fewest that hold it`);
    // The nearest plan is the one the remedy names, on its count.
    expect(cliText(a, request)).toContain(`the nearest is on ${found.nearest!.gpus} GPUs: ${found.nearest!.why}`);
  });

  it('names no count where the answer has a plan, but still finds the fewest', () => {
    const request = { ...base, gpus: 16 };
    const a = served(request);
    expect(a.best).toBeDefined();
    const found = fewestServingGpus(request, retryInference(request), a)!;
    expect(found.named).toBeUndefined();
    expect(found.serves!.gpus).toBeLessThan(16);
  });

  it('names no count where the batches asked for are the remedy, and finds the fewest GPUs that hold those batches', () => {
    // Llama 3 8B on one A100 of 80 GB holds its weights, not 512 requests' KV cache: the remedy offers fewer requests.
    const request = { model: 'llama3-8b', cluster: { gpu: 'a100-80gb' }, promptTokens: 2048, outputTokens: 512, batching: 'continuous', gpus: 1, batches: [512], ...bounds };
    const a = served(request);
    expect(a.unservable).toBeDefined();
    expect(cliText(a, request)).toMatch(/ask for batches that fit in memory/);
    const found = fewestServingGpus(request, retryInference(request), a)!;
    expect(found.named).toBeUndefined();
    const gpus = found.serves!.gpus;
    expect(served({ ...request, gpus }).best?.batch).toBe(512);
    noneBelow(request, 1, gpus);
  });

  it('names no count where a prompt prefilled in chunks is the remedy', () => {
    // A 400,000-token prompt's activations in one pass overflow one H100; in chunks of 8,192 they do not.
    const request = { model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, promptTokens: 400_000, outputTokens: 512, batching: 'continuous', gpus: 1 };
    const a = served(request);
    expect(cliText(a, request)).toMatch(/prefill the prompt in chunks/);
    const found = fewestServingGpus(request, retryInference(request), a)!;
    expect(found.named).toBeUndefined();
    expect(found.serves!.gpus).toBeGreaterThan(1);
  });

  it('names no count without a failed answer given', () => {
    const request = { ...base, ...bounds };
    expect(fewestServingGpus(request, retryInference(request))!.named).toBeUndefined();
  });
});
