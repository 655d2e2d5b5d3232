import { describe, expect, it } from 'vitest';
import { inferenceRequestJsonSchema, validateInferenceResponse } from '../../src/index.ts';
import { inferenceIssues, served } from '../support/inference.ts';

const request = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, tensor: [8], pipeline: [1], batches: [1, 512] };
const speculative = { draftModel: 'llama3.2-1b', draftTokens: 4, acceptanceRate: 0.7 };

describe('inference request: speculative', () => {
  it.each([
    [{ ...speculative, draftTokens: 0 }, 'speculative.draftTokens'],
    [{ ...speculative, draftTokens: 17 }, 'speculative.draftTokens'],
    [{ ...speculative, acceptanceRate: 0 }, 'speculative.acceptanceRate'],
    [{ ...speculative, acceptanceRate: 1.2 }, 'speculative.acceptanceRate'],
    [{ ...speculative, draftModel: 'llama-1b' }, 'speculative.draftModel'],
  ])('%j is invalid at %s', (spec, path) => {
    expect(inferenceIssues({ ...request, speculative: spec }).map((i) => i.path)).toEqual([path]);
  });

  it('an unknown draft model is named with a suggestion, at the draft\'s field', () => {
    const [issue] = inferenceIssues({ ...request, speculative: { ...speculative, draftModel: 'llama3.2-1' } });
    expect(issue).toEqual({ path: 'speculative.draftModel', message: expect.stringMatching(/^unknown model "llama3\.2-1" \(did you mean llama3\.2-1b\?\)/) });
  });

  it('a draft of another tokenizer (GPT-3\'s 51,200-token vocabulary for a Llama 3) is refused at the draft, naming both vocabularies', () => {
    const [issue, ...rest] = inferenceIssues({ ...request, speculative: { ...speculative, draftModel: 'gpt3-126m' } });
    expect(rest).toEqual([]);
    expect(issue).toEqual({ path: 'speculative.draftModel', message: expect.stringMatching(/51,200 tokens.*128,256 tokens.*tokenizer/) });
  });

  it('a draft at least as large as its target is refused: it cannot make a token cheaper than the target\'s own step', () => {
    const [issue] = inferenceIssues({ ...request, speculative: { ...speculative, draftModel: 'llama3.1-405b' } });
    expect(issue).toEqual({ path: 'speculative.draftModel', message: expect.stringMatching(/is not smaller than Llama 3 70B/) });
    // The same family, smaller: taken (Llama 3 8B for Llama 3.1 405B shares the 128,256-token vocabulary).
    expect(inferenceIssues({ ...request, model: 'llama3.1-405b', speculative: { ...speculative, draftModel: 'llama3-8b' } })).toEqual([]);
  });

  it('the JSON Schema states the formula and where speculation pays', () => {
    expect(inferenceRequestJsonSchema.properties!.speculative!.description).toMatch(/\(1 − α\^\(γ\+1\)\)\/\(1 − α\).*memory-bound/);
  });
});

describe('inference answer with speculative decoding (Llama 3 70B, TP 8, a Llama 3.2 1B draft)', () => {
  it('each point carries its figures; alone a token comes sooner, at batch 512 later; the answer validates', () => {
    const plain = served(request);
    const spec = served({ ...request, speculative });
    const at = (a: typeof plain, batch: number) => a.frontier.concat(a.byShape.flatMap((s) => (s.ok ? [s.largestBatch] : []))).find((p) => p.batch === batch)!;
    expect(at(spec, 1).speculation).toMatchObject({ draftTokens: 4, acceptanceRate: 0.7, draftTensor: 8 });
    expect(at(spec, 1).speculation!.tokensPerStep).toBeCloseTo((1 - 0.7 ** 5) / 0.3, 12);
    expect(at(spec, 1).decodeStepSeconds).toBeLessThan(at(plain, 1).decodeStepSeconds);
    expect(at(plain, 1).speculation).toBeUndefined();
    expect(validateInferenceResponse(spec)).toEqual({ ok: true, value: spec });
  });

  it('with pipeline parallelism the shape is refused, saying so', () => {
    const a = served({ ...request, pipeline: [2], speculative });
    const shape = a.byShape[0]!;
    expect(shape.ok).toBe(false);
    if (!shape.ok) expect(shape.message).toMatch(/^speculative decoding is modelled on one pipeline stage/);
  });
});
