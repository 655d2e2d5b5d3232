import { BYTES_16BIT, bytesPerValue, parameterBreakdown, stageParameters, type ModelShape } from '@trainplan/model';
import type { TrainingPrecision } from '@trainplan/planner';
import type { Bytes } from '@trainplan/units';

/** The bytes a value of the output layer, embedding and norms take as served: 16-bit under FP8 (servingStageWeightBytes). */
export const outputLayerBytesPerValue = (precision: TrainingPrecision): number => Math.max(bytesPerValue(precision), BYTES_16BIT);

/**
 * The bytes a served model's weights take on each pipeline stage. Its layers' linears are in the precision served; their
 * norms, and the embedding, positions, final norm and output layer, stay 16-bit under FP8: FP8 checkpoints quantise the
 * blocks' linear layers only (NVIDIA TensorRT Model Optimizer's FP8 configs disable "*lm_head*"; llm-compressor's FP8 and w8a8 recipes
 * `ignore: ["lm_head"]`; the embedding is a lookup, never a GEMM operand). QA: vLLM loads Llama 3.1 70B w8a8 as
 * "67.72 GB" of weights (vllm-project/vllm#12569: its GiB), 68.45B layer parameters at 1 byte and 2 × 1.05B of embedding
 * and output layer at 2, where every parameter at 1 byte gave 65.7 GiB and a KV cache 2 GiB too large.
 */
export function servingStageWeightBytes(model: ModelShape, tensor: number, layersPerStage: readonly number[], precision: TrainingPrecision): Bytes[] {
  const all = stageParameters({ shape: model, tensorParallel: tensor, layersPerStage });
  // A layer's linears (tensor-parallel, with their column biases) in the precision served; its norms and row biases, held whole
  // on each rank, 16-bit as the parameters outside the layers are.
  const parts = parameterBreakdown(model);
  const [bytes, wide] = [bytesPerValue(precision), outputLayerBytesPerValue(precision)];
  return all.map((n, i) => {
    const linears = layersPerStage[i]! * (parts.perLayerTensorParallel / tensor);
    return linears * bytes + (n - linears) * wide;
  });
}

/** A whole model's weights on each of `tensor` GPUs, served as servingStageWeightBytes serves them (a draft model's, on one stage). */
export const servingWeightBytes = (model: ModelShape, tensor: number, precision: TrainingPrecision): Bytes =>
  servingStageWeightBytes(model, tensor, [model.layers], precision)[0]!;
