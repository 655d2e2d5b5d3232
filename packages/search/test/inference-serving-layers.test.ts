import { describe, expect, it } from 'vitest';
import { pipelineSplit, withShapeDefaults } from '@trainplan/model';
import { estimateInference, planInference } from '../src/index.ts';
import { servingLayerSplit } from '../src/inference/serving-layers.ts';
import { llama70bBase } from './fixtures.ts';

/** GPT-3 Small (Brown et al. 2020, Table 2.1: 12 layers, h 768, 12 heads), which Megatron's split cannot put on 8 stages. */
const gpt3Small = withShapeDefaults({ name: 'gpt3-126m', layers: 12, hiddenSize: 768, attentionHeads: 12, vocabSize: 50257, seqLength: 2048 });

describe('serving splits layers over pipeline stages as vLLM does (get_pp_indices)', () => {
  it('⌊L/p⌋ each, the rest one each on the stages before the last, from the second-to-last back', () => {
    expect(servingLayerSplit(12, 8)).toEqual([1, 1, 1, 2, 2, 2, 2, 1]);
    // vLLM's own example: 61 layers on 4 stages.
    expect(servingLayerSplit(61, 4)).toEqual([15, 15, 16, 15]);
    expect(servingLayerSplit(80, 3)).toEqual([27, 27, 26]);
    expect(servingLayerSplit(7, 7)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(servingLayerSplit(80, 1)).toEqual([80]);
  });

  it('12 layers on 8 stages, which Megatron\'s training split refuses, serve: the heaviest stage holds 2 layers', () => {
    expect(pipelineSplit(12, 8)).toBeUndefined();
    const base = { ...llama70bBase, model: gpt3Small };
    const shape = { tensor: 1, pipeline: 8, batch: 8, promptTokens: 512, outputTokens: 128 };
    const e = estimateInference(base, { ...shape, batching: 'continuous' });
    if (!e.ok) throw new Error(e.message);
    const one = estimateInference(base, { ...shape, pipeline: 1 });
    if (!one.ok) throw new Error(one.message);
    // Two of the 12 layers' weights and KV cache on the heaviest of 8 stages, against all 12 on one.
    expect(e.kvCacheBytesPerGpu / e.shape.batch).toBeLessThan((one.kvCacheBytesPerGpu / one.shape.batch) * (2 / 12) * 1.01);
    const plan = planInference(base, { promptTokens: 512, outputTokens: 128, batching: 'continuous', tensor: [1], pipeline: [8] });
    expect(plan.byShape[0]!.answer.ok).toBe(true);
  });
});
