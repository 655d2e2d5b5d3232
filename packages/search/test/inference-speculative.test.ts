import { describe, expect, it } from 'vitest';
import { parameterBreakdown, parameterCount, withShapeDefaults } from '@trainplan/model';
import { draftTensor, estimateInference, tokensPerStep, type InferenceEstimate, type InferenceShape } from '../src/index.ts';
import { tensorParallelAllReduceSeconds } from '../src/inference/decode-layer.ts';
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

describe('the draft prefills the prompt too, building its own KV cache before it can propose (Llama 2 70B on TP 8, an 8B draft)', () => {
  /** A Llama 3 8B shape with Llama 2's vocabulary: about 11% of the target's parameters, so of its prefill's FLOPs. */
  const draft8b = withShapeDefaults({
    name: 'llama-8b', layers: 32, hiddenSize: 4096, attentionHeads: 32, kvHeads: 8, ffnHiddenSize: 14336, vocabSize: 32000,
    seqLength: 8192, gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary', linearBias: false, normalization: 'rmsnorm',
  });
  const speculative8b = { draft: draft8b, draftTokens: 4, acceptanceRate: 0.7 };

  it('static batching: the batch\'s first token waits for the draft\'s forward pass over its prompts, about a tenth more', () => {
    for (const batch of [1, 64]) {
      const plain = estimate({ ...shape, batch });
      const spec = estimate({ ...shape, batch, speculative: speculative8b });
      const draftPrefill = spec.speculation!.draftPrefillSeconds;
      expect(spec.prefillSeconds).toBeCloseTo(plain.prefillSeconds + draftPrefill, 12);
      expect(draftPrefill / plain.prefillSeconds).toBeGreaterThan(0.1);
      expect(draftPrefill / plain.prefillSeconds).toBeLessThan(0.2);
    }
  });

  it('continuous batching: a prompt alone waits for the draft\'s prefill of it too, which costs as static batching\'s of one prompt', () => {
    const plain = estimate({ ...shape, batch: 1, batching: 'continuous' });
    const spec = estimate({ ...shape, batch: 1, batching: 'continuous', speculative: speculative8b });
    const draftPrefill = spec.speculation!.draftPrefillSeconds;
    expect((spec.prefillSeconds - plain.prefillSeconds) / draftPrefill).toBeGreaterThan(0.95);
    expect((spec.prefillSeconds - plain.prefillSeconds) / draftPrefill).toBeLessThan(1.1);
    const alone = estimate({ ...shape, batch: 1, speculative: speculative8b }).speculation!.draftPrefillSeconds;
    expect(draftPrefill / alone).toBeGreaterThan(0.8);
    expect(draftPrefill / alone).toBeLessThan(1.2);
  });
});

describe('speculative decoding of Llama 2 70B on TP 8 with a 1B draft (γ = 4, α = 0.7)', () => {
  it('alone (memory-bound) a token is one verification, nearly a decode step, and 4 draft steps, over 2.77 tokens: faster', () => {
    const plain = estimate({ ...shape, batch: 1 });
    const spec = estimate({ ...shape, batch: 1, speculative });
    const figures = spec.speculation!;
    expect(figures.tokensPerStep).toBeCloseTo(tokensPerStep(4, 0.7), 12);
    // Verifying 5 tokens reads the same weights and KV cache as decoding one: at batch 1 the extra FLOPs hide under the
    // reads. What does not hide is its two all-reduces a layer of 5 tokens' activations (2 bytes × 8,192 each) in place
    // of one token's, over the 80 layers.
    const allReduce = (tokens: number) => tensorParallelAllReduceSeconds(base, { ranks: 8, ranksPerNode: 8 }, 2 * tokens * 8192);
    const verification = plain.decodeStepSeconds + 2 * 80 * (allReduce(5) - allReduce(1));
    const expected = (verification + 4 * figures.draftStepSeconds) / figures.tokensPerStep;
    expect(spec.decodeStepSeconds / expected).toBeGreaterThan(0.98);
    expect(spec.decodeStepSeconds / expected).toBeLessThan(1.05);
    expect(spec.decodeStepSeconds).toBeLessThan(plain.decodeStepSeconds);
    // The draft's step streams 1/50th of the weights, so costs far less than the target's.
    expect(figures.draftStepSeconds).toBeLessThan(plain.decodeStepSeconds / 2);
  });

  it('at a large batch the verification is compute-bound, 5 tokens cost 5 times the FLOPs, and speculation loses', () => {
    // Short prompts, so that 512 of them and their activations fit.
    const plain = estimate({ ...shape, promptTokens: 128, batch: 512 });
    const spec = estimate({ ...shape, promptTokens: 128, batch: 512, speculative });
    expect(spec.memoryBound).toBe(false);
    expect(spec.decodeStepSeconds).toBeGreaterThan(plain.decodeStepSeconds);
  });

  it('the draft\'s weights and KV cache sit beside the target\'s: 1.24B / 8 × 2 bytes a GPU, and fewer sequences fit', () => {
    const plain = estimate({ ...shape, batch: 1 });
    const spec = estimate({ ...shape, batch: 1, speculative });
    // Split over its 8 tensor-parallel ranks but for its norms, which each rank holds whole (Megatron, vLLM).
    const parts = parameterBreakdown(draft);
    const replicated = draft.layers * parts.perLayerReplicated + parts.finalNorm;
    expect(spec.speculation!.draftWeightsBytesPerGpu).toBeCloseTo(((parameterCount(draft) - replicated) / 8 + replicated) * 2, 0);
    expect(spec.weightsBytesPerGpu - plain.weightsBytesPerGpu).toBeCloseTo(spec.speculation!.draftWeightsBytesPerGpu, 0);
    // Per token and GPU the draft adds 2 × 16 layers × 1 KV head × 64 dims × 2 bytes to the target's 2 × 80 × 128 × 2: 1/10 more.
    expect(spec.kvCacheBytesPerGpu / plain.kvCacheBytesPerGpu).toBeCloseTo(1 + (16 * 64) / (80 * 128), 12);
    // The prefill's activations (the target's, the larger working set) are the same, so the batch shrinks by less than 1/10.
    expect(spec.activationBytesPerGpu).toBe(plain.activationBytesPerGpu);
    expect(plain.maxBatch / spec.maxBatch).toBeGreaterThan(1.03);
    expect(plain.maxBatch / spec.maxBatch).toBeLessThan(1.1);
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
