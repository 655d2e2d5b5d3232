import type { Citation } from '@trainplan/hardware';
import { billion, trillion } from '@trainplan/units';
import type { ModelShape } from '@trainplan/model';
import type { ModelPreset } from './model-preset.ts';

// Nemotron-4: squared-ReLU MLP (not gated, f = 4h), GQA with 8 KV heads, RoPE, no biases, untied
// embeddings, LayerNorm (NeMo's layernorm1p, which keeps a bias), s = 4096, V = 256000.
// Every preset cites its technical report in NEMOTRON_SOURCES below (keyed by id, so the compiler demands one per
// preset), not on the preset the planner computes with.
const NEMOTRON4 = {
  kvHeads: 8,
  vocabSize: 256000,
  seqLength: 4096,
  gatedMlp: false,
  tiedEmbeddings: false,
  positionEmbedding: 'rotary',
  linearBias: false,
  normalization: 'layernorm',
} as const satisfies Partial<ModelShape>;

// What the shape does not hold and an exported command line must: squared-ReLU MLP, LayerNorm1p (zero-centred γ) and
// RoPE on half of each head's dimensions. NVIDIA's NeMo configs for both sizes: NeMo 2 NemotronConfig
// (nemo/collections/llm/gpt/model/nemotron.py: activation_func squared_relu, layernorm_zero_centered_gamma True,
// rotary_percent 0.5) and the NeMo-Framework-Launcher's conf/training/nemotron/nemotron_15b.yaml (activation:
// squared-relu, normalization: layernorm1p, rotary_percentage: 0.5).
const NEMOTRON4_EXPORT = { mlpActivation: 'squared-relu', layerNorm1p: true, rotaryPercent: 0.5 } as const;

export const NEMOTRON_MODELS = [
  {
    id: 'nemotron4-15b',
    shape: { ...NEMOTRON4, name: 'Nemotron-4 15B', layers: 32, hiddenSize: 6144, attentionHeads: 48, ffnHiddenSize: 24576 },
    ...NEMOTRON4_EXPORT,
    publishedParameters: billion(15),
    defaultTrainingTokens: trillion(8),
    // Sec. 2: "... no bias terms, dropout rate of zero, and untied input-output embeddings".
    trainedWithDropout: false,
  },
  {
    id: 'nemotron4-340b',
    shape: { ...NEMOTRON4, name: 'Nemotron-4 340B', layers: 96, hiddenSize: 18432, attentionHeads: 96, ffnHiddenSize: 73728 },
    ...NEMOTRON4_EXPORT,
    publishedParameters: billion(340),
    defaultTrainingTokens: trillion(9),
    // Table 2: the batch ramped 768 → 1,536 → 2,304 sequences; the last stage, on all 6,144 GPUs, took most of the tokens.
    publishedGlobalBatchSize: 2304,
    // Sec. 2.1: the 15B's architecture at a larger width, dropout rate of zero included.
    trainedWithDropout: false,
  },
] as const satisfies readonly ModelPreset[];

export type NemotronModelId = (typeof NEMOTRON_MODELS)[number]['id'];

/**
 * Each preset's source and the figures taken from it, by id: one per preset, which the Record type demands. Built in
 * a pure-annotated call so that a bundle that never reads it (the widget) drops it whole.
 */
export const NEMOTRON_SOURCES = /* @__PURE__ */ ((): Readonly<Record<NemotronModelId, Citation>> => ({
  'nemotron4-15b': {
    title: 'Parmar et al. 2024, Nemotron-4 15B Technical Report (arXiv:2402.16819)',
    url: 'https://arxiv.org/abs/2402.16819',
    note: 'Table 1: 32 layers, hidden 6144, 48 heads, 8 KV heads, sequence 4096, vocab 256,000; Sec. 2: 8T tokens, '
      + 'squared ReLU, no bias, untied embeddings. FFN 24576 (4h) from the NeMo config; the paper does not list it.',
  },
  'nemotron4-340b': {
    title: 'NVIDIA (Adler et al.) 2024, Nemotron-4 340B Technical Report (arXiv:2406.11704)',
    url: 'https://arxiv.org/abs/2406.11704',
    note: 'Table 1: 96 layers, hidden 18432, 96 heads, 8 KV heads, sequence 4096, vocab 256,000; 9T tokens '
      + '(8T pre-training + 1T continued). Table 2: batch 768, 1,536, then 2,304 sequences on 6,144 H100 at 8.0 s an iteration. '
      + 'FFN 73728 (4h) from the released config; the paper does not list it.',
  },
}))();
