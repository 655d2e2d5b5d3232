import { gpuById } from '@trainplan/presets';
import { describe, expect, it } from 'vitest';
import { inferenceRequestJsonSchema, runInference, validateInferenceResponse } from '../../src/index.ts';
import { served, type InferenceOk } from '../support/inference.ts';

const request = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, tensor: [8], pipeline: [1] };
const largest = (a: InferenceOk) => {
  const shape = a.byShape[0]!;
  if (!shape.ok) throw new Error(shape.message);
  return shape.largestBatch;
};

describe('inference request: gpuMemoryUtilization', () => {
  it.each([[0], [-0.5], [1.01], ['0.9'], [null]])('%j is invalid, with the issue at gpuMemoryUtilization', (gpuMemoryUtilization) => {
    const a = runInference({ ...request, gpuMemoryUtilization });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.issues.map((i) => i.path)).toEqual(['gpuMemoryUtilization']);
  });

  it('the JSON Schema states its bounds and names the engines\' settings it stands for', () => {
    const field = inferenceRequestJsonSchema.properties!.gpuMemoryUtilization!;
    expect(field).toMatchObject({ type: 'number', exclusiveMinimum: 0, maximum: 1 });
    expect(field.description).toMatch(/vLLM's gpu_memory_utilization/);
  });

  it('without it nothing changes: no usableBytesPerGpu, and 1 gives the same largest batch', () => {
    const plain = largest(served(request));
    expect(plain.usableBytesPerGpu).toBeUndefined();
    expect(largest(served({ ...request, gpuMemoryUtilization: 1 })).maxBatch).toBe(plain.maxBatch);
  });

  it('vLLM\'s 0.9: the usable memory is 0.9 of the capacity, fewer sequences fit, and the answer validates', () => {
    const plain = largest(served(request));
    const a = served({ ...request, gpuMemoryUtilization: 0.9 });
    const headroom = largest(a);
    expect(headroom.usableBytesPerGpu).toBeCloseTo(0.9 * headroom.capacityBytes, 0);
    expect(headroom.totalBytesPerGpu).toBeLessThanOrEqual(headroom.usableBytesPerGpu!);
    // 8 GB of headroom over 100 MiB of cache a sequence (2,560 tokens × 40 KiB per GPU on TP 8) and 106 MiB of its prompt's
    // activations (static batching prefills the batch's prompts together): 40 fewer.
    expect(plain.maxBatch - headroom.maxBatch).toBeGreaterThanOrEqual(39);
    expect(plain.maxBatch - headroom.maxBatch).toBeLessThanOrEqual(40);
    expect(validateInferenceResponse(a)).toEqual({ ok: true, value: a });
  });

  it('a utilization leaving no room past the weights: the shape says so with the usable figure', () => {
    const a = served({ ...request, gpuMemoryUtilization: 0.2 });
    const shape = a.byShape[0]!;
    expect(shape.ok).toBe(false);
    if (shape.ok) return;
    expect(shape.reason).toBe('out-of-memory');
    const capacity = gpuById('h100-sxm')!.hbmBytes;
    const gib = (x: number) => `${(x / 2 ** 30).toFixed(1)} GiB`;
    expect(shape.message).toContain(`${gib(0.2 * capacity)} of the NVIDIA H100 SXM5 80GB's ${gib(capacity)} may be used (gpuMemoryUtilization 0.2)`);
  });
});
