import { describe, expect, it } from 'vitest';
import { inferenceRequestJsonSchema, runInference, validateInferenceResponse } from '../../src/index.ts';
import { served, type InferenceOk } from '../support/inference.ts';
import { inferenceBoundsText, INTERACTIVE_TTFT_SECONDS } from '../../src/search/inference-messages.ts';

const request = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512 };
const pointsOf = (a: InferenceOk) => [...a.frontier, ...(a.best ? [a.best] : []), ...a.byShape.flatMap((s) => (s.ok ? [s.largestBatch] : []))];
const ttft = /^the best plan's time to first token is /;

describe('inference request: batching and gpus', () => {
  it.each([['dynamic'], [''], [1], [null]])('batching %j is invalid, with the issue at batching', (batching) => {
    const a = runInference({ ...request, batching });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.reason).toBe('invalid');
    expect(a.issues.map((i) => i.path)).toEqual(['batching']);
  });

  it.each([[0], [1.5], [65_537], ['8']])('gpus %j is invalid, with the issue at gpus', (gpus) => {
    const a = runInference({ ...request, gpus });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.issues.map((i) => i.path)).toEqual(['gpus']);
  });

  it('the JSON Schema states batching\'s values and static default, and the bounds of gpus', () => {
    const { batching, gpus } = inferenceRequestJsonSchema.properties!;
    expect(batching).toMatchObject({ enum: ['static', 'continuous'], default: 'static' });
    expect(batching!.description).toMatch(/Orca.*vLLM.*Sarathi-Serve/);
    expect(gpus).toMatchObject({ type: 'integer', minimum: 1, maximum: 65_536 });
  });
});

describe('inference answer: batching and replicas on each point', () => {
  it('by default every point is static and has no replicas, and the answer validates', () => {
    const a = served({ ...request, tensor: [8], pipeline: [1, 2] });
    expect(pointsOf(a).length).toBeGreaterThan(0);
    for (const p of pointsOf(a)) expect([p.batching, p.replicas]).toEqual(['static', undefined]);
    expect(validateInferenceResponse(a)).toEqual({ ok: true, value: a });
  });

  it('continuous on 8 GPUs: each point is continuous, 8 / (TP × PP) replicas, and the answer validates', () => {
    const a = served({ ...request, batching: 'continuous', gpus: 8, maxDecodeSecondsPerToken: 0.05 });
    expect(a.best).toBeDefined();
    for (const p of pointsOf(a)) {
      expect(p.batching).toBe('continuous');
      expect(p.replicas! * p.tensor * p.pipeline).toBe(8);
    }
    expect(a.byShape.every((s) => 8 % (s.tensor * s.pipeline) === 0)).toBe(true);
    expect(validateInferenceResponse(a)).toEqual({ ok: true, value: a });
  });

  it('an answer from before batching, replicas and unservable still validates', () => {
    const a = served({ ...request, gpus: 8, tensor: [8], pipeline: [1] });
    const older = JSON.parse(JSON.stringify(a, (k, v) => (k === 'batching' || k === 'replicas' || k === 'unservable' ? undefined : v))) as InferenceOk;
    expect(JSON.stringify(older)).not.toMatch(/batching|replicas/);
    expect(validateInferenceResponse(older)).toEqual({ ok: true, value: older });
  });

  it('continuous batching brings the best plan\'s first token under the interactive 2 s where static keeps it past', () => {
    const bounded = { ...request, maxDecodeSecondsPerToken: 0.05 };
    const stat = served(bounded);
    const cont = served({ ...bounded, batching: 'continuous' });
    expect(stat.best!.prefillSeconds).toBeGreaterThan(INTERACTIVE_TTFT_SECONDS);
    expect(cont.best!.prefillSeconds).toBeLessThan(INTERACTIVE_TTFT_SECONDS);
  });
});

describe('the time-to-first-token warning names the batching', () => {
  const interactive = { ...request, maxDecodeSecondsPerToken: 0.05 };

  it('static: the batch is prefilled together, and continuous batching is suggested', () => {
    const warning = served(interactive).warnings?.find((w) => ttft.test(w));
    expect(warning).toMatch(/prompts is prefilled together \(a static batch: use batching "continuous" to admit prompts as sequences finish\)/);
  });

  it('continuous, under 2 s: nothing is said', () => {
    expect(served({ ...interactive, batching: 'continuous' }).warnings?.some((w) => ttft.test(w))).toBe(false);
  });

  it('continuous, a 48k-token prompt past 2 s: one prompt\'s prefill and a running iteration, never a batch prefilled together', () => {
    const a = served({ ...interactive, promptTokens: 49_152, tensor: [8], pipeline: [1], batching: 'continuous', maxDecodeSecondsPerToken: 0.2 });
    expect(a.best!.prefillSeconds).toBeGreaterThan(INTERACTIVE_TTFT_SECONDS);
    const warning = a.warnings?.find((w) => ttft.test(w));
    expect(warning).toContain(`one prompt's prefill plus waiting for a running iteration of its ${a.best!.batch} sequences (continuous batching)`);
    expect(warning).not.toMatch(/prefilled together|use batching/);
  });

  it('continuous at batch 1 (QA: Llama 3 70B, a 64k-token prompt, 20 ms a token on 8 H100s): its prefill alone, no running iteration waited for', () => {
    const long = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 65_536, outputTokens: 256 };
    const a = served({ ...long, gpus: 8, batching: 'continuous', maxDecodeSecondsPerToken: 0.02 });
    // A second slot would add the other's 64k-token prefill, over 4 s, spread over 256 tokens: 16 ms more a token than the
    // 12 ms decode step, past 20 ms. Alone, a token every decode step, as static batching's (before: "no plan", 28.3 ms,
    // its own prefill counted in its tokens).
    expect(a.best!.batch).toBe(1);
    const shape = { tensor: [a.best!.tensor], pipeline: [a.best!.pipeline], batches: [1] };
    expect(a.best!.decodeStepSeconds).toBe(served({ ...long, ...shape }).best!.decodeStepSeconds);
    const warning = a.warnings?.find((w) => ttft.test(w));
    expect(warning).toContain('it is one prompt\'s prefill alone (continuous batching)');
    expect(warning).not.toMatch(/1 sequences|running iteration/);
  });
});

describe('an answer where nothing serves says why in unservable, and still as the first warning', () => {
  it('out of memory on every shape: the widest shape\'s reason', () => {
    const a = served({ ...request, tensor: [1], pipeline: [1] });
    expect(a.unservable).toMatch(/^no tensor × pipeline shape tried can serve the model .* TP 1 · PP 1: needs .* per GPU/);
    expect(a.warnings![0]).toBe(a.unservable);
    expect(validateInferenceResponse(a)).toEqual({ ok: true, value: a });
  });

  it('no shape given divides the GPUs: nothing is tried, and unservable says so', () => {
    const a = served({ ...request, tensor: [8], gpus: 4 });
    expect(a.byShape).toEqual([]);
    expect(a.unservable).toBe('no tensor × pipeline shape tried divides the 4 GPUs given (gpus): give tensor and pipeline degrees whose product divides it');
    expect(a.warnings![0]).toBe(a.unservable);
    expect(validateInferenceResponse(a)).toEqual({ ok: true, value: a });
  });

  it('a model some shape serves has no unservable', () => {
    const a = served({ ...request, tensor: [8], pipeline: [1], gpus: 16 });
    expect(a.unservable).toBeUndefined();
    expect(a.byShape[0]).toMatchObject({ ok: true, largestBatch: { replicas: 2 } });
  });
});

describe('inference request: a prefill chunk', () => {
  it.each([[0], [2.5], ['512']])('prefillChunkTokens %j is invalid, with the issue at prefillChunkTokens', (prefillChunkTokens) => {
    const a = runInference({ ...request, batching: 'continuous', prefillChunkTokens });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.issues.map((i) => i.path)).toEqual(['prefillChunkTokens']);
  });

  it('a chunk with static batching (given or by default) is refused: static batches prefill every prompt at once', () => {
    for (const batching of ['static', undefined]) {
      const a = runInference({ ...request, ...(batching && { batching }), prefillChunkTokens: 512 });
      expect(a.ok).toBe(false);
      if (a.ok) return;
      expect(a.issues).toEqual([{ path: 'prefillChunkTokens', message: expect.stringMatching(/continuous batching/) }]);
    }
  });

  it('each point states its chunk; chunks of 256 tokens decode faster and answer the first token later than whole prompts', () => {
    const one = { ...request, batching: 'continuous', tensor: [8], pipeline: [1], batches: [64] };
    const whole = served(one).best!;
    const chunked = served({ ...one, prefillChunkTokens: 256 });
    expect(whole.prefillChunkTokens).toBeUndefined();
    expect(pointsOf(chunked).every((p) => p.prefillChunkTokens === 256)).toBe(true);
    expect(chunked.best!.decodeStepSeconds).toBeLessThan(whole.decodeStepSeconds);
    expect(chunked.best!.prefillSeconds).toBeGreaterThan(whole.prefillSeconds);
    expect(validateInferenceResponse(chunked)).toEqual({ ok: true, value: chunked });
  });
});

describe('inferenceBoundsText: the bounds in words, as the CLI, the widget and the bot say them', () => {
  it('per token first, then to the first token; a bound that is not a number is left out; none is undefined', () => {
    expect(inferenceBoundsText({ maxDecodeSecondsPerToken: 0.05, maxPrefillSeconds: 2 })).toBe('≤ 50.0 ms per token, ≤ 2.00 s to the first token');
    expect(inferenceBoundsText({ maxPrefillSeconds: 2, maxDecodeSecondsPerToken: '50' })).toBe('≤ 2.00 s to the first token');
    expect(inferenceBoundsText({})).toBeUndefined();
    expect(inferenceBoundsText({ maxDecodeSecondsPerToken: 0.03, requestsPerSecond: 1500 })).toBe('≤ 30.0 ms per token, 1,500 requests/s');
  });
});
