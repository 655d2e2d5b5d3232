import { describe, expect, it } from 'vitest';
import { cachedPrefixTokens, estimateInference, promptChunkTokens, kvCacheBytesPerTokenFor, uncachedAttentionFraction, type InferenceEstimate, type InferenceShape } from '../src/index.ts';
import { llama70bBase as base } from './fixtures.ts';

const shape = { tensor: 8, pipeline: 1, promptTokens: 2048, outputTokens: 512, batching: 'continuous' as const };

function estimate(s: InferenceShape): InferenceEstimate {
  const e = estimateInference(base, s);
  if (!e.ok) throw new Error(e.message);
  return e;
}

describe('prefix caching: the blocks a shared prefix fills', () => {
  it('only whole 16-token blocks are shared: 1,000 tokens share 62 blocks, 992 tokens', () => {
    expect(cachedPrefixTokens(1000, 2048)).toBe(992);
    expect(cachedPrefixTokens(15, 2048)).toBe(0);
    expect(cachedPrefixTokens(1024, 2048)).toBe(1024);
  });
  it('a prompt wholly shared recomputes its last block, not only its last token: vLLM v1 looks within P − 1 tokens, in whole blocks', () => {
    // The last token's logits give the first output token; the hit is block-aligned, so its whole block is prefilled again.
    expect(cachedPrefixTokens(2048, 2048)).toBe(2032);
    expect(cachedPrefixTokens(2048, 2048) % 16).toBe(0);
    // A prompt one token past a block boundary: all its whole blocks hit, the one token is computed.
    expect(cachedPrefixTokens(2049, 2049)).toBe(2048);
    expect(cachedPrefixTokens(16, 16)).toBe(0);
  });
  it('the new half of a prompt does 3/4 of its causal attention: (2048² − 1024²) / 2048²', () => {
    expect(uncachedAttentionFraction(2048, 1024)).toBe(0.75);
    expect(uncachedAttentionFraction(2048, 0)).toBe(1);
  });
});

describe('prefix caching under continuous batching (Llama 2 70B, TP 8, 2,048 + 512 tokens)', () => {
  it('each sequence holds only its own tokens, the prefix once: 1,024 shared take a paged sequence from 2,312 tokens to 1,288', () => {
    const none = estimate({ ...shape, batch: 1 });
    const half = estimate({ ...shape, batch: 1, sharedPrefixTokens: 1024 });
    // Paged: P + (O + 1)/2 + 7.5 = 2,048 + 256.5 + 7.5 = 2,312 tokens; past a 1,024-token prefix, 1,288.
    const perToken = kvCacheBytesPerTokenFor(base, 8, 80);
    // The KV cache and an iteration's activations may take what the weights and the 2 GiB runtime reserve leave.
    const free = none.capacityBytes - none.weightsBytesPerGpu - 2 * 2 ** 30;
    const fullest = (s: InferenceShape, batch: number) => estimateInference(base, { ...s, batch });
    for (const [e, kvTokens] of [[none, (b: number) => b * 2312], [half, (b: number) => 1024 + b * 1288]] as const) {
      const at = fullest(e.shape, e.maxBatch);
      if (!at.ok) throw new Error(at.message);
      expect(at.kvCacheBytesPerGpu).toBeCloseTo(kvTokens(e.maxBatch) * perToken, 0);
      expect(at.kvCacheBytesPerGpu + at.activationBytesPerGpu).toBeLessThanOrEqual(free);
      expect(fullest(e.shape, e.maxBatch + 1).ok).toBe(false);
      // The activations are a few GiB, so the KV cache fills nearly all of it.
      expect(kvTokens(e.maxBatch + 1) * perToken).toBeGreaterThan(free - 4 * 2 ** 30);
    }
    expect(half.maxBatch).toBeGreaterThan(1.7 * none.maxBatch);
    // The prefix is counted once in the KV cache a batch holds.
    expect(half.kvCacheBytesPerGpu).toBeCloseTo((1024 + 1288) * perToken, 0);
    const b64 = estimate({ ...shape, batch: 64, sharedPrefixTokens: 1024 });
    expect(b64.kvCacheBytesPerGpu).toBeCloseTo((1024 + 64 * 1288) * perToken, 0);
  });

  it('half the prompt cached: about half its prefill is left (the GEMMs and element-wise work of 1,024 tokens, 3/4 of the attention)', () => {
    const round = estimate({ ...shape, batching: 'static', batch: 1 }).decodeStepSeconds;
    const prompt = (e: InferenceEstimate) => e.prefillSeconds - round;
    const none = estimate({ ...shape, batch: 1 });
    const half = estimate({ ...shape, batch: 1, sharedPrefixTokens: 1024 });
    // Attention is a few per cent of a 2,048-token prompt's layer, so its 3/4 moves the half little.
    expect(prompt(half) / prompt(none)).toBeGreaterThan(0.48);
    expect(prompt(half) / prompt(none)).toBeLessThan(0.56);
  });

  it('a wholly shared prompt: its first token is about a decode step (one token computed), and a batch decodes no faster for it', () => {
    const all = estimate({ ...shape, batch: 1, sharedPrefixTokens: 2048 });
    const round = estimate({ ...shape, batching: 'static', batch: 1 }).decodeStepSeconds;
    expect(all.prefillSeconds / round).toBeGreaterThanOrEqual(1);
    expect(all.prefillSeconds / round).toBeLessThan(1.1);
    // Paged attention reads each sequence's context, shared blocks included: the decode is static decoding's, no faster.
    const stat = estimate({ ...shape, batching: 'static', batch: 64 });
    expect(estimate({ ...shape, batch: 64, sharedPrefixTokens: 2048 }).decodeStepSeconds).toBeGreaterThanOrEqual(stat.decodeStepSeconds);
  });

  it('static batching has no paged cache to share: the prefix changes nothing there', () => {
    const s = { ...shape, batching: 'static' as const, batch: 64 };
    expect({ ...estimate({ ...s, sharedPrefixTokens: 1024 }), shape: s }).toEqual(estimate(s));
  });

  it('chunks count the new tokens only: 1,024 of them in 256-token chunks are 4 iterations, as a 1,024-token prompt is', () => {
    const shared = estimate({ ...shape, batch: 64, sharedPrefixTokens: 1024, prefillChunkTokens: 256 });
    const whole = estimate({ ...shape, batch: 64, sharedPrefixTokens: 1024 });
    const four = estimate({ ...shape, batch: 64, sharedPrefixTokens: 1024, prefillChunkTokens: 1024 / 4 + 1 });
    const five = estimate({ ...shape, batch: 64, sharedPrefixTokens: 1024, prefillChunkTokens: 1024 / 4 - 1 });
    // ⌈1024 / 257⌉ = 4 chunks (257 × 3 + 253), as ⌈1024 / 256⌉: the same 4 iterations to the first token; 255-token
    // chunks take a fifth (255 × 4 + 4).
    expect(promptChunkTokens(2048, 1024, 257).map((c) => c.toToken - c.fromToken)).toEqual([257, 257, 257, 253]);
    expect(promptChunkTokens(2048, 1024, 255)).toHaveLength(5);
    // The same iterations carry the same tokens, regrouped by a few a chunk: only each chunk's attention against the keys
    // before it moves (a 257-token chunk sees 1 more key a chunk), well under 0.1% of the first token (measured 0.034%).
    expect(Math.abs(four.slotSeconds! / shared.slotSeconds! - 1)).toBeLessThan(1e-3);
    expect(Math.abs(four.prefillSeconds / shared.prefillSeconds - 1)).toBeLessThan(1e-3);
    // A fifth iteration, one more of each fused step's fixed costs beside the same tokens: 12.5% slower measured, so more
    // than a tenth (a quarter at most, were each iteration all fixed cost).
    expect(five.prefillSeconds / shared.prefillSeconds).toBeGreaterThan(1.1);
    expect(five.prefillSeconds / shared.prefillSeconds).toBeLessThan(1.25);
    expect(shared.prefillSeconds).toBeGreaterThan(whole.prefillSeconds);
  });
});
