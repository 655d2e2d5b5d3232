import type { Citation } from '@trainplan/hardware';
import { billion, trillion } from '@trainplan/units';
import { llamaShape, type ModelPreset } from './model-preset.ts';

// Every preset cites its paper or model card in LLAMA_SOURCES below (keyed by id, so the compiler demands one per
// preset), not on the preset the planner computes with.

const LLAMA2 = {
  title: 'Touvron et al. 2023, Llama 2: Open Foundation and Fine-Tuned Chat Models (arXiv:2307.09288)',
  url: 'https://arxiv.org/abs/2307.09288',
};
const LLAMA2_NOTE = 'Table 1: context 4k, 2.0T tokens, GQA for 34B and 70B. The paper gives no widths: layers, d_model '
  + 'and heads follow Llama 1 (arXiv:2302.13971, Table 2), FFN sizes the released params/config; vocab 32000.';

/** "a global batch-size of 4M tokens" (Touvron et al. 2023, Llama 2 §2.2): 1,024 sequences of 4,096. */
const LLAMA2_BATCH = 1024;

const LLAMA3 = {
  title: 'Dubey et al. 2024, The Llama 3 Herd of Models (arXiv:2407.21783)',
  url: 'https://arxiv.org/abs/2407.21783',
};
const LLAMA3_NOTE = 'Table 3: layers, model dim, FFN dim, heads, 8 KV heads. Table 3 rounds the vocabulary to 128,000; '
  + 'the released tokenizer has 128,256 (256 reserved special tokens). Pre-training sequence 8192 (the 128K '
  + 'context comes from a later long-context stage).';

/** Llama 3's RoPE base: "We increase the RoPE base frequency hyperparameter to 500,000" (Dubey et al. 2024, §3.2; Table 3). */
const LLAMA3_ROTARY_BASE = 500_000;

/**
 * Llama 3.1's RoPE frequency scaling (rope_type llama3): factor 8 in meta-llama/Llama-3.1-8B, -70B and -405B config.json,
 * 32 in meta-llama/Llama-3.2-1B's (each with original_max_position_embeddings 8192). Llama 3 has none.
 */
const LLAMA31_ROPE_SCALING = 8;
const LLAMA32_ROPE_SCALING = 32;

/**
 * Llama 3.1's and 3.2's context window: "a context window of 128K tokens" after continued pre-training on long
 * sequences (Dubey et al. 2024, §3.4.2); max_position_embeddings 131072 in meta-llama/Llama-3.1-*'s and Llama-3.2-1B's config.json.
 */
const LLAMA31_CONTEXT_WINDOW = 131_072;

// No dropout in any Llama: Meta's reference code (meta-llama/llama and llama3, llama/model.py) has no dropout
// layer, and NeMo's Llama recipes set hidden_dropout and attention_dropout to 0.
export const LLAMA_MODELS = [
  {
    id: 'llama2-7b',
    shape: llamaShape({ name: 'Llama 2 7B', layers: 32, hiddenSize: 4096, attentionHeads: 32, kvHeads: 32, ffnHiddenSize: 11008, vocabSize: 32000, seqLength: 4096 }),
    publishedParameters: billion(7),
    defaultTrainingTokens: trillion(2),
    trainedWithDropout: false,
    publishedGlobalBatchSize: LLAMA2_BATCH,
  },
  {
    id: 'llama2-13b',
    shape: llamaShape({ name: 'Llama 2 13B', layers: 40, hiddenSize: 5120, attentionHeads: 40, kvHeads: 40, ffnHiddenSize: 13824, vocabSize: 32000, seqLength: 4096 }),
    publishedParameters: billion(13),
    defaultTrainingTokens: trillion(2),
    trainedWithDropout: false,
    publishedGlobalBatchSize: LLAMA2_BATCH,
  },
  {
    id: 'llama2-70b',
    shape: llamaShape({ name: 'Llama 2 70B', layers: 80, hiddenSize: 8192, attentionHeads: 64, kvHeads: 8, ffnHiddenSize: 28672, vocabSize: 32000, seqLength: 4096 }),
    publishedParameters: billion(70),
    defaultTrainingTokens: trillion(2),
    trainedWithDropout: false,
    publishedGlobalBatchSize: LLAMA2_BATCH,
  },
  {
    id: 'llama3-8b',
    shape: llamaShape({ name: 'Llama 3 8B', layers: 32, hiddenSize: 4096, attentionHeads: 32, kvHeads: 8, ffnHiddenSize: 14336, vocabSize: 128256, seqLength: 8192 }),
    publishedParameters: billion(8),
    defaultTrainingTokens: trillion(15),
    trainedWithDropout: false,
    rotaryBase: LLAMA3_ROTARY_BASE,
  },
  {
    id: 'llama3-70b',
    shape: llamaShape({ name: 'Llama 3 70B', layers: 80, hiddenSize: 8192, attentionHeads: 64, kvHeads: 8, ffnHiddenSize: 28672, vocabSize: 128256, seqLength: 8192 }),
    publishedParameters: billion(70),
    defaultTrainingTokens: trillion(15),
    trainedWithDropout: false,
    rotaryBase: LLAMA3_ROTARY_BASE,
  },
  {
    id: 'llama3.1-8b',
    shape: llamaShape({ name: 'Llama 3.1 8B', layers: 32, hiddenSize: 4096, attentionHeads: 32, kvHeads: 8, ffnHiddenSize: 14336, vocabSize: 128256, seqLength: 8192 }),
    publishedParameters: billion(8),
    defaultTrainingTokens: trillion(15),
    trainedWithDropout: false,
    rotaryBase: LLAMA3_ROTARY_BASE,
    ropeScalingFactor: LLAMA31_ROPE_SCALING,
    contextWindowTokens: LLAMA31_CONTEXT_WINDOW,
  },
  {
    id: 'llama3.1-70b',
    shape: llamaShape({ name: 'Llama 3.1 70B', layers: 80, hiddenSize: 8192, attentionHeads: 64, kvHeads: 8, ffnHiddenSize: 28672, vocabSize: 128256, seqLength: 8192 }),
    publishedParameters: billion(70),
    defaultTrainingTokens: trillion(15),
    trainedWithDropout: false,
    rotaryBase: LLAMA3_ROTARY_BASE,
    ropeScalingFactor: LLAMA31_ROPE_SCALING,
    contextWindowTokens: LLAMA31_CONTEXT_WINDOW,
  },
  {
    // The usual draft model for speculative decoding of the Llama 3 family (same tokenizer).
    id: 'llama3.2-1b',
    shape: { ...llamaShape({ name: 'Llama 3.2 1B', layers: 16, hiddenSize: 2048, attentionHeads: 32, kvHeads: 8, ffnHiddenSize: 8192, vocabSize: 128256, seqLength: 8192 }), tiedEmbeddings: true },
    publishedParameters: billion(1.23),
    defaultTrainingTokens: trillion(9),
    trainedWithDropout: false,
    rotaryBase: LLAMA3_ROTARY_BASE,
    ropeScalingFactor: LLAMA32_ROPE_SCALING,
    contextWindowTokens: LLAMA31_CONTEXT_WINDOW,
  },
  {
    id: 'llama3.2-3b',
    shape: { ...llamaShape({ name: 'Llama 3.2 3B', layers: 28, hiddenSize: 3072, attentionHeads: 24, kvHeads: 8, ffnHiddenSize: 8192, vocabSize: 128256, seqLength: 8192 }), tiedEmbeddings: true },
    publishedParameters: billion(3.21),
    defaultTrainingTokens: trillion(9),
    trainedWithDropout: false,
    rotaryBase: LLAMA3_ROTARY_BASE,
    ropeScalingFactor: LLAMA32_ROPE_SCALING,
    contextWindowTokens: LLAMA31_CONTEXT_WINDOW,
  },
  {
    id: 'llama3.1-405b',
    shape: llamaShape({ name: 'Llama 3.1 405B', layers: 126, hiddenSize: 16384, attentionHeads: 128, kvHeads: 8, ffnHiddenSize: 53248, vocabSize: 128256, seqLength: 8192 }),
    publishedParameters: billion(405),
    defaultTrainingTokens: trillion(15.6),
    trainedWithDropout: false,
    rotaryBase: LLAMA3_ROTARY_BASE,
    ropeScalingFactor: LLAMA31_ROPE_SCALING,
    contextWindowTokens: LLAMA31_CONTEXT_WINDOW,
  },
] as const satisfies readonly ModelPreset[];

export type LlamaModelId = (typeof LLAMA_MODELS)[number]['id'];

/**
 * Each preset's source and the figures taken from it, by id: one per preset, which the Record type demands. Built in
 * a pure-annotated call so that a bundle that never reads it (the widget) drops it whole.
 */
export const LLAMA_SOURCES = /* @__PURE__ */ ((): Readonly<Record<LlamaModelId, Citation>> => ({
  'llama2-7b': { ...LLAMA2, note: LLAMA2_NOTE },
  'llama2-13b': { ...LLAMA2, note: LLAMA2_NOTE },
  'llama2-70b': { ...LLAMA2, note: LLAMA2_NOTE },
  'llama3-8b': { ...LLAMA3, note: `${LLAMA3_NOTE} About 15T tokens (the model card says "over 15T").` },
  'llama3-70b': { ...LLAMA3, note: `${LLAMA3_NOTE} About 15T tokens (the model card says "over 15T").` },
  'llama3.1-8b': { ...LLAMA3, note: `${LLAMA3_NOTE} Same shape as Llama 3 8B; the model card states ~15T tokens.` },
  'llama3.1-70b': { ...LLAMA3, note: `${LLAMA3_NOTE} Same shape as Llama 3 70B; the model card states ~15T tokens.` },
  'llama3.2-1b': {
    title: 'Meta, Llama 3.2 model card and meta-llama/Llama-3.2-1B config.json (2024-09-25)',
    url: 'https://huggingface.co/meta-llama/Llama-3.2-1B',
    note: 'config.json: 16 layers, hidden 2048, 32 heads (head dim 64), 8 KV heads, intermediate 8192, vocab 128,256, '
      + 'tie_word_embeddings true; rope scaling from an original 8192-token context; the model card gives 1.23B parameters and up to 9T tokens.',
  },
  'llama3.2-3b': {
    title: 'Meta, Llama 3.2 model card and meta-llama/Llama-3.2-3B config.json (2024-09-25)',
    url: 'https://huggingface.co/meta-llama/Llama-3.2-3B',
    note: 'config.json: 28 layers, hidden 3072, 24 heads (head dim 128), 8 KV heads, intermediate 8192, vocab 128,256, '
      + 'tie_word_embeddings true; rope scaling from an original 8192-token context; the model card gives 3.21B parameters and up to 9T tokens.',
  },
  'llama3.1-405b': { ...LLAMA3, note: `${LLAMA3_NOTE} 405B pre-trained on 15.6T tokens (Sec. 3).` },
}))();
