import { describe, expect, it } from 'vitest';
import { estimateInference, kvCacheBytesPerToken, latencyThroughputFrontier, planInference, type InferenceEstimate } from '../src/index.ts';
import { llama70bBase } from './fixtures.ts';

const base = llama70bBase;

describe('KV cache', () => {
  it('Llama 2 70B keeps 2 × 80 layers × 8 KV heads × 128 dims × 2 bytes = 320 KiB per token (GQA)', () => {
    expect(kvCacheBytesPerToken(base, 1, 80)).toBe(2 * 80 * 8 * 128 * 2);
  });
  it('splits over tensor-parallel ranks down to one KV head per rank, then replicates', () => {
    const one = kvCacheBytesPerToken(base, 1, 80);
    expect(kvCacheBytesPerToken(base, 8, 80)).toBe(one / 8);
    expect(kvCacheBytesPerToken(base, 16, 80)).toBe(one / 8);
  });
  it('FP8 halves it', () => {
    expect(kvCacheBytesPerToken({ ...base, precision: 'fp8' }, 1, 80)).toBe(kvCacheBytesPerToken(base, 1, 80) / 2);
  });
});

describe('estimateInference', () => {
  const shape = { tensor: 8, pipeline: 1, promptTokens: 2048, outputTokens: 512 };

  it('70B in 16-bit does not fit one 80 GB GPU; it does on TP 8', () => {
    const single = estimateInference(base, { ...shape, tensor: 1, batch: 1 });
    expect(single.ok).toBe(false);
    expect(estimateInference(base, { ...shape, batch: 1 }).ok).toBe(true);
  });

  it('the largest batch fits and one more sequence does not', () => {
    const e = estimateInference(base, { ...shape, batch: 1 });
    if (!e.ok) throw new Error(e.message);
    expect(estimateInference(base, { ...shape, batch: e.maxBatch }).ok).toBe(true);
    expect(estimateInference(base, { ...shape, batch: e.maxBatch + 1 }).ok).toBe(false);
  });

  it('decoding one sequence is bound by HBM: at least the weights over the HBM bandwidth', () => {
    const e = estimateInference(base, { ...shape, batch: 1 });
    if (!e.ok) throw new Error(e.message);
    expect(e.memoryBound).toBe(true);
    expect(e.decodeStepSeconds).toBeGreaterThan(e.weightsBytesPerGpu / base.gpu.hbmBandwidth);
  });

  it('batching raises tokens/s per GPU and the per-token latency', () => {
    const one = estimateInference(base, { ...shape, batch: 1 });
    const many = estimateInference(base, { ...shape, batch: 64 });
    if (!one.ok || !many.ok) throw new Error('expected both to fit');
    expect(many.tokensPerSecondPerGpu).toBeGreaterThan(10 * one.tokensPerSecondPerGpu);
    expect(many.decodeStepSeconds).toBeGreaterThan(one.decodeStepSeconds);
  });
});

describe('planInference', () => {
  const result = planInference(base, { promptTokens: 2048, outputTokens: 512, maxDecodeSecondsPerToken: 0.05 });

  it('the frontier is Pareto: along rising latency, throughput strictly rises', () => {
    const f = result.frontier;
    expect(f.length).toBeGreaterThan(2);
    for (let i = 1; i < f.length; i++) {
      expect(f[i]!.decodeStepSeconds).toBeGreaterThanOrEqual(f[i - 1]!.decodeStepSeconds);
      expect(f[i]!.tokensPerSecondPerGpu).toBeGreaterThan(f[i - 1]!.tokensPerSecondPerGpu);
    }
  });

  it('no point dominates a frontier point', () => {
    for (const f of result.frontier) {
      const dominated = result.points.some((p) => p.decodeStepSeconds < f.decodeStepSeconds && p.tokensPerSecondPerGpu > f.tokensPerSecondPerGpu);
      expect(dominated).toBe(false);
    }
  });

  it('the best plan meets the bound and has the most tokens/s per GPU among those that do', () => {
    expect(result.best!.decodeStepSeconds).toBeLessThanOrEqual(0.05);
    const ok = result.points.filter((p) => p.decodeStepSeconds <= 0.05);
    expect(Math.max(...ok.map((p) => p.tokensPerSecondPerGpu))).toBe(result.best!.tokensPerSecondPerGpu);
  });

  it('an impossible latency bound answers with the fastest plan and why', () => {
    const r = planInference(base, { promptTokens: 2048, outputTokens: 512, maxDecodeSecondsPerToken: 1e-6 });
    expect(r.best).toBeUndefined();
    expect(r.closest?.why).toMatch(/no plan meets the latency bounds/);
  });

  it('latencyThroughputFrontier keeps the non-dominated points of a hand-made set', () => {
    const p = (latency: number, tps: number) => ({ decodeStepSeconds: latency, tokensPerSecondPerGpu: tps }) as InferenceEstimate;
    const frontier = latencyThroughputFrontier([p(1, 10), p(2, 5), p(2, 20), p(3, 15), p(4, 30)]);
    expect(frontier.map((x) => [x.decodeStepSeconds, x.tokensPerSecondPerGpu])).toEqual([[1, 10], [2, 20], [4, 30]]);
  });
});
