import { describe, expect, it } from 'vitest';
import { withShapeDefaults } from '@trainplan/model';
import { COMPUTE_CALIBRATION, estimatePlan, kernelContext, layerComputeCost, peak16, type PlanInput } from '../src/index.ts';
import { causalAttentionTiles } from '../src/layer-time.ts';
import { llamaOnH100 } from './fixtures.ts';

/** FlashAttention's tile edge in tokens (layer-time.ts ATTENTION_TILE_TOKENS), restated: the unit these tests count in. */
const TILE = 128;

/** Llama 3 8B (Meta's config.json: 32 layers, h 4,096, 32 heads, 8 KV heads, SwiGLU 14,336, vocabulary 128,256). */
const llama3_8b = withShapeDefaults({
  name: 'llama3-8b', layers: 32, hiddenSize: 4096, attentionHeads: 32, kvHeads: 8, ffnHiddenSize: 14336, vocabSize: 128256,
  seqLength: 8192, gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary', linearBias: false, normalization: 'rmsnorm',
});

/** The QA's repro: Llama 3 8B on one DGX H100 at TP 8, global batch 32, one sequence a micro-batch. */
const repro = (seqLength: number): PlanInput => ({
  ...llamaOnH100, model: { ...llama3_8b, seqLength }, seqLength, nodes: 1, globalBatchSize: 32, microBatchSize: 1,
  tensor: 8, pipeline: 1, context: 1, data: 1, recompute: 'none', sequenceParallel: false, sharding: 'none',
});

/** One flash layer's attention core, forward and backward, for the input at `seqLength` tokens on `context` GPUs. */
function attention(base: PlanInput, seqLength: number, context = 1): { forward: number; backward: number } {
  const input: PlanInput = { ...base, seqLength, context, model: { ...base.model, seqLength } };
  const cost = layerComputeCost(input, kernelContext(input, COMPUTE_CALIBRATION[input.gpu.generation]), peak16(input.gpu));
  return { forward: cost.attentionForward, backward: cost.attentionBackward };
}

/** The lengths at which `values` fall below the value one length before: none, where they never decrease. */
function drops(values: readonly number[], lengths: readonly number[]): number[] {
  return lengths.filter((_, i) => i > 0 && values[i]! < values[i - 1]!);
}

describe('the tiles a causal flash kernel computes (causalAttentionTiles)', () => {
  it('one GPU: T(T + 1)/2 whole tiles of T = ⌈s/128⌉, a partial last tile computed whole', () => {
    expect(causalAttentionTiles(1, 1)).toBe(1);
    expect(causalAttentionTiles(128, 1)).toBe(1);
    // One token past the edge: a second query tile meeting both key tiles, 1 + 2.
    expect(causalAttentionTiles(129, 1)).toBe(3);
    expect(causalAttentionTiles(1000, 1)).toBe((8 * 9) / 2);
    expect(causalAttentionTiles(4096, 1)).toBe((32 * 33) / 2);
    expect(causalAttentionTiles(4097, 1)).toBe((33 * 34) / 2);
  });

  it('at whole tiles, the tiles\' score elements are the (T + 1)/2T share of s² charged before, exactly', () => {
    // In integers, so no rounding stands between the two: 2T · tiles · 128² = s² · (T + 1).
    for (let s = TILE; s <= 32768; s += TILE) {
      const T = s / TILE;
      expect(2 * T * causalAttentionTiles(s, 1) * TILE ** 2).toBe(s * s * (T + 1));
    }
  });

  it('context parallelism: a causal launch over the local s/c tokens and c − 1 full ones against a chunk of s/2c', () => {
    // 8,192 tokens on 2 GPUs: a causal launch over 4,096 (32 tiles: 528) and one of 4,096 queries over 2,048 keys (32 × 16).
    expect(causalAttentionTiles(8192, 2)).toBe(528 + 32 * 16);
    // With chunks of whole tiles the GPUs share one GPU's tiles evenly (the load-balanced ring's point).
    for (const c of [2, 4, 8]) expect(c * causalAttentionTiles(8192, c)).toBe(causalAttentionTiles(8192, 1));
    // 8,320 on 2: chunks of 2,080 tokens, 17 tiles each, 33 locally; each launch pads its own: 33 · 34/2 + 33 · 17.
    expect(causalAttentionTiles(8320, 2)).toBe(561 + 561);
    expect(2 * causalAttentionTiles(8320, 2)).toBeGreaterThan(causalAttentionTiles(8320, 1));
  });
});

describe('one more token never makes flash attention cheaper', () => {
  it('a layer\'s attention, forward and backward, is non-decreasing in the sequence over 1 … 1,024 tokens', () => {
    const lengths = Array.from({ length: 1024 }, (_, i) => i + 1);
    const costs = lengths.map((s) => attention(repro(s), s));
    expect(drops(costs.map((c) => c.forward), lengths)).toEqual([]);
    expect(drops(costs.map((c) => c.backward), lengths)).toEqual([]);
    // QA: 129 tokens were charged 0.75 × 129² scores, under 128's 128²; the kernel runs 3 tiles to 128's one.
    expect(attention(repro(129), 129).forward).toBeGreaterThan(attention(repro(128), 128).forward);
  });

  it('around 4,096 tokens too, on one GPU and split over 2 by context parallelism (2c tokens a step)', () => {
    const one = Array.from({ length: 201 }, (_, i) => 4000 + i);
    expect(drops(one.map((s) => attention(repro(s), s).forward), one)).toEqual([]);
    const ring = Array.from({ length: 51 }, (_, i) => 4000 + 4 * i);
    expect(drops(ring.map((s) => attention(llamaOnH100, s, 2).forward), ring)).toEqual([]);
    expect(drops(ring.map((s) => attention(llamaOnH100, s, 2).backward), ring)).toEqual([]);
  });

  it('the QA\'s repro: Llama 3 8B, one DGX H100, TP 8, batch 32: the step is non-decreasing over 4,090 … 4,100 tokens', () => {
    // QA: 4,096 tokens took 3.12464 s, 4,098 tokens 3.12184 s.
    const lengths = Array.from({ length: 11 }, (_, i) => 4090 + i);
    const steps = lengths.map((s) => {
      const e = estimatePlan(repro(s));
      if (!e.ok) throw new Error(`${s} tokens refused: ${e.message}`);
      return e.stepTimeSeconds;
    });
    expect(drops(steps, lengths)).toEqual([]);
  });
});
