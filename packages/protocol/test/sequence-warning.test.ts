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
    expect(warningsOf(long).filter((w) => /longer than GPT-3 175B's \(2,048 tokens\): its learned position embedding .* 75\.5 M parameters/.test(w))).toHaveLength(1);
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
});
