import { describe, expect, it } from 'vitest';
import { inferenceRequestJsonSchema, runInference, validateInferenceResponse } from '../../src/index.ts';
import { served, type InferenceOk } from '../support/inference.ts';

const request = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, tensor: [8], pipeline: [1] };
const largest = (a: InferenceOk) => {
  const shape = a.byShape[0]!;
  if (!shape.ok) throw new Error(shape.message);
  return shape.largestBatch;
};

describe('inference request: kvCachePrecision', () => {
  it.each([['int8'], ['FP8'], [8], [null]])('%j is invalid, with the issue at kvCachePrecision', (kvCachePrecision) => {
    const a = runInference({ ...request, kvCachePrecision });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.issues.map((i) => i.path)).toEqual(['kvCachePrecision']);
  });

  it('the JSON Schema lists the formats and names the engines\' settings it stands for', () => {
    const field = inferenceRequestJsonSchema.properties!.kvCachePrecision!;
    expect(field).toMatchObject({ enum: ['fp16', 'bf16', 'fp8'] });
    expect(field.description).toMatch(/vLLM's kv_cache_dtype/);
  });

  it('without it nothing changes and no point names it; the weights\' own precision named gives the same figures', () => {
    const plain = largest(served(request));
    expect(plain.kvCachePrecision).toBeUndefined();
    const named = largest(served({ ...request, kvCachePrecision: 'bf16' }));
    expect(named).toEqual({ ...plain, kvCachePrecision: 'bf16' });
  });

  it('an FP8 cache on 16-bit weights: the weights stay, the cache per sequence halves, more sequences fit, and the answer validates', () => {
    const plain = largest(served(request));
    const a = served({ ...request, kvCachePrecision: 'fp8' });
    const fp8 = largest(a);
    expect(fp8.kvCachePrecision).toBe('fp8');
    expect(fp8.weightsBytesPerGpu).toBe(plain.weightsBytesPerGpu);
    expect(fp8.kvCacheBytesPerGpu / fp8.batch).toBe(plain.kvCacheBytesPerGpu / plain.batch / 2);
    // Each sequence's cache halves; its prompt's activations, prefilled with the static batch's, stay: more, but fewer than twice, fit.
    expect(fp8.maxBatch).toBeGreaterThan(1.25 * plain.maxBatch);
    expect(fp8.maxBatch).toBeLessThan(2 * plain.maxBatch);
    expect(validateInferenceResponse(a)).toEqual({ ok: true, value: a });
  });

  it('FP8 weights with a 16-bit cache keep the 16-bit cache (vLLM\'s default for an FP8 checkpoint without KV scales)', () => {
    const plain = largest(served({ ...request, batches: [64] }));
    const mixed = largest(served({ ...request, batches: [64], precision: 'fp8', kvCachePrecision: 'bf16' }));
    expect(mixed.kvCacheBytesPerGpu).toBe(plain.kvCacheBytesPerGpu);
    expect(mixed.weightsBytesPerGpu).toBeLessThan(0.55 * plain.weightsBytesPerGpu);
  });

  it('an FP8 cache runs on an A100 (no FP8 tensor cores needed); a BF16 cache on a V100 is refused at kvCachePrecision', () => {
    expect(runInference({ ...request, model: 'llama2-7b', cluster: { gpu: 'a100-80gb' }, kvCachePrecision: 'fp8' }).ok).toBe(true);
    const v100 = runInference({ ...request, model: 'llama2-7b', cluster: { gpu: 'v100-32gb' }, kvCachePrecision: 'bf16' });
    expect(v100.ok).toBe(false);
    if (v100.ok) return;
    expect(v100.issues).toEqual([{ path: 'kvCachePrecision', message: expect.stringMatching(/no BF16 tensor cores: use kvCachePrecision "fp16", or kvCachePrecision "fp8"/) }]);
    expect(runInference({ ...request, model: 'llama2-7b', cluster: { gpu: 'v100-32gb' }, kvCachePrecision: 'fp16' }).ok).toBe(true);
  });
});
