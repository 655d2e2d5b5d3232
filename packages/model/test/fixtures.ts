import { withShapeDefaults, type ModelShape } from '../src/index.ts';

/** GPT-3 175B as Megatron trains it (Brown et al. 2020 Table 2.1; vocabulary padded to 51200). */
export const gpt3_175b: ModelShape = withShapeDefaults({
  name: 'gpt3-175b', layers: 96, hiddenSize: 12288, attentionHeads: 96, vocabSize: 51200, seqLength: 2048,
});

/** Llama 3 70B (Dubey et al. 2024, Table 3): GQA with 8 KV heads, SwiGLU, untied, RMSNorm, no biases. */
export const llama3_70b: ModelShape = withShapeDefaults({
  name: 'llama3-70b', layers: 80, hiddenSize: 8192, attentionHeads: 64, kvHeads: 8, ffnHiddenSize: 28672,
  vocabSize: 128256, seqLength: 8192, gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary',
  linearBias: false, normalization: 'rmsnorm',
});

/** The 22B model of Korthikanti et al. 2022 Table 3. */
export const korthikanti22b: ModelShape = withShapeDefaults({
  name: '22b', layers: 48, hiddenSize: 6144, attentionHeads: 64, vocabSize: 51200, seqLength: 2048,
});
