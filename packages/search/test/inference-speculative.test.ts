import { describe, expect, it } from 'vitest';
import { parameterCount, withShapeDefaults } from '@trainplan/model';
import { draftTensor, estimateInference, tokensPerStep, type InferenceEstimate, type InferenceShape } from '../src/index.ts';
import { llama70bBase as base } from './fixtures.ts';

/** Llama 3.2 1B (meta-llama/Llama-3.2-1B config.json), the Llama family's usual draft model. */
const draft = withShapeDefaults({
  name: 'llama3.2-1b', layers: 16, hiddenSize: 2048, attentionHeads: 32, kvHeads: 8, ffnHiddenSize: 8192, vocabSize: 128256,
  seqLength: 8192, gatedMlp: true, tiedEmbeddings: true, positionEmbedding: 'rotary', linearBias: false, normalization: 'rmsnorm',
});
const speculative = { draft, draftTokens: 4, acceptanceRate: 0.7 };
const shape = { tensor: 8, pipeline: 1, promptTokens: 2048, outputTokens: 512 };

function estimate(s: InferenceShape): InferenceEstimate {
  const e = estimateInference(base, s);
  if (!e.ok) throw new Error(e.message);
  return e;
}

describe('speculative decoding, worked by hand', () => {
  it('4 draft tokens accepted 70% of the time yield (1 − 0.7⁵) / 0.3 = 2.77 tokens a step; all accepted, γ + 1; none, the target\'s one', () => {
    expect(tokensPerStep(4, 0.7)).toBeCloseTo((1 - 0.16807) / 0.3, 12);
    expect(tokensPerStep(3, 1)).toBe(4);
    expect(tokensPerStep(5, 0)).toBe(1);
  });

  it('the draft splits over the target\'s TP when its 32 heads and FFN 8192 do, else it runs whole on each rank', () => {
    expect(draftTensor(draft, 8)).toBe(8);
    expect(draftTensor({ ...draft, attentionHeads: 12 }, 8)).toBe(1);
  });
});

describe('speculative decoding of Llama 2 70B on TP 8 with a 1B draft (γ = 4, α = 0.7)', () => {
  it('alone (memory-bound) a token is one verification, nearly a decode step, and 4 draft steps, over 2.77 tokens: faster', () => {
    const plain = estimate({ ...shape, batch: 1 });
    const spec = estimate({ ...shape, batch: 1, speculative });
    const figures = spec.speculation!;
    expect(figures.tokensPerStep).toBeCloseTo(tokensPerStep(4, 0.7), 12);
    // Verifying 5 tokens reads the same weights and KV cache as decoding one: at batch 1 the extra FLOPs hide under the reads.
    const expected = (plain.decodeStepSeconds + 4 * figures.draftStepSeconds) / figures.tokensPerStep;
    expect(spec.decodeStepSeconds / expected).toBeGreaterThan(0.98);
    expect(spec.decodeStepSeconds / expected).toBeLessThan(1.05);
    expect(spec.decodeStepSeconds).toBeLessThan(plain.decodeStepSeconds);
    // The draft's step streams 1/50th of the weights, so costs far less than the target's.
    expect(figures.draftStepSeconds).toBeLessThan(plain.decodeStepSeconds / 2);
  });

  it('at a large batch the verification is compute-bound, 5 tokens cost 5 times the FLOPs, and speculation loses', () => {
    const plain = estimate({ ...shape, batch: 512 });
    const spec = estimate({ ...shape, batch: 512, speculative });
    expect(spec.memoryBound).toBe(false);
    expect(spec.decodeStepSeconds).toBeGreaterThan(plain.decodeStepSeconds);
  });

  it('the draft\'s weights and KV cache sit beside the target\'s: 1.24B / 8 × 2 bytes a GPU, and fewer sequences fit', () => {
    const plain = estimate({ ...shape, batch: 1 });
    const spec = estimate({ ...shape, batch: 1, speculative });
    expect(spec.speculation!.draftWeightsBytesPerGpu).toBeCloseTo((parameterCount(draft) / 8) * 2, 0);
    expect(spec.weightsBytesPerGpu - plain.weightsBytesPerGpu).toBeCloseTo(spec.speculation!.draftWeightsBytesPerGpu, 0);
    // Per token and GPU the draft adds 2 × 16 layers × 1 KV head × 64 dims × 2 bytes to the target's 2 × 80 × 128 × 2: 1/10 more.
    expect(plain.maxBatch / spec.maxBatch).toBeGreaterThan(1.08);
    expect(plain.maxBatch / spec.maxBatch).toBeLessThan(1.12);
  });

  it('continuous batching: a sequence lives 512 / 2.77 steps, so fewer prompts join a step; the first token still rides one', () => {
    const plain = estimate({ ...shape, batch: 8, batching: 'continuous' });
    const spec = estimate({ ...shape, batch: 8, batching: 'continuous', speculative });
    expect(spec.decodeStepSeconds).toBeLessThan(plain.decodeStepSeconds);
    expect(spec.prefillSeconds).toBeGreaterThan(plain.prefillSeconds);
  });

  it('with pipeline parallelism it is refused, saying so', () => {
    const e = estimateInference(base, { ...shape, pipeline: 2, batch: 1, speculative });
    expect(e.ok).toBe(false);
    if (!e.ok) expect(e.message).toMatch(/^speculative decoding is modelled on one pipeline stage, not 2/);
  });
});
