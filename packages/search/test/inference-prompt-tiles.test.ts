import { describe, expect, it } from 'vitest';
import { withShapeDefaults } from '@trainplan/model';
import { estimateInference, type InferenceEstimate, type InferenceShape, type SearchBase } from '../src/index.ts';
import { llama70bBase } from './fixtures.ts';

/** Llama 2 7B (Touvron et al. 2023, Table 1: 32 layers, h 4,096, 32 heads, no GQA, FFN 11,008) on one DGX H100, in FP8. */
const llama2_7b: SearchBase = {
  ...llama70bBase,
  model: withShapeDefaults({
    name: 'llama2-7b', layers: 32, hiddenSize: 4096, attentionHeads: 32, kvHeads: 32, ffnHiddenSize: 11008, vocabSize: 32000,
    seqLength: 4096, gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary', linearBias: false, normalization: 'rmsnorm',
  }),
  nodes: 1,
  precision: 'fp8',
};

function estimate(s: InferenceShape): InferenceEstimate {
  const e = estimateInference(llama2_7b, s);
  if (!e.ok) throw new Error(`${JSON.stringify(s)}: ${e.message}`);
  return e;
}

/** The prompt lengths at which the first token comes sooner than at one token fewer: none, where it never does. */
function drops(shape: Omit<InferenceShape, 'promptTokens'>, prompts: readonly number[]): number[] {
  const ttft = prompts.map((promptTokens) => estimate({ ...shape, promptTokens }).prefillSeconds);
  return prompts.filter((_, i) => i > 0 && ttft[i]! < ttft[i - 1]!);
}

describe('a longer prompt never gives an earlier first token (the flash kernel\'s whole tiles)', () => {
  // QA: Llama 2 7B, H100, FP8, TP 4, batch 64, continuous, 16 tokens out: a 129-token prompt's first token 5.5% sooner
  // than a 128-token one's (the tile share applied to 129² charged 0.75 × 129² scores, under 128's 128²).
  const prompts = Array.from({ length: 21 }, (_, i) => 118 + i);

  it.each(['continuous', 'static'] as const)('%s batching, TP 4, batch 64, prompts of 118 … 138 tokens', (batching) => {
    expect(drops({ tensor: 4, pipeline: 1, batch: 64, outputTokens: 16, batching }, prompts)).toEqual([]);
  });

  it('across the next tile edges too (255 … 257, 511 … 513): each adds a row of tiles', () => {
    const edges = [255, 256, 257, 511, 512, 513];
    expect(drops({ tensor: 4, pipeline: 1, batch: 64, outputTokens: 16, batching: 'continuous' }, edges)).toEqual([]);
    expect(drops({ tensor: 4, pipeline: 1, batch: 64, outputTokens: 16 }, edges)).toEqual([]);
  });
});
