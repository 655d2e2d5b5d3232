import type { Bytes } from '@trainplan/units';
import { parameterBreakdown } from './parameters.ts';
import type { ModelShape } from './shape.ts';

/**
 * Bytes per linear-layer weight that FP8 training keeps beside the 16-bit weight: Transformer Engine casts
 * each weight once per step (Megatron passes `is_first_microbatch`, so later micro-batches reuse the cast)
 * and keeps two 1-byte copies until the step ends: on Hopper the FP8 weight and its FP8 transpose, since
 * Hopper's FP8 tensor cores take only TN GEMMs and the backward pass needs the transpose; on Blackwell
 * MXFP8's row-wise and column-wise scaled copies ("MXFP8 requires 2 bytes/param because the forward and
 * backward pass require different scaling formats"). Sources: NVIDIA/TransformerEngine#1261 and #1880
 * (maintainer's replies), #244 (the persistent FP8 weight and transpose workspaces). Megatron's
 * `--fp8-param-gather` (off by default; NVIDIA's DGX Cloud recipes set NeMo's fp8_params) drops the 16-bit weight
 * instead: the planner's `fp8Params` then counts no copies (packages/planner/src/plan-memory.ts).
 */
const FP8_WEIGHT_COPY_BYTES = 2;

/**
 * FP8 weight copies per GPU for `layers` transformer layers split `tensorParallel` ways: only the weight
 * matrices are cast (biases, norms, the embedding and the output layer stay 16-bit; NeMo's FP8 argument
 * table: "the QKV, projection, FC1, and FC2 matrix multiplications" run in FP8).
 */
export function fp8WeightCopyBytes(input: { shape: ModelShape; tensorParallel: number; layers: number }): Bytes {
  return (FP8_WEIGHT_COPY_BYTES * input.layers * parameterBreakdown(input.shape).perLayerMatrices) / input.tensorParallel;
}
