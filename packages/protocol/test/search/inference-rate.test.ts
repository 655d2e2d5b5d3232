import { describe, expect, it } from 'vitest';
import { inferenceRequestJsonSchema, validateInferenceResponse } from '../../src/index.ts';
import { inferenceBoundsText, rateFirstTokenWarning } from '../../src/search/inference-messages.ts';
import { served, inferenceIssues } from '../support/inference.ts';

const request = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, batching: 'continuous', maxDecodeSecondsPerToken: 0.05 };

describe('inference request: requestsPerSecond', () => {
  it.each([[0], [-1], ['20'], [null], [2e6]])('%j is invalid, with the issue at requestsPerSecond', (requestsPerSecond) => {
    expect(inferenceIssues({ ...request, requestsPerSecond }).map((i) => i.path)).toEqual(['requestsPerSecond']);
  });

  it('with static batching it is refused beside the field', () => {
    const [issue] = inferenceIssues({ ...request, batching: 'static', requestsPerSecond: 20 });
    expect(issue).toEqual({ path: 'requestsPerSecond', message: expect.stringMatching(/^a request rate is served by continuous batching/) });
  });

  it('the JSON Schema says how the load is reckoned', () => {
    expect(inferenceRequestJsonSchema.properties!.requestsPerSecond!.description).toMatch(/M\/D\/b queue.*Erlang C.*Allen–Cunneen/);
  });
});

describe('inference answer with a request rate', () => {
  it('every point gives its load; the best needs the fewest GPUs, enough for the rate, and the answer validates', () => {
    const a = served({ ...request, requestsPerSecond: 20, maxPrefillSeconds: 2 });
    const points = [...a.frontier, a.best!];
    for (const p of points) {
      // The replicas finish more than the rate: tokens/s on their GPUs over 512 tokens a request.
      expect((p.load!.gpus * p.tokensPerSecondPerGpu) / 512).toBeGreaterThan(20);
      expect(p.load!.gpus).toBe(p.load!.replicas * p.tensor * p.pipeline);
      expect(p.load!.firstTokenSeconds).toBeCloseTo(p.prefillSeconds + p.load!.queueSeconds, 12);
    }
    expect(a.best!.load!.firstTokenSeconds).toBeLessThanOrEqual(2);
    const meeting = a.frontier.filter((p) => p.decodeStepSeconds <= 0.05 && p.load!.firstTokenSeconds <= 2);
    expect(meeting.length).toBeGreaterThan(0);
    expect(a.best!.load!.gpus).toBeLessThanOrEqual(Math.min(...meeting.map((p) => p.load!.gpus)));
    expect(validateInferenceResponse(a)).toEqual({ ok: true, value: a });
  });

  it('without a rate no point has a load', () => {
    expect(served(request).best!.load).toBeUndefined();
  });
});

describe('a tiny request rate is written to three figures, not as zero', () => {
  it.each([
    [1e-9, '1.00e-9 requests/s'],
    [1.2345e-7, '1.23e-7 requests/s'],
    [0.00025, '0.000250 requests/s'],
    [0.02, '0.0200 requests/s'],
    [20, '20 requests/s'],
  ])('%s requests/s reads "%s" in the bounds and the first-token warning (before, 1e-9: "0.000000 requests/s")', (requestsPerSecond, text) => {
    expect(inferenceBoundsText({ requestsPerSecond })).toBe(text);
    expect(rateFirstTokenWarning({ requestsPerSecond })).toEqual([expect.stringContaining(`the replicas for ${text} are sized`)]);
  });

  it('the answer to 1e-9 requests/s warns about "the replicas for 1.00e-9 requests/s"', () => {
    const a = served({ ...request, requestsPerSecond: 1e-9 });
    expect(a.warnings).toContainEqual(expect.stringMatching(/^no maxPrefillSeconds given: the replicas for 1.00e-9 requests\/s are sized /));
  });
});
