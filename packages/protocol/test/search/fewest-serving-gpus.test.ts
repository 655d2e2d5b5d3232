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

describe('fewestServingGpus: the count the failure remedy names, for surfaces other than the CLI', () => {
  it.each([['with latency bounds', { ...base, ...bounds }], ['without bounds', base]])('%s: the fewest counts with a plan, and the count the remedy text names', (_, request) => {
    const a = served(request);
    expect(a.unservable).toBeDefined();
    const found = fewestServingGpus(a, request, retryInference(request));
    expect(found).toBeDefined();
    const { gpus, best } = found!;
    // By hand: 754 GiB of weights need at least 10 GPUs; a power-of-two replica would take 16.
    expect(gpus).toBeGreaterThanOrEqual(10);
    expect(gpus).toBeLessThan(16);
    noneBelow(request, 8, gpus);
    // Its plan is the plan `--gpus N` gives, within the bounds where there are bounds.
    expect(best).toEqual(served({ ...request, gpus }).best);
    if ('maxDecodeSecondsPerToken' in request) expect(best.decodeStepSeconds).toBeLessThanOrEqual(0.2);
    const text = inferenceFailureText(a, request, { fromFlags: true, unservable: a.unservable }, retryInference(request));
    expect(text).toContain(`give --gpus ${gpus}`);
  });

  it('names no count where the answer has a plan', () => {
    const request = { ...base, gpus: 16 };
    const a = served(request);
    expect(a.best).toBeDefined();
    expect(fewestServingGpus(a, request, retryInference(request))).toBeUndefined();
  });

  it('names no count where the batches asked for are the remedy (the remedy text names batches instead)', () => {
    const request = { ...base, gpus: 16, batches: [100_000] };
    const a = served(request);
    expect(a.unservable).toBeDefined();
    expect(fewestServingGpus(a, request, retryInference(request))).toBeUndefined();
    expect(inferenceFailureText(a, request, { fromFlags: false, unservable: a.unservable }, retryInference(request))).toMatch(/ask for batches that fit in memory/);
  });

  it('names no count without GPUs given', () => {
    const request = { ...base, gpus: undefined, model: 'llama3.1-405b', cluster: { gpu: 'a100-40gb' }, pipeline: [1], tensor: [8] };
    const a = served(request);
    expect(a.unservable).toBeDefined();
    expect(fewestServingGpus(a, request, retryInference(request))).toBeUndefined();
  });
});
