import { describe, expect, it } from 'vitest';
import { CONTRACT_EXAMPLE, runEstimate, type EstimateJson, type EstimateOk } from '../src/index.ts';

/** Llama 3 8B (Meta's config: 32 layers, h 4,096, 32 heads, 8 KV heads, f 14,336, V 128,256) with only the contract's fields. */
const LLAMA3_8B_FIELDS = {
  name: 'my-llama3-8b', layers: 32, hiddenSize: 4096, attentionHeads: 32, kvHeads: 8, ffnHiddenSize: 14336, vocabSize: 128256, seqLength: 8192,
  gatedMlp: true, tiedEmbeddings: false,
};
const LLAMA_FIELDS = { positionEmbedding: 'rotary', normalization: 'rmsnorm', linearBias: false };

/** The contract example's cluster and plan (GPT-3 175B's 1,024 A100s, TP 8 · PP 8) with another model. */
const estimateOf = (model: unknown): EstimateOk => {
  const e = runEstimate({ ...CONTRACT_EXAMPLE, model }) as EstimateJson;
  if (!e.ok) throw new Error(e.message);
  return e;
};
const defaultsWarnings = (model: unknown): string[] => estimateOf(model).warnings.filter((w) => w.startsWith('model.gatedMlp is true'));

describe('a gated-MLP shape that leaves the other Llama fields to the GPT defaults', () => {
  it('Llama 3 8B by the contract\'s fields alone: warned of all three defaults, each with what a Llama sets', () => {
    expect(defaultsWarnings(LLAMA3_8B_FIELDS)).toEqual([
      'model.gatedMlp is true, as in a Llama, but the fields left out took GPT defaults: positionEmbedding "learned" (a Llama\'s: "rotary"), '
      + 'normalization "layernorm" (a Llama\'s: "rmsnorm"), linearBias true (a Llama\'s: false)',
    ]);
  });

  it('the defaults themselves stay (the contract): the count is the Llama\'s plus the GPT parts, 35,196,928 parameters more', () => {
    // By hand, model/parameters.ts term by term: learned positions 8,192 × 4,096 = 33,554,432; LayerNorm biases on the
    // 2 norms of each of 32 layers and the final one, 65 × 4,096 = 266,240; linear biases a layer, QKV 4,096 + 2 × 1,024,
    // the two gated MLP inputs 2 × 14,336, attention out and MLP out 2 × 4,096: 43,008, × 32 = 1,376,256.
    const gpt = estimateOf(LLAMA3_8B_FIELDS).parameters;
    const llama = estimateOf({ ...LLAMA3_8B_FIELDS, ...LLAMA_FIELDS }).parameters;
    expect(gpt - llama).toBe(33_554_432 + 266_240 + 1_376_256);
    // And the Llama-style shape is the llama3-8b preset's count.
    expect(llama).toBe(estimateOf('llama3-8b').parameters);
  });

  it('names only the fields left out', () => {
    expect(defaultsWarnings({ ...LLAMA3_8B_FIELDS, positionEmbedding: 'rotary', linearBias: false })).toEqual([
      'model.gatedMlp is true, as in a Llama, but the fields left out took GPT defaults: normalization "layernorm" (a Llama\'s: "rmsnorm")',
    ]);
  });

  it.each([
    ['every Llama field given', { ...LLAMA3_8B_FIELDS, ...LLAMA_FIELDS }],
    ['the GPT choices stated, not left out', { ...LLAMA3_8B_FIELDS, positionEmbedding: 'learned', normalization: 'layernorm', linearBias: true }],
    ['a plain MLP (a GPT shape)', { ...LLAMA3_8B_FIELDS, gatedMlp: false }],
    ['a preset', 'llama3-8b'],
  ])('says nothing for %s', (_, model) => {
    expect(defaultsWarnings(model)).toEqual([]);
  });
});
