import { describe, expect, it } from 'vitest';
import { estimateInference, planInference, type InferenceEstimate, type InferenceShape } from '../src/index.ts';
import { llama70bBase as base } from './fixtures.ts';

const shape = { tensor: 8, pipeline: 1, promptTokens: 2048, outputTokens: 512 };

/** The estimate, or a failed test naming why it was refused. */
function estimate(s: InferenceShape): InferenceEstimate {
  const e = estimateInference(base, s);
  if (!e.ok) throw new Error(`${JSON.stringify(s)}: ${e.message}`);
  return e;
}

describe('continuous batching (Orca, vLLM, in-flight batching)', () => {
  it('static stays the default: no batching given answers exactly as batching "static", and says so', () => {
    const none = estimate({ ...shape, batch: 64 });
    const stat = estimate({ ...shape, batch: 64, batching: 'static' });
    expect(none.batching).toBe('static');
    expect({ ...stat, shape: none.shape }).toEqual(none);
    expect(estimate({ ...shape, batch: 64, batching: 'continuous' }).batching).toBe('continuous');
  });

  it('at batch 64 the first token comes far sooner: one prompt, not the 64 of a static batch, is prefilled before it', () => {
    const stat = estimate({ ...shape, batch: 64 });
    const cont = estimate({ ...shape, batch: 64, batching: 'continuous' });
    expect(cont.prefillSeconds).toBeLessThan(stat.prefillSeconds / 10);
  });

  it.each([
    [1, 1], [1, 8], [1, 64], [2, 1], [2, 8], [2, 64], [4, 8], [4, 64], [8, 64],
  ])('PP %i, batch %i: an iteration is never shorter than the static decode step, nor its throughput higher', (pipeline, batch) => {
    const stat = estimate({ ...shape, pipeline, batch });
    const cont = estimate({ ...shape, pipeline, batch, batching: 'continuous' });
    expect(cont.decodeStepSeconds).toBeGreaterThan(stat.decodeStepSeconds);
    expect(cont.tokensPerSecondPerGpu).toBeLessThan(stat.tokensPerSecondPerGpu);
    // Every sequence of the batch gets a token per iteration, on t·p GPUs.
    expect(cont.tokensPerSecondPerGpu).toBeCloseTo(batch / cont.decodeStepSeconds / (8 * pipeline), 9);
  });

  it.each([1, 8, 64, 256])('PP 1, batch %i: the iteration is the decode step plus b/O prompts each prefilled as a batch of one', (batch) => {
    const stat = estimate({ ...shape, batch });
    const cont = estimate({ ...shape, batch, batching: 'continuous' });
    const onePrompt = estimate({ ...shape, batch: 1 }).prefillSeconds;
    const admitted = batch / shape.outputTokens;
    expect(cont.decodeStepSeconds - stat.decodeStepSeconds).toBeCloseTo(admitted * onePrompt, 12);
  });

  it.each([[1, 8], [2, 8], [4, 64], [8, 64]])('PP %i, batch %i: the first token is one prompt\'s prefill alone plus the running iteration', (pipeline, batch) => {
    const cont = estimate({ ...shape, pipeline, batch, batching: 'continuous' });
    const alone = estimate({ ...shape, pipeline, batch: 1 }).prefillSeconds;
    expect(cont.prefillSeconds).toBeCloseTo(alone + cont.decodeStepSeconds, 12);
  });

  it.each([2, 4, 8])('PP %i with a micro-batch per stage: the stages share the admitted prompts\' prefill, each adding about 1/PP of it', (pipeline) => {
    const batch = 64;
    const stat = estimate({ ...shape, pipeline, batch });
    const cont = estimate({ ...shape, pipeline, batch, batching: 'continuous' });
    const prefillWork = (batch / shape.outputTokens) * estimate({ ...shape, pipeline, batch: 1 }).prefillSeconds;
    const added = cont.decodeStepSeconds - stat.decodeStepSeconds;
    // At most all of it (one stage doing every layer); at least one stage's share: the lone prompt's
    // prefill also holds the p − 1 pipeline sends, which keep no stage busy, hence the 10 %.
    expect(added).toBeLessThan(prefillWork);
    expect(added).toBeGreaterThan((0.9 * prefillWork) / pipeline);
  });

  it('PP keeps the per-GPU throughput: TP 8 · PP 2 at batch 2m serves like TP 8 alone at batch m (as static batching does)', () => {
    const m = 32;
    const tp = estimate({ ...shape, batch: m, batching: 'continuous' });
    const pp = estimate({ ...shape, pipeline: 2, batch: 2 * m, batching: 'continuous' });
    expect(pp.tokensPerSecondPerGpu / tp.tokensPerSecondPerGpu).toBeCloseTo(1, 2);
  });

  it('the prefill is paid for: the longer each sequence generates, the nearer its throughput comes to static decoding alone', () => {
    // Batch 8 fits the KV cache of a 100k-token context on TP 8.
    const ratio = (outputTokens: number) => {
      const s = { ...shape, batch: 8, outputTokens };
      return estimate({ ...s, batching: 'continuous' }).tokensPerSecondPerGpu / estimate(s).tokensPerSecondPerGpu;
    };
    expect(ratio(100)).toBeLessThan(0.9);
    expect(ratio(100_000)).toBeGreaterThan(0.999);
    expect(ratio(100_000)).toBeLessThan(1);
  });

  it('memory is the static batch\'s: b sequences at full context', () => {
    const stat = estimate({ ...shape, batch: 64 });
    const cont = estimate({ ...shape, batch: 64, batching: 'continuous' });
    expect([cont.kvCacheBytesPerGpu, cont.totalBytesPerGpu, cont.maxBatch]).toEqual([stat.kvCacheBytesPerGpu, stat.totalBytesPerGpu, stat.maxBatch]);
  });
});

describe('planInference with batching and the GPUs available', () => {
  const search = { promptTokens: 2048, outputTokens: 512 };
  const shapes = (r: ReturnType<typeof planInference>) => r.byShape.map((s) => [s.tensor, s.pipeline]);

  it('passes the batching to every point it tries', () => {
    const r = planInference(base, { ...search, batching: 'continuous', tensor: [8], pipeline: [1, 2] });
    expect(r.points.length).toBeGreaterThan(0);
    expect(r.points.every((p) => p.batching === 'continuous')).toBe(true);
    expect(planInference(base, { ...search, tensor: [8], pipeline: [1] }).points.every((p) => p.batching === 'static')).toBe(true);
  });

  it('without gpus every default shape is tried: TP 1 to the NVLink domain of 8, PP 1 to 8', () => {
    expect(shapes(planInference(base, search))).toHaveLength(4 * 4);
  });

  it('on 4 GPUs no shape of more than 4 GPUs is tried nor listed: no TP 8, no TP 4 · PP 2', () => {
    const r = planInference(base, { ...search, gpus: 4 });
    expect(shapes(r)).toEqual([[1, 1], [1, 2], [1, 4], [2, 1], [2, 2], [4, 1]]);
    expect(r.points.every((p) => p.shape.tensor <= 4 && 4 % (p.shape.tensor * p.shape.pipeline) === 0)).toBe(true);
  });

  it('on 6 GPUs only shapes of 1, 2, 3 or 6 GPUs are tried, of the degrees given', () => {
    const r = planInference(base, { ...search, gpus: 6, tensor: [1, 2, 3, 4, 6, 8], pipeline: [1, 2, 3, 4] });
    expect(shapes(r)).toEqual([[1, 1], [1, 2], [1, 3], [2, 1], [2, 3], [3, 1], [3, 2], [6, 1]]);
  });

  it('on 6 GPUs by default: TP a power of two up to 6, PP any depth dividing 6, so replicas of 1, 2, 3 or 6 GPUs', () => {
    expect(shapes(planInference(base, { ...search, gpus: 6 }))).toEqual([[1, 1], [1, 2], [1, 3], [1, 6], [2, 1], [2, 3]]);
  });

  it('on 16 GPUs the default TP stays within the NVLink domain (8) and PP reaches 8', () => {
    const r = planInference(base, { ...search, gpus: 16 });
    expect(Math.max(...r.byShape.map((s) => s.tensor))).toBe(base.nvlinkDomainGpus);
    expect(shapes(r)).toContainEqual([8, 2]);
    expect(shapes(r)).toContainEqual([2, 8]);
    expect(shapes(r)).not.toContainEqual([4, 8]);
  });

  it('GPUs that no shape given divides leave nothing tried', () => {
    const r = planInference(base, { ...search, gpus: 4, tensor: [8] });
    expect([r.byShape, r.points, r.best]).toEqual([[], [], undefined]);
  });
});
