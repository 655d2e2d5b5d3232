import type { Count } from '@trainplan/units';
import { parameterBreakdown } from './parameters.ts';
import type { ModelShape } from './shape.ts';

/**
 * Parameters held by one GPU of each pipeline stage, after tensor-parallel splitting
 * (Megatron: QKV, MLP and vocabulary-parallel embeddings split t ways; norms and row-parallel
 * biases replicated). The first stage holds the word (and learned position) embedding; the last
 * holds the output layer, which with tied embeddings and p > 1 is a second copy of the word
 * embedding whose gradients Megatron all-reduces between the two stages (model reference §1).
 */
export function stageParameters(input: { shape: ModelShape; tensorParallel: number; layersPerStage: readonly number[] }): Count[] {
  const { shape, tensorParallel: t, layersPerStage: stages } = input;
  const p = stages.length;
  const parts = parameterBreakdown(shape);
  const perLayer = parts.perLayerTensorParallel / t + parts.perLayerReplicated;
  return stages.map((layers, i) => {
    let n = layers * perLayer;
    if (i === 0) n += parts.wordEmbedding / t + parts.positionEmbedding;
    if (i === p - 1) {
      n += parts.finalNorm;
      if (!shape.tiedEmbeddings) n += parts.outputLayer / t;
      else if (p > 1) n += parts.wordEmbedding / t;
    }
    return n;
  });
}
