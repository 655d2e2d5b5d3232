import { describe, expect, it } from 'vitest';
import { CONTRACT_EXAMPLE, runEstimate, type EstimateJson } from '../src/index.ts';

/** The contract example (GPT-3 175B on 128 × 8 A100, t 8 · p 8) at another sequence length, with context parallelism 2. */
const at = (seqLength: number, model: unknown = CONTRACT_EXAMPLE.model): EstimateJson => runEstimate({
  ...CONTRACT_EXAMPLE, model,
  training: { ...CONTRACT_EXAMPLE.training, seqLength },
  parallelism: { ...CONTRACT_EXAMPLE.parallelism, context: 2, recompute: 'full' },
}) as EstimateJson;

const warningsOf = (e: EstimateJson): readonly string[] => {
  if (!e.ok) throw new Error(e.message);
  return e.warnings;
};

describe('a training sequence longer than the model states', () => {
  it('GPT-3 at 8,192 tokens: warned that its learned positions, and parameters, grow by (8,192 − 2,048) × h', () => {
    const long = at(8192);
    const published = at(2048);
    if (!long.ok || !published.ok) throw new Error('expected estimates');
    expect(long.parameters - published.parameters).toBe((8192 - 2048) * 12288);
    expect(warningsOf(long).filter((w) => /longer than GPT-3 175B's \(2,048 tokens\): its learned position embedding .* 75\.5 M parameters more$/.test(w))).toHaveLength(1);
  });
  it('at or under the stated length: no such warning', () => {
    for (const s of [1024, 2048]) expect(warningsOf(at(s)).some((w) => w.includes('longer than'))).toBe(false);
  });
  it('GPT-3 at 1,024 tokens keeps its 2,048-row position table (Megatron sizes it by --max-position-embeddings): the published count', () => {
    const short = at(1024);
    const published = at(2048);
    if (!short.ok || !published.ok) throw new Error('expected estimates');
    // QA: it shrank by (2,048 − 1,024) × 12,288 = 12.6 M parameters, unwarned, while a longer run warned of its growth.
    expect(short.parameters).toBe(published.parameters);
  });
  it('a rotary model (a custom shape stating 4,096 tokens) at 8,192: a long-context stage, no parameters added', () => {
    const shape = { layers: 96, hiddenSize: 12288, attentionHeads: 96, vocabSize: 51200, seqLength: 4096, positionEmbedding: 'rotary' };
    expect(warningsOf(at(8192, shape))).toContainEqual(expect.stringMatching(/^the sequence length \(8,192 tokens\) is longer than the custom model's \(4,096 tokens\): estimated as a long-context training stage/));
  });

  // Llama 3 8B given by the contract's fields alone (QA's l8ctx.json): positionEmbedding left out is learned, the contract's default.
  const llama3Fields = {
    name: 'my-llama3-8b', layers: 32, hiddenSize: 4096, attentionHeads: 32, kvHeads: 8, ffnHiddenSize: 14336, vocabSize: 128256, seqLength: 8192,
    gatedMlp: true, tiedEmbeddings: false,
  };
  it('a shape that left positionEmbedding out, at 131,072 tokens: the parameters added, naming the field a rotary model sets', () => {
    const w = warningsOf(at(131072, llama3Fields)).filter((x) => x.includes('position embedding'));
    // (131,072 − 8,192) × 4,096 = 503,316,480 parameters more.
    expect(w).toEqual([
      "the sequence length (131,072 tokens) is longer than my-llama3-8b's (8,192 tokens): its learned position embedding is counted at "
      + '131,072 positions, 503 M parameters more (learned by default: a rotary model sets model.positionEmbedding "rotary")',
    ]);
    expect(w[0]).not.toContain('published');
  });
  it('a shape that states learned positions: the same count, with no fix offered (it said what it meant)', () => {
    const w = warningsOf(at(131072, { ...llama3Fields, positionEmbedding: 'learned' })).filter((x) => x.includes('position embedding'));
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/503 M parameters more$/);
  });
  it('the same shape with positionEmbedding "rotary": no parameters added, a long-context stage', () => {
    const w = warningsOf(at(131072, { ...llama3Fields, positionEmbedding: 'rotary' }));
    expect(w.some((x) => x.includes('position embedding'))).toBe(false);
    expect(w).toContainEqual(expect.stringMatching(/longer than my-llama3-8b's \(8,192 tokens\): estimated as a long-context training stage/));
  });
});
