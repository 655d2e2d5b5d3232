import type { ModelShape } from './shape.ts';

/**
 * Rows of a learned position table at `seqLength` tokens: Megatron's --max-position-embeddings where it is set
 * (ModelShape.maxPositions, which must be at least the sequence length), else the sequence length itself
 * (megatron/core/models/common/embeddings/language_model_embedding.py: Embedding(max_sequence_length, h)).
 */
export function learnedPositionRows(shape: Pick<ModelShape, 'seqLength' | 'maxPositions'>, seqLength: number = shape.seqLength): number {
  return Math.max(seqLength, shape.maxPositions ?? 0);
}

/**
 * How far a model is known to attend, and why: 'window', the context window its preset records (Llama 3.1's 131,072);
 * 'learned', the rows of a learned position table (GPT-3's 2,048: as published it has no position past them, Brown et al.
 * 2020); 'trained', the sequence length it was trained at, no window being recorded (rotary and ALiBi models may attend
 * past it, which the length alone does not say).
 */
export interface AttendLimit {
  readonly tokens: number;
  readonly kind: 'window' | 'learned' | 'trained';
}

/** The attend limit of `shape`, given the context window its preset records, if any. */
export function attendLimit(shape: ModelShape, contextWindowTokens: number | undefined): AttendLimit {
  if (contextWindowTokens !== undefined) return { tokens: contextWindowTokens, kind: 'window' };
  if (shape.positionEmbedding === 'learned') return { tokens: learnedPositionRows(shape), kind: 'learned' };
  return { tokens: shape.seqLength, kind: 'trained' };
}
