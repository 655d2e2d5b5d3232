import { describe, expect, it } from 'vitest';
import { withShapeDefaults } from '@trainplan/model';
import { estimateInference, planInference, type InferenceBase, type InferenceEstimate, type InferenceShape } from '../src/index.ts';
import { llama70bBase } from './fixtures.ts';

/** Llama 3 8B (Dubey et al. 2024, Table 3: 32 layers, h 4,096, 32 heads, 8 KV heads, FFN 14,336; 128,256-token vocabulary) on H100s. */
const base: InferenceBase = {
  ...llama70bBase,
  model: withShapeDefaults({
    name: 'llama3-8b', layers: 32, hiddenSize: 4096, attentionHeads: 32, kvHeads: 8, ffnHiddenSize: 14336, vocabSize: 128256,
    seqLength: 8192, gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary', linearBias: false, normalization: 'rmsnorm',
  }),
};

// The QA reproduction: `trainplan inference --model llama3-8b --gpu h100-sxm --prompt 6144 --output 512 --batching continuous
// --gpus 1 --max-token-ms 30 --prefill-chunk N`, which served batch 59 at chunk 16 as at chunk 512.
const shape = { tensor: 1, pipeline: 1, promptTokens: 6144, outputTokens: 512, batching: 'continuous' as const };
const search = { promptTokens: 6144, outputTokens: 512, batching: 'continuous' as const, gpus: 1, maxDecodeSecondsPerToken: 0.03 };

function estimate(s: InferenceShape): InferenceEstimate {
  const e = estimateInference(base, s);
  if (!e.ok) throw new Error(e.message);
  return e;
}

describe('chunked prefill keeps at most k·L·chunk/P sequences running (Sarathi-Serve\'s token budget; Llama 3 8B, 6,144 + 512 tokens)', () => {
  // An iteration of each micro-batch prefills at most `chunk` prompt tokens. A sequence holds its slot L = O + c − 1
  // iterations (its c chunks, the last yielding its first token, then O − 1 decode steps), so b slots admit b/L prompts an
  // iteration (Little's law), b·P/L prompt tokens: b·P/L ≤ k·chunk, b ≤ k·L·chunk/P.
  it.each([
    // c = 6,144 / 512 = 12 chunks; L = 512 + 12 − 1 = 523; 523 × 512 / 6,144 = 43.58: 43 (42.67 decoding, the rest prefilling).
    [512, 1, 12, 523, 43],
    // c = 6,144 / 16 = 384; L = 512 + 383 = 895; 895 × 16 / 6,144 = 2.33: 2 (one slot decodes while the other prefills).
    [16, 1, 384, 895, 2],
    // Prompts packed into the budget: c = ⌈6,144 / 700⌉ = 9, L = 520; 520 × 700 / 6,144 = 59.2: 59 (not 520 / 9 = 57.8).
    [700, 1, 9, 520, 59],
    // Each of PP 2's micro-batches has its own budget: 2 × 43.58 = 87.2, 87.
    [512, 2, 12, 523, 87],
    // c = 6,144 / 8 = 768; L = 512 + 767 = 1,279; 1,279 × 8 / 6,144 = 1.67: 1, said in the singular (QA: "at most 1 sequences").
    [8, 1, 768, 1279, 1],
  ])('chunk %i on PP %i: %i chunks, a slot held %i iterations, at most %i sequences', (chunk, pipeline, chunks, life, limit) => {
    const at = (batch: number) => estimateInference(base, { ...shape, pipeline, batch, prefillChunkTokens: chunk });
    expect(at(limit).ok).toBe(true);
    const past = at(limit + 1);
    expect(past).toMatchObject({ ok: false, reason: 'prefill-chunk' });
    if (past.ok) return;
    const grouped = (x: number) => x.toLocaleString('en-US');
    expect(past.message).toBe(`batch ${limit + 1} cannot be kept running: an iteration prefills at most ${chunk} prompt tokens${pipeline > 1 ? ' a micro-batch' : ''}, `
      + `and a sequence holds its slot for ${grouped(life)} iterations (its 6,144-token prompt in ${chunks} chunks, then ${grouped(life - chunks)} more decoding), `
      + `so the chunk keeps at most ${limit} ${limit === 1 ? 'sequence' : 'sequences'} running (with more slots prompts arrive faster than their chunks are prefilled; `
      + 'a larger prefillChunkTokens lifts the limit)');
  });

  it('a chunk that keeps one sequence running on PP 1 says "1 sequence", and the deeper pipelines\' limits by their counts', () => {
    // PP 1: 1 (above); PP 2: ⌊2 × 1.67⌋ = 3; PP 4: ⌊4 × 1.67⌋ = 6.
    const plan = planInference(base, { ...search, gpus: undefined, tensor: [1], pipeline: [1, 2, 4], prefillChunkTokens: 8 });
    expect(plan.warnings).toContainEqual(expect.stringMatching(/^a prefill chunk of 8 tokens keeps at most 1 sequence running on PP 1, 3 on PP 2 and 6 on PP 4, fewer than fit in memory: /));
  });

  it('the reproduction: chunk 512 serves batch 43, not 59; chunk 16 batch 2; both said in a warning, no point past them', () => {
    for (const [chunk, limit] of [[512, 43], [16, 2]] as const) {
      const plan = planInference(base, { ...search, prefillChunkTokens: chunk });
      // 43 and 2 decode a token well within the 30 ms bound (a handful of sequences' KV reads beside 16 GB of weights).
      expect(plan.best?.shape.batch).toBe(limit);
      expect(Math.max(...plan.points.map((p) => p.shape.batch))).toBe(limit);
      expect(plan.warnings).toContainEqual(expect.stringMatching(new RegExp(`^a prefill chunk of ${chunk} tokens keeps at most ${limit} sequences running on PP 1, `
        + 'fewer than fit in memory: .*; larger batches are not planned \\(a larger prefillChunkTokens lifts the limit\\)$')));
    }
  });

  it('without a chunk, or with one whose limit memory undercuts (2,048: c = 3, L = 514, 171 sequences), nothing is said and memory bounds the batch', () => {
    for (const prefillChunkTokens of [undefined, 2048]) {
      const plan = planInference(base, { ...search, prefillChunkTokens });
      expect(plan.warnings).toEqual([]);
      const largest = plan.byShape[0]!.answer;
      expect(largest.ok && largest.shape.batch === largest.maxBatch).toBe(true);
    }
  });

  it('batches asked for past the limit are left out and named; asked only past it, the shape says why', () => {
    const some = planInference(base, { ...search, prefillChunkTokens: 512, batches: [32, 64] });
    expect(some.points.map((p) => p.shape.batch)).toEqual([32]);
    expect(some.warnings).toContainEqual(expect.stringMatching(/keeps at most 43 sequences running on PP 1: .*; batches asked for past it were left out: 64 on TP 1 · PP 1 \(/));
    const none = planInference(base, { ...search, prefillChunkTokens: 512, batches: [64] });
    expect(none.points).toEqual([]);
    expect(none.byShape[0]!.answer).toMatchObject({ ok: false, reason: 'prefill-chunk', message: expect.stringMatching(/^batch 64 cannot be kept running: .* at most 43 sequences/) });
  });
});

describe('a slot prefilling its chunks holds its place but yields no token', () => {
  // The replica's mean iteration carries all the prompts admitted, b/L an iteration, and a slot is held L of them
  // (slotSeconds, S): b sequences each yielding their O tokens over S is b·O/S tokens a second (Little's law), whatever
  // share of S is prefill. (On TP 1 · PP 1 a GPU is the replica.)
  it('batch 43 in 512-token chunks yields 43 × 512 tokens over the 523 iterations a slot is held', () => {
    const e = estimate({ ...shape, batch: 43, prefillChunkTokens: 512 });
    expect(e.tokensPerSecondPerGpu).toBeCloseTo((43 * 512) / e.slotSeconds!, 9);
    // A sequence's own prompt is its first token's, not its tokens': between them it sees only the other 42 slots' chunks,
    // so its time per token is under the mean iteration, S / 523.
    expect(e.decodeStepSeconds).toBeLessThan(e.slotSeconds! / 523);
    // Whole prompts: the prefill iteration yields the first token, so a slot is held O = 512 iterations and all 43 yield one each.
    const whole = estimate({ ...shape, batch: 43 });
    expect(whole.tokensPerSecondPerGpu).toBeCloseTo((43 * 512) / whole.slotSeconds!, 9);
    expect(whole.decodeStepSeconds).toBeLessThan(whole.slotSeconds! / 512);
  });

  it('a sequence alone in 16-token chunks holds its slot 895 iterations: its 384 chunks (its first token), then 511 decode steps', () => {
    const e = estimate({ ...shape, batch: 1, prefillChunkTokens: 16 });
    // Alone, the replica's time and the sequence's are one: its first token, then 511 tokens each a decode round apart
    // (nothing else is admitted, no wait for a running iteration), and its 512 tokens over all of it.
    expect(e.slotSeconds!).toBeCloseTo(e.prefillSeconds + 511 * e.decodeStepSeconds, 12);
    expect(e.tokensPerSecondPerGpu).toBeCloseTo(512 / e.slotSeconds!, 9);
  });

  it('a request rate holds each slot for its 523 iterations: utilization λ·S/(R·b) with S the slot time', () => {
    const plan = planInference(base, { ...search, prefillChunkTokens: 512, batches: [43], requestsPerSecond: 2 });
    const p = plan.points[0]!;
    expect(p.load!.utilization).toBeCloseTo((2 * p.slotSeconds!) / (p.load!.replicas * 43), 12);
  });
});

describe('a smaller chunk, where it holds the batch, never serves more and never gives the first token sooner', () => {
  // Past its limit a smaller chunk keeps fewer slots running, each yielding O of its L = O + c − 1 iterations, so the
  // weights each iteration streams are shared by fewer tokens; the first token waits for more chunk iterations.
  const chunks = [512, 384, 256, 192, 128, 96, 64, 48, 32, 24, 16];
  const plans = chunks.map((prefillChunkTokens) => planInference(base, { ...search, prefillChunkTokens }).best!);

  it('under the same 30 ms bound: the best batch, its tokens/s per GPU and its first token, chunk 512 down to 16', () => {
    for (let i = 1; i < plans.length; i++) {
      const [larger, smaller] = [plans[i - 1]!, plans[i]!];
      expect(smaller.shape.batch).toBeLessThanOrEqual(larger.shape.batch);
      expect(smaller.tokensPerSecondPerGpu).toBeLessThanOrEqual(larger.tokensPerSecondPerGpu);
      expect(smaller.prefillSeconds).toBeGreaterThan(larger.prefillSeconds);
    }
  });

  it('at the same batch (2, which all of them keep running) the first token comes later as the chunk shrinks, chunks of whole tiles', () => {
    // Powers of two: each chunk a whole number of the GEMM tiles' rows (kernel-time.ts GEMM_TILES), so that only the chunk
    // count moves the first token. A chunk off the tiles pays their quantisation on its own rows (Sarathi-Serve §4.3), and
    // 384 tokens (one and a half 256-row tiles) can take longer than 256: the halved chunk's extra iterations against the
    // larger one's emptier tiles.
    const aligned = chunks.filter((c) => Number.isInteger(Math.log2(c)));
    expect(aligned).toEqual([512, 256, 128, 64, 32, 16]);
    const firstTokens = aligned.map((prefillChunkTokens) => estimate({ ...shape, batch: 2, prefillChunkTokens }).prefillSeconds);
    for (let i = 1; i < firstTokens.length; i++) expect(firstTokens[i]).toBeGreaterThan(firstTokens[i - 1]!);
  });

  it('where the chunk does not hold the batch (2,048: the 30 ms bound does) a smaller one hides more prefill under the weight reads and serves more (Sarathi-Serve): 512 beats 2,048', () => {
    const at2048 = planInference(base, { ...search, prefillChunkTokens: 2048 }).best!;
    expect(plans[0]!.tokensPerSecondPerGpu).toBeGreaterThan(at2048.tokensPerSecondPerGpu);
  });
});
