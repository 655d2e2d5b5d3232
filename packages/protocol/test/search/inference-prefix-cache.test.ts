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

  it('every point splits its KV cache: the cached prefix, held once (whole 16-token blocks), and the rest per sequence', () => {
    // Llama 3 70B on TP 8: 2 × 80 layers × 1 KV head × 128 dims × 2 bytes = 40 KiB a token on each GPU.
    const perToken = 2 * 80 * 128 * 2;
    const shared = served({ ...request, sharedPrefixTokens: 1000, batches: [1, 64] });
    for (const p of shared.frontier) {
      expect(p.cachedPrefixTokens).toBe(992);
      expect(p.sharedKvCacheBytesPerGpu).toBe(992 * perToken);
      // The rest, per sequence (paged): the 1,056 prompt tokens past the blocks, (512 + 1)/2 output tokens on average
      // and half a block's waste, 1,320 tokens.
      expect(p.kvCacheBytesPerGpu - p.sharedKvCacheBytesPerGpu!).toBe(p.batch * (2048 - 992 + 513 / 2 + 15 / 2) * perToken);
    }
    // A prefix under one block caches nothing, and says so; without a prefix, neither field.
    const short = served({ ...request, sharedPrefixTokens: 10 });
    expect(short.best).toMatchObject({ cachedPrefixTokens: 0, sharedKvCacheBytesPerGpu: 0 });
    expect(served(request).best).not.toHaveProperty('cachedPrefixTokens');
    expect(validateInferenceResponse(shared)).toEqual({ ok: true, value: shared });
  });
});
