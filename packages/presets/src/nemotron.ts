import { billion, trillion } from '@trainplan/units';
import type { ModelShape } from '@trainplan/model';
import type { ModelPreset } from './model-preset.ts';

// Nemotron-4: squared-ReLU MLP (not gated, f = 4h), GQA with 8 KV heads, RoPE, no biases, untied
// embeddings, LayerNorm (NeMo's layernorm1p, which keeps a bias), s = 4096, V = 256000.
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

export const NEMOTRON_MODELS: readonly ModelPreset[] = [
  {
    id: 'nemotron4-15b',
    shape: { ...NEMOTRON4, name: 'Nemotron-4 15B', layers: 32, hiddenSize: 6144, attentionHeads: 48, ffnHiddenSize: 24576 },
    publishedParameters: billion(15),
    source: {
      title: 'Parmar et al. 2024, Nemotron-4 15B Technical Report (arXiv:2402.16819)',
      url: 'https://arxiv.org/abs/2402.16819',
      note: 'Table 1: 32 layers, hidden 6144, 48 heads, 8 KV heads, sequence 4096, vocab 256,000; Sec. 2: 8T tokens, '
        + 'squared ReLU, no bias, untied embeddings. FFN 24576 (4h) from the NeMo config; the paper does not list it.',
    },
    defaultTrainingTokens: trillion(8),
    // Sec. 2: "... no bias terms, dropout rate of zero, and untied input-output embeddings".
    trainedWithDropout: false,
  },
  {
    id: 'nemotron4-340b',
    shape: { ...NEMOTRON4, name: 'Nemotron-4 340B', layers: 96, hiddenSize: 18432, attentionHeads: 96, ffnHiddenSize: 73728 },
    publishedParameters: billion(340),
    source: {
      title: 'NVIDIA (Adler et al.) 2024, Nemotron-4 340B Technical Report (arXiv:2406.11704)',
      url: 'https://arxiv.org/abs/2406.11704',
      note: 'Table 1: 96 layers, hidden 18432, 96 heads, 8 KV heads, sequence 4096, vocab 256,000; 9T tokens '
        + '(8T pre-training + 1T continued). FFN 73728 (4h) from the released config; the paper does not list it.',
    },
    defaultTrainingTokens: trillion(9),
    // Sec. 2.1: the 15B's architecture at a larger width, dropout rate of zero included.
    trainedWithDropout: false,
  },
];
