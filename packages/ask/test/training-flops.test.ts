import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

/**
 * Llama 3 70B's shape (Dubey et al. 2024, arXiv:2407.21783, Table 3): 80 layers, model width 8,192, FFN 28,672 (a gated
 * MLP: three matrices), 64 query heads and 8 key/value heads of 128 (a K/V width of 1,024), a 128,256-token vocabulary,
 * 8,192-token sequences. Its forward FLOPs a token, 2 a multiply-add (Korthikanti et al. 2022's terms):
 *   Q, K, V: 2·h·(h + 2·1,024); scores and values: 2·2·s·h; attention out: 2·h²; MLP: 2·h·ffn·3; logits: 2·h·V.
 */
const [h, layers, ffn, kv, vocab, s] = [8192, 80, 28_672, 1024, 128_256, 8192];
const forward = layers * (2 * h * (h + 2 * kv) + 4 * s * h + 2 * h * h + 6 * h * ffn) + 2 * h * vocab;
// Forward and backward: 3× the forward (the backward pass twice the forward's matmuls).
const perToken = 3 * forward;

describe('"how many flops to train …": the run\'s model FLOPs in the headline (QA: a configuration, no FLOP count)', () => {
  it('the hand count: 4.81e11 FLOPs a token, 7.22e24 for 15T tokens', () => {
    expect(perToken.toExponential(2)).toBe('4.81e+11');
    expect((perToken * 15e12).toExponential(2)).toBe('7.22e+24');
  });

  it.each([
    'how many flops to train llama3-70b on 15T tokens',
    'total training FLOPs for llama3-70b on 15T tokens',
  ])('"%s" heads with them, the convention and the 6ND figure said, the plan after', (question) => {
    const a = ask(question, { publicUrl: null });
    expect(a.headline).toBe('Llama 3 70B, 15.0T tokens: about 7.22e24 FLOPs to train (model FLOPs: 4.81e11 a token × 15.0T tokens)');
    expect(a.notes[0]).toMatch(/^Model FLOPs as the planner counts them for MFU: forward and backward \(3× the forward matmuls\), attention over every \(query, key\) pair of 8,192-token sequences/);
    // 6 × 70.6B parameters × 15T tokens = 6.35e24 (Kaplan et al. 2020's rule).
    expect(a.notes[1]).toBe('6 × parameters × tokens (Kaplan et al. 2020) gives 6.35e24 for the 70.6B parameters: it leaves out attention\'s products over the sequence.');
    expect(a.notes[2]).toMatch(/^To train it: Best for Llama 3 70B on H100 SXM5 80GB × 128 nodes: /);
    expect(a.configuration).toBeDefined();
  });

  it('the plan\'s own FLOPs agree: its TFLOP/s a GPU × GPUs × its time to train is the same count', () => {
    const a = ask('how many flops to train llama3-70b on 15T tokens', { publicUrl: null });
    const best = (a.data as { best: { estimate: { modelFlopsPerStep: number; resolved: { globalBatchSize: number; seqLength: number } } } }).best.estimate;
    // The planner's model FLOPs a step over the step's tokens: the per-token count above.
    expect(best.modelFlopsPerStep / (best.resolved.globalBatchSize * best.resolved.seqLength)).toBeCloseTo(perToken, -6);
  });

  it('a rate is no FLOP count: "tflops per gpu" and a GPU\'s peak are answered as before', () => {
    expect(ask('tflops per gpu for gpt3 175b on 1024 a100', { publicUrl: null }).headline).toMatch(/TFLOP\/s per GPU/);
    expect(ask('how fast is an H100 in bf16', { publicUrl: null }).headline).toMatch(/^H100 SXM5 80GB: peak BF16/);
  });
});
