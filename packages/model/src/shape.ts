/**
 * A decoder-only transformer's shape. Field names follow the scenario contract
 * (../shared/docs/scenario-contract.md); the notation in comments follows the model reference
 * (L, h, a, a_kv, f, V, s).
 */
export interface ModelShape {
  readonly name: string;
  /** L */
  readonly layers: number;
  /** h */
  readonly hiddenSize: number;
  /** a */
  readonly attentionHeads: number;
  /** a_kv: key/value heads (GQA); equal to `attentionHeads` for multi-head attention. */
  readonly kvHeads: number;
  /** f: 4h for GPT. */
  readonly ffnHiddenSize: number;
  /** V */
  readonly vocabSize: number;
  /** s: the training sequence length. */
  readonly seqLength: number;
  /** SwiGLU-style MLP with two input projections (3·h·f weights instead of 2·h·f). */
  readonly gatedMlp: boolean;
  /** Input embedding and output layer share one V×h matrix. */
  readonly tiedEmbeddings: boolean;
  /** Learned absolute positions add one row of h parameters per position (GPT-2/3); rotary and ALiBi add none. */
  readonly positionEmbedding: 'learned' | 'rotary' | 'alibi';
  /**
   * Rows of a learned position table: Megatron's --max-position-embeddings, which sizes it whatever length a run trains
   * at (megatron/core/models/common/embeddings/language_model_embedding.py: Embedding(max_sequence_length, h)) and
   * which must be at least the sequence length. Absent: s, the length the model was published at.
   */
  readonly maxPositions?: number;
  /** Linear layers carry bias vectors (GPT-3, BLOOM) or not (Llama, Nemotron-4). */
  readonly linearBias: boolean;
  /** LayerNorm has a scale and a bias (2h), RMSNorm a scale only (h). */
  readonly normalization: 'layernorm' | 'rmsnorm';
}

/** The fields a caller must give; the rest take the contract's defaults (see `withShapeDefaults`). */
export type ModelShapeInput = Pick<ModelShape, 'layers' | 'hiddenSize' | 'attentionHeads' | 'vocabSize' | 'seqLength'> &
  Partial<ModelShape>;

/** Contract defaults: kvHeads = a, f = 4h, plain MLP, tied embeddings (GPT conventions). */
export function withShapeDefaults(input: ModelShapeInput): ModelShape {
  return {
    name: input.name ?? 'custom',
    layers: input.layers,
    hiddenSize: input.hiddenSize,
    attentionHeads: input.attentionHeads,
    kvHeads: input.kvHeads ?? input.attentionHeads,
    ffnHiddenSize: input.ffnHiddenSize ?? 4 * input.hiddenSize,
    vocabSize: input.vocabSize,
    seqLength: input.seqLength,
    gatedMlp: input.gatedMlp ?? false,
    tiedEmbeddings: input.tiedEmbeddings ?? true,
    positionEmbedding: input.positionEmbedding ?? 'learned',
    linearBias: input.linearBias ?? true,
    normalization: input.normalization ?? 'layernorm',
  };
}
