import { describe, expect, it } from 'vitest';
import { inferenceFailureText } from '../../src/search/inference-remedy.ts';
import { retryInference } from '../../src/search/inference-retry.ts';
import { ceilFigures, floorFigures } from '../../src/search/ceil-figures.ts';
import { inferenceRemedyText, remedyJson, slot, type Slots } from '../../src/search/inference-remedy-terms.ts';
import { runInference } from '../../src/search/inference.ts';
import type { InferenceResponseJson } from '../../src/search/inference-json.ts';

const served = (request: Record<string, unknown>): Extract<InferenceResponseJson, { ok: true }> => {
  const a = runInference(request);
  if (!a.ok) throw new Error(a.message);
  return a;
};
const remedy = (request: Record<string, unknown>): string => {
  const a = served(request);
  if (a.unservable === undefined) throw new Error('expected nothing to serve it');
  return inferenceFailureText(a, request, { fromFlags: true, unservable: a.unservable }, retryInference(request));
};

describe('ceilFigures', () => {
  it.each([
    [12.23, 12.3], [109.3, 110], [0.11998, 0.12], [12.2, 12.2], [1, 1], [0.0012231, 0.00123], [999.1, 1000],
  ])('rounds %d up to three significant figures: %d', (x, up) => {
    expect(ceilFigures(x)).toBe(up);
  });

  it('is never below its argument, so the plan a loosened bound comes from meets it', () => {
    for (let i = 1; i < 2000; i++) {
      const x = i * 0.0137;
      expect(ceilFigures(x)).toBeGreaterThanOrEqual(x);
      expect(ceilFigures(x) / x).toBeLessThan(1.01);
    }
  });
});

describe('floorFigures', () => {
  it.each([[12.38, 12.3], [0.0001497, 0.000149], [3.4299, 3.42], [1000.9, 1000], [5, 5]])('rounds %d down to three significant figures: %d', (x, down) => {
    expect(floorFigures(x)).toBe(down);
  });

  it('is never above its argument, so a rate served at x is written as one served too', () => {
    for (let i = 1; i < 2000; i++) {
      const x = i * 0.0137;
      expect(floorFigures(x)).toBeLessThanOrEqual(x);
      expect(x / floorFigures(x)).toBeLessThan(1.01);
    }
  });
});

describe('a remedy\'s fields, written by the request\'s JSON paths (the API) or as the flags that set them (the CLI)', () => {
  it.each([
    [{ field: 'gpus', value: 22 }, 'gpus 22', '--gpus 22'],
    // --max-token-ms is in ms: 0.0154 s is 15.4 ms (0.0154 × 1000 is 15.400000000000002 in floats, written 15.4).
    [{ field: 'maxDecodeSecondsPerToken', value: 0.0154 }, 'maxDecodeSecondsPerToken 0.0154', '--max-token-ms 15.4'],
    [{ field: 'maxPrefillSeconds', value: 2.5 }, 'maxPrefillSeconds 2.5', '--max-ttft-s 2.5'],
    [{ field: 'precision', value: 'fp8' }, 'precision "fp8"', '--precision fp8'],
    [{ field: 'speculative' }, 'speculative', '--draft-model'],
    [{ field: 'cluster.gpu' }, 'cluster.gpu', '--gpu'],
  ])('%o: "%s", or "%s"', (field, json, flag) => {
    const s: Slots = { fields: [] };
    const remedy = remedyJson(s, `give ${slot(s, field)}`);
    expect(remedy).toEqual({ message: `give ${json}`, fields: [field], template: 'give {0}' });
    expect(inferenceRemedyText(remedy, true)).toBe(`give ${flag}`);
  });

  it('fields given together are one change; fields taken but not named are left out, and the rest numbered as named', () => {
    const s: Slots = { fields: [] };
    const unused = slot(s, { field: 'gpus', value: 8 });
    const later = slot(s, { field: 'cluster.gpu' });
    const chunk = slot(s, { field: 'batching', value: 'continuous' }, { field: 'prefillChunkTokens', value: 8192 });
    const remedy = remedyJson(s, `prefill in chunks (${chunk}), or try ${later}`);
    expect(unused).toBe('{0}');
    expect(remedy.template).toBe('prefill in chunks ({0+1}), or try {2}');
    expect(remedy.fields.map((f) => f.field)).toEqual(['batching', 'prefillChunkTokens', 'cluster.gpu']);
    expect(remedy.message).toBe('prefill in chunks (batching "continuous", prefillChunkTokens 8192), or try cluster.gpu');
    expect(inferenceRemedyText(remedy, true)).toBe('prefill in chunks (--batching continuous --prefill-chunk 8192), or try --gpu');
  });
});

describe('the memory remedy for a prompt whose activations overflow in one forward pass', () => {
  // Llama 3 8B with a 4M-token prompt on H100s: by hand, the activations of 4,194,304 tokens in one pass dwarf 16 GB of
  // weights; in chunks of 8,192 an iteration holds one chunk's.
  const request = { model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, promptTokens: 4 * 1024 * 1024, outputTokens: 1024 };

  it('names chunked prefill, and the request changed so serves on the shape named', () => {
    const m = /prefill the prompt in chunks \(--batching continuous --prefill-chunk (\d+)\): TP (\d+) · PP (\d+)/.exec(remedy(request));
    expect(m).not.toBeNull();
    const chunked = served({ ...request, batching: 'continuous', prefillChunkTokens: Number(m![1]) });
    expect(chunked.unservable).toBeUndefined();
    expect(chunked.byShape.some((s) => s.ok && s.tensor === Number(m![2]) && s.pipeline === Number(m![3]))).toBe(true);
  });

  it('names no chunk where chunks do not help: on one GPU the 4M tokens\' KV cache alone (128 KiB a token: 512 GiB) overflows', () => {
    const huge = { ...request, tensor: [1], pipeline: [1] };
    expect(remedy(huge)).not.toContain('--prefill-chunk');
    expect(remedy({ ...huge, batching: 'continuous', prefillChunkTokens: 2048 })).not.toContain('--prefill-chunk');
  });
});
