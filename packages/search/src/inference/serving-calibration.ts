import { resolveCalibration } from '@trainplan/planner';
import type { InferenceBase } from './inference-shape.ts';

/**
 * FP8 GEMMs against 16-bit ones, each at its own kernel's rate timed alone on an H100 (docs/validation.md, "Kernels
 * measured": 0.639 of the FP8 peak against 0.720 of the 16-bit one over the plans' GEMM shapes). Hopper's only: Blackwell
 * shares Hopper's constants (planner calibration.ts), and no earlier generation has FP8 tensor cores.
 */
export const FP8_OVER_16_BIT_GEMM_RATE = 0.639 / 0.72;

/**
 * The base a serving estimate is costed on: with FP8 weights, GEMMs at the 16-bit constant times the kernels' measured
 * FP8 ratio (0.59 × 0.888 = 0.52 of the FP8 peak on Hopper), not training's fitted FP8 constant (0.44). That one is
 * fitted on Transformer Engine training steps, whose FP8 GEMMs carry per-step scaling, casts and transposed copies of
 * their operands beside them, which trainplan does not cost apart (docs/validation.md: GPT-3 175B's FP8 training steps
 * take 0.70 of their BF16 ones where their linears alone take 0.57). A serving engine quantises the weights once and
 * fuses the activations' cast into the kernel before (TensorRT-LLM's FP8 recipe), so its GEMMs keep the ratio their
 * kernels have. QA against TensorRT-LLM's perf-overview (36 FP8 rows), MLPerf Inference Llama 2 70B and NVIDIA NIM found
 * FP8 prefill 17–35% slow with the training constant. An explicit calibration override is kept.
 */
export function servingBase(base: InferenceBase): InferenceBase {
  if (base.precision !== 'fp8' || base.calibration?.fp8GemmPeakFraction !== undefined) return base;
  // Object.assign, not a spread: an estimate's base has some 30 properties (candidate.ts planFor).
  return Object.assign({}, base, { calibration: { ...base.calibration, fp8GemmPeakFraction: resolveCalibration(base).gemmPeakFraction * FP8_OVER_16_BIT_GEMM_RATE } });
}
