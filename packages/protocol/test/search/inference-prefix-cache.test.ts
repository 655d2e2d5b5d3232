import { describe, expect, it } from 'vitest';
import { inferenceRequestJsonSchema, validateInferenceResponse } from '../../src/index.ts';
import { served, inferenceIssues, type InferenceOk } from '../support/inference.ts';

const request = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, tensor: [8], pipeline: [1], batching: 'continuous' };

describe('inference request: sharedPrefixTokens', () => {
  it.each([[0], [1.5], ['512'], [null]])('%j is invalid, with the issue at sharedPrefixTokens', (sharedPrefixTokens) => {
    expect(inferenceIssues({ ...request, sharedPrefixTokens }).map((i) => i.path)).toEqual(['sharedPrefixTokens']);
  });

  it('with static batching it is refused beside the field, saying which batching shares a prefix', () => {
    const [issue] = inferenceIssues({ ...request, batching: 'static', sharedPrefixTokens: 512 });
    expect(issue).toEqual({ path: 'sharedPrefixTokens', message: expect.stringMatching(/^prefix caching applies to continuous batching/) });
  });

  it('a prefix longer than the prompt is refused, with both counts', () => {
    const [issue] = inferenceIssues({ ...request, sharedPrefixTokens: 4096 });
    expect(issue?.path).toBe('sharedPrefixTokens');
    expect(issue?.message).toBe('the shared prefix (4,096 tokens) is part of the prompt: at most promptTokens (2,048)');
  });

  it('the JSON Schema names the engines\' features it stands for', () => {
    const field = inferenceRequestJsonSchema.properties!.sharedPrefixTokens!;
    expect(field).toMatchObject({ type: 'integer', minimum: 1 });
    expect(field.description).toMatch(/vLLM's automatic prefix caching.*RadixAttention/);
  });

  it('every point carries it, more sequences fit and the first token comes sooner; the answer validates', () => {
    const plain = served(request);
    const shared = served({ ...request, sharedPrefixTokens: 1024 });
    const points = [...shared.frontier, ...(shared.best ? [shared.best] : [])];
    expect(points.every((p) => p.sharedPrefixTokens === 1024)).toBe(true);
    expect(plain.best!.sharedPrefixTokens).toBeUndefined();
    expect(shared.best!.maxBatch).toBeGreaterThan(1.7 * plain.best!.maxBatch);
    const firstToken = (a: InferenceOk) => a.frontier[0]!.prefillSeconds;
    expect(firstToken(shared)).toBeLessThan(firstToken(plain));
    expect(validateInferenceResponse(shared)).toEqual({ ok: true, value: shared });
  });
});
