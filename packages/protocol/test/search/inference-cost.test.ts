import { describe, expect, it } from 'vitest';
import { inferenceRequestJsonSchema, validateInferenceResponse } from '../../src/index.ts';
import { inferenceIssues, served } from '../support/inference.ts';

const request = { model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 256, batching: 'continuous' };

describe('inference request: pricePerGpuHour', () => {
  it.each([[0], [-2], ['2'], [null], [1e6]])('%j is invalid, with the issue at pricePerGpuHour', (pricePerGpuHour) => {
    expect(inferenceIssues({ ...request, pricePerGpuHour }).map((i) => i.path)).toEqual(['pricePerGpuHour']);
  });

  it('the JSON Schema says what the cost counts', () => {
    expect(inferenceRequestJsonSchema.properties!.pricePerGpuHour!.description).toMatch(/a million generated tokens/);
  });

  it('every point gives a million tokens\' cost, its GPUs\' time over the tokens they make; without a price none does', () => {
    const a = served({ ...request, pricePerGpuHour: 2.5 });
    for (const p of [...a.frontier, a.best!]) {
      expect(p.cost!.perMillionOutputTokens).toBeCloseTo((1e6 * 2.5) / 3600 / p.tokensPerSecondPerGpu, 9);
      expect(p.cost!.perHour).toBeUndefined();
    }
    expect(served(request).best).not.toHaveProperty('cost');
    expect(validateInferenceResponse(a)).toEqual({ ok: true, value: a });
  });

  it('with a rate: the hour of the GPUs it needs, and a token at the load served costs more than at full throughput (idle slots paid)', () => {
    const a = served({ ...request, requestsPerSecond: 20, maxDecodeSecondsPerToken: 0.03, pricePerGpuHour: 2.5 });
    const best = a.best!;
    expect(best.cost!.perHour).toBeCloseTo(best.load!.gpus * 2.5, 9);
    expect(best.cost!.perMillionOutputTokens).toBeCloseTo((1e6 * best.load!.gpus * 2.5) / 3600 / (20 * 256), 9);
    const fullThroughput = (1e6 * 2.5) / 3600 / best.tokensPerSecondPerGpu;
    expect(best.cost!.perMillionOutputTokens).toBeCloseTo(fullThroughput / best.load!.utilization, 6);
    expect(validateInferenceResponse(a)).toEqual({ ok: true, value: a });
  });
});
