import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateInference, planInference, type InferenceAnswer, type InferenceEstimate, type InferenceShape } from '../src/index.ts';
import { llama70bBase } from './fixtures.ts';

// Invariants of the serving model over random shapes: what must hold whatever the numbers, so a change to one
// formula cannot quietly invert a trade-off (more memory fitting fewer sequences, a smaller cache costing more).
const base = llama70bBase;

const shapes = fc.record({
  tensor: fc.constantFrom(2, 4, 8),
  pipeline: fc.constantFrom(1, 2, 4),
  batch: fc.integer({ min: 1, max: 256 }),
  promptTokens: fc.integer({ min: 1, max: 8192 }),
  outputTokens: fc.integer({ min: 1, max: 2048 }),
  batching: fc.constantFrom('static' as const, 'continuous' as const),
});

const RUNS = { numRuns: 150, seed: 20261125 };

const fitting = (a: InferenceAnswer): InferenceEstimate | undefined => (a.ok ? a : undefined);

/** Every figure of an answer, each finite and not negative (an infeasible answer has none). */
function figures(e: InferenceEstimate): number[] {
  return [e.prefillSeconds, e.decodeStepSeconds, e.tokensPerSecondPerGpu, e.weightsBytesPerGpu, e.kvCacheBytesPerGpu,
    e.totalBytesPerGpu, e.capacityBytes, e.usableBytes, e.maxBatch, e.microBatches];
}

describe('serving invariants (random shapes of Llama 2 70B on H100)', () => {
  it('every figure is finite and not negative, a fitting batch is within the largest, and its memory within the usable', () => {
    fc.assert(fc.property(shapes, (shape) => {
      const e = fitting(estimateInference(base, shape));
      if (e === undefined) return;
      for (const x of figures(e)) expect(Number.isFinite(x) && x >= 0).toBe(true);
      expect(e.tokensPerSecondPerGpu).toBeGreaterThan(0);
      expect(shape.batch).toBeLessThanOrEqual(e.maxBatch);
      expect(e.totalBytesPerGpu).toBeLessThanOrEqual(e.usableBytes);
    }), RUNS);
  });

  it('a longer batch never decodes a token faster, and never holds less KV cache', () => {
    fc.assert(fc.property(shapes, fc.integer({ min: 1, max: 256 }), (shape, more) => {
      const small = fitting(estimateInference(base, shape));
      const large = fitting(estimateInference(base, { ...shape, batch: shape.batch + more }));
      if (small === undefined || large === undefined) return;
      expect(large.decodeStepSeconds).toBeGreaterThanOrEqual(small.decodeStepSeconds * (1 - 1e-12));
      expect(large.kvCacheBytesPerGpu).toBeGreaterThanOrEqual(small.kvCacheBytesPerGpu);
    }), RUNS);
  });

  it('more tensor-parallel ranks never hold more weights per GPU, nor fit fewer sequences', () => {
    fc.assert(fc.property(shapes, (shape) => {
      const narrow = estimateInference(base, { ...shape, tensor: 2 });
      const wide = estimateInference(base, { ...shape, tensor: 8 });
      if (!narrow.ok) return;
      expect(wide.ok).toBe(true);
      if (!wide.ok) return;
      expect(wide.weightsBytesPerGpu).toBeLessThan(narrow.weightsBytesPerGpu);
      expect(wide.maxBatch).toBeGreaterThanOrEqual(narrow.maxBatch);
    }), RUNS);
  });

  it('longer sequences never fit more of them', () => {
    fc.assert(fc.property(shapes, fc.integer({ min: 1, max: 4096 }), (shape, extra) => {
      const short = fitting(estimateInference(base, { ...shape, batch: 1 }));
      const long = fitting(estimateInference(base, { ...shape, batch: 1, promptTokens: shape.promptTokens + extra }));
      if (short === undefined || long === undefined) return;
      expect(long.maxBatch).toBeLessThanOrEqual(short.maxBatch);
    }), RUNS);
  });

  it('an FP8 KV cache beside 16-bit weights never holds more bytes, fits fewer sequences or decodes slower', () => {
    fc.assert(fc.property(shapes, (shape) => {
      const wide = fitting(estimateInference(base, shape));
      const fp8 = fitting(estimateInference(base, { ...shape, kvCachePrecision: 'fp8' }));
      if (wide === undefined) return;
      expect(fp8).toBeDefined();
      if (fp8 === undefined) return;
      expect(fp8.kvCacheBytesPerGpu).toBeLessThan(wide.kvCacheBytesPerGpu);
      expect(fp8.weightsBytesPerGpu).toBe(wide.weightsBytesPerGpu);
      expect(fp8.maxBatch).toBeGreaterThanOrEqual(wide.maxBatch);
      expect(fp8.decodeStepSeconds).toBeLessThanOrEqual(wide.decodeStepSeconds * (1 + 1e-12));
    }), RUNS);
  });

  it('less of each GPU\'s memory to use never fits more sequences', () => {
    fc.assert(fc.property(shapes, fc.double({ min: 0.5, max: 1, noNaN: true }), (shape, fraction) => {
      const all = fitting(estimateInference(base, { ...shape, batch: 1 }));
      const part = fitting(estimateInference(base, { ...shape, batch: 1, gpuMemoryUtilization: fraction }));
      if (all === undefined || part === undefined) return;
      expect(part.maxBatch).toBeLessThanOrEqual(all.maxBatch);
      expect(part.usableBytes).toBeCloseTo(all.capacityBytes * fraction, 0);
    }), RUNS);
  });

  it('a shared, cached prefix never costs more KV cache or a slower first token than none', () => {
    fc.assert(fc.property(shapes, fc.double({ min: 0, max: 1, noNaN: true }), (shape, share) => {
      const continuous: InferenceShape = { ...shape, batching: 'continuous' };
      const sharedPrefixTokens = Math.max(1, Math.floor(shape.promptTokens * share));
      const plain = fitting(estimateInference(base, continuous));
      const cached = fitting(estimateInference(base, { ...continuous, sharedPrefixTokens }));
      if (plain === undefined) return;
      expect(cached).toBeDefined();
      if (cached === undefined) return;
      expect(cached.kvCacheBytesPerGpu).toBeLessThanOrEqual(plain.kvCacheBytesPerGpu);
      expect(cached.prefillSeconds).toBeLessThanOrEqual(plain.prefillSeconds * (1 + 1e-12));
      expect(cached.maxBatch).toBeGreaterThanOrEqual(plain.maxBatch);
    }), RUNS);
  });
});

describe('serving plans (random requests)', () => {
  const requests = fc.record({
    promptTokens: fc.integer({ min: 16, max: 4096 }),
    outputTokens: fc.integer({ min: 16, max: 1024 }),
    batching: fc.constantFrom('static' as const, 'continuous' as const),
    maxDecodeSecondsPerToken: fc.option(fc.double({ min: 0.005, max: 0.5, noNaN: true }), { nil: undefined }),
  });

  it('no frontier point is beaten on both latency and throughput, and the best meets the bound and tops every point that does', () => {
    fc.assert(fc.property(requests, (request) => {
      const plan = planInference(base, { ...request, tensor: [4, 8], pipeline: [1, 2] });
      for (const f of plan.frontier) {
        const beaten = plan.points.some((q) => q.decodeStepSeconds < f.decodeStepSeconds && q.tokensPerSecondPerGpu > f.tokensPerSecondPerGpu);
        expect(beaten).toBe(false);
      }
      const bound = request.maxDecodeSecondsPerToken;
      const meeting = plan.points.filter((q) => bound === undefined || q.decodeStepSeconds <= bound);
      if (plan.best === undefined) {
        expect(meeting).toEqual([]);
        return;
      }
      if (bound !== undefined) expect(plan.best.decodeStepSeconds).toBeLessThanOrEqual(bound);
      for (const q of meeting) expect(q.tokensPerSecondPerGpu).toBeLessThanOrEqual(plan.best.tokensPerSecondPerGpu);
    }), { numRuns: 25, seed: 20261125 });
  });
});
