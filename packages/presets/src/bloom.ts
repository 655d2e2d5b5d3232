import type { Citation } from '@trainplan/hardware';
import { billion } from '@trainplan/units';
import { MEGATRON_DEFAULT_DROPOUT, type ModelPreset } from './model-preset.ts';

// BLOOM cites its paper in BLOOM_SOURCES below (keyed by id, so the compiler demands one per preset), not on the
// preset the planner computes with.

export const BLOOM_MODELS = [
  {
    id: 'bloom-176b',
    shape: {
      name: 'BLOOM 176B',
      layers: 70,
      hiddenSize: 14336,
      attentionHeads: 112,
      kvHeads: 112,
      ffnHiddenSize: 4 * 14336,
      vocabSize: 250880,
      seqLength: 2048,
      gatedMlp: false,
      tiedEmbeddings: true,
      positionEmbedding: 'alibi',
      linearBias: true,
      normalization: 'layernorm',
    },
    publishedParameters: billion(176),
    defaultTrainingTokens: billion(366),
    // §3.4.1 training hyperparameters: global batch 2048 after a ramp-up (tr11-176B-ml.slurm GLOBAL_BATCH_SIZE=2048).
    publishedGlobalBatchSize: 2048,
    // bigscience train/tr11-176B-ml/tr11-176B-ml.slurm passes no --hidden-dropout or --attention-dropout:
    // Megatron-DeepSpeed's 0.1 (the released Hugging Face config's 0.0 is for inference).
    trainedWithDropout: MEGATRON_DEFAULT_DROPOUT,
    // BigScience 2022 (arXiv:2211.05100), its tokenizer: 250,680 tokens, padded to 250,880 rows for tensor parallelism.
    tokenizer: { name: "BLOOM's BPE", tokens: 250680 },
  },
] as const satisfies readonly ModelPreset[];

export type BloomModelId = (typeof BLOOM_MODELS)[number]['id'];

/**
 * Each preset's source and the figures taken from it, by id: one per preset, which the Record type demands. Built in
 * a pure-annotated call so that a bundle that never reads it (the widget) drops it whole.
 */
export const BLOOM_SOURCES = /* @__PURE__ */ ((): Readonly<Record<BloomModelId, Citation>> => ({
  'bloom-176b': {
    title: 'BigScience Workshop 2022, BLOOM: A 176B-Parameter Open-Access Multilingual Language Model (arXiv:2211.05100)',
    url: 'https://arxiv.org/abs/2211.05100',
    note: 'Model configuration table: 70 layers, hidden 14336, 112 heads, sequence 2048, ALiBi, tied embeddings, '
      + 'GELU MLP (4h); 366B training tokens. Vocabulary 250,680 padded to 250,880 for tensor parallelism. '
      + 'The extra LayerNorm after the embedding (2h parameters) is not in the shape.',
  },
}))();
