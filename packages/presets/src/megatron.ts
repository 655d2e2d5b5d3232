import type { Citation } from '@trainplan/hardware';
import { billion } from '@trainplan/units';
import { GPT2_BPE, gptShape, MEGATRON_DEFAULT_DROPOUT, type ModelPreset } from './model-preset.ts';

// Narayanan et al. 2021 (SC'21), Table 1: the weak-scaling GPT models, s = 2048, V = 51200.
// Every preset cites its paper in MEGATRON_SOURCES below (keyed by id, so the compiler demands one per
// preset), not on the preset the planner computes with.
const SC21 = {
  title: 'Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM (arXiv:2104.04473, SC\'21)',
  url: 'https://arxiv.org/abs/2104.04473',
};

// The last column is the table's "Batch size" for the row's run, in sequences of 2,048 (the paper trains no model to
// convergence: it is the batch of the throughput runs, and the only one the paper states for these models).
const TABLE_1 = [
  ['megatron-1.7b', 1.7, 24, 2304, 24, 512],
  ['megatron-3.6b', 3.6, 30, 3072, 32, 512],
  ['megatron-7.5b', 7.5, 36, 4096, 32, 512],
  ['megatron-18.4b', 18.4, 40, 6144, 48, 1024],
  ['megatron-39.1b', 39.1, 48, 8192, 64, 1536],
  ['megatron-76.1b', 76.1, 60, 10240, 80, 1792],
  ['megatron-145.6b', 145.6, 80, 12288, 96, 2304],
  ['megatron-310.1b', 310.1, 96, 16384, 128, 2160],
  ['megatron-529.6b', 529.6, 105, 20480, 128, 2520],
  ['megatron-1t', 1008, 128, 25600, 160, 3072],
] as const satisfies readonly (readonly [id: string, billions: number, layers: number, hiddenSize: number, attentionHeads: number, batch: number])[];

export const MEGATRON_MODELS = [
  ...TABLE_1.map(([id, billions, layers, hiddenSize, attentionHeads, batch]) => ({
    id,
    shape: gptShape({ name: `Megatron GPT ${billions}B`, layers, hiddenSize, attentionHeads, vocabSize: 51200, seqLength: 2048 }),
    publishedParameters: billion(billions),
    publishedGlobalBatchSize: batch,
    trainedWithDropout: MEGATRON_DEFAULT_DROPOUT,
    tokenizer: GPT2_BPE,
  }) satisfies ModelPreset),
  {
    id: 'mt-nlg-530b',
    shape: gptShape({ name: 'Megatron-Turing NLG 530B', layers: 105, hiddenSize: 20480, attentionHeads: 128, vocabSize: 51200, seqLength: 2048 }),
    publishedParameters: billion(530),
    defaultTrainingTokens: billion(270),
    // §3.2: "batch size of 1920" after a ramp-up from 32 (Korthikanti 2022 and SC'21 use the same 1920 for 530B).
    publishedGlobalBatchSize: 1920,
    trainedWithDropout: MEGATRON_DEFAULT_DROPOUT,
    tokenizer: GPT2_BPE,
  },
] as const satisfies readonly ModelPreset[];

export type MegatronModelId = (typeof MEGATRON_MODELS)[number]['id'];

/**
 * Each preset's source and the figures taken from it, by id: one per preset, which the Record type demands. Built in
 * a pure-annotated call so that a bundle that never reads it (the widget) drops it whole.
 */
export const MEGATRON_SOURCES = /* @__PURE__ */ ((): Readonly<Record<MegatronModelId, Citation>> => ({
  ...Object.fromEntries(TABLE_1.map(([id, billions]) => [id, {
    ...SC21,
    note: `Table 1, row "${billions}" billion parameters: layers, hidden size, attention heads and batch size; s = 2048 and V = 51200 as the paper states for all of them.`,
  }])) as Record<(typeof TABLE_1)[number][0], Citation>,
  'mt-nlg-530b': {
    title: 'Smith et al. 2022, Using DeepSpeed and Megatron to Train Megatron-Turing NLG 530B (arXiv:2201.11990)',
    url: 'https://arxiv.org/abs/2201.11990',
    note: '105 layers, hidden 20480, 128 heads, sequence 2048, trained on 270B tokens. Vocabulary: GPT-2 BPE '
      + '(50257), padded to 51200 as in Megatron-LM; the paper does not state the padded size.',
  },
}))();
