import type { GpuGeneration } from '@trainplan/hardware';
import { us, type Seconds } from '@trainplan/units';

/**
 * The compute model's calibration: a few physical constants per GPU generation, never per model,
 * per run or per source. Each is a fraction of a datasheet peak or a time. Ampere and Hopper are
 * fitted by `npm run calibrate <generation>` (test/validation/src/fit.ts: a bounded coordinate search
 * minimising step-time MAPE over that generation's tier A/B rows of ../shared/ground-truth);
 * docs/validation.md reports the residuals. Volta and Blackwell have no published runs in the
 * ground truth: they carry their nearest fitted generation's values until measurements exist.
 */
export interface ComputeCalibration {
  /** Fraction of the dense tensor peak a large, well-shaped 16-bit GEMM sustains (cuBLAS, clocks under load). */
  readonly gemmPeakFraction: number;
  /** Same for FP8 GEMMs, relative to the FP8 peak. */
  readonly fp8GemmPeakFraction: number;
  /** Fraction of the 16-bit peak a fused (flash) attention kernel sustains on long sequences. */
  readonly attentionPeakFraction: number;
  /**
   * Fixed cost of one flash-attention thread block, in key-tile iterations: loading its query tile, writing its output
   * and softmax statistics, the pipeline's fill. A block of k̄ key tiles runs at k̄ / (k̄ + this) of the long-sequence
   * rate (layer-time.ts), so short sequences run slower; 0 charges every length the same rate.
   */
  readonly attentionBlockOverheadTiles: number;
  /** Fraction of HBM bandwidth an element-wise kernel reaches. */
  readonly hbmFraction: number;
  /** Fixed cost of one kernel: launch gap (eager PyTorch launches from the CPU), ramp-up and tail. */
  readonly kernelOverhead: Seconds;
}

/**
 * Fitted on the 37 scored A100 rows (10 Narayanan SC'21, 11 Korthikanti 2022, 16 BLOOM: the rows fit.ts
 * scores), refitted 2026-11-23 once the unfused per-micro-batch gradient accumulation of SC'21 and BLOOM
 * (gradient-accumulation.ts) and DeepSpeed's partitioned pipeline sends were modelled: GEMM 0.72 → 0.73,
 * HBM 0.75 → 0.70 (the fit's lower bound), kernel overhead 2 µs unchanged. After ZeRO-1's traffic was
 * corrected to 2Ψ the fit suggests GEMM 0.72 for A100 MAPE 5.75% → 5.74%: a step inside the flat bottom of
 * the fit, driven by the BLOOM rows' unmodelled data-parallel slowdown (docs/validation.md), so not adopted.
 */
const AMPERE: ComputeCalibration = {
  gemmPeakFraction: 0.73,
  fp8GemmPeakFraction: 0,
  // No A100 row uses flash attention; FlashAttention-2 reports 50–73% of A100 peak forward (Dao 2023, Fig. 4).
  attentionPeakFraction: 0.55,
  // No flash kernel timed on an A100 here: one rate at every length, the fraction above (the per-block cost is Hopper's).
  attentionBlockOverheadTiles: 0,
  hbmFraction: 0.7,
  kernelOverhead: us(2),
};

/**
 * Fitted on 33 H100 rows (NVIDIA DGX Cloud recipes v24.11, Megatron-LM README), 2026-11. Checked 2026-11-27 against
 * kernels timed alone on an H100 (docs/validation.md, "Kernels measured"): every fraction is under its kernel's own
 * rate (GEMM 0.72, FP8 0.64, cuDNN attention 0.49, element-wise 0.88 of HBM), and the 10 µs per kernel is one
 * eager PyTorch launch there (9.8 and 10.2 µs in two runs). With those rates as the fit's upper bounds (fit.ts), the
 * fit suggests GEMM 0.58 and attention 0.49 (Hopper MAPE 3.83% → 3.62%, all rows 4.8% → 4.7%), but Llama 3.1 405B
 * BF16 out of sample goes 5.2% → 6.1%, and attention would sit at its kernel's ceiling, leaving nothing for what
 * runs beside it: not adopted.
 * The same kernels show no wave quantisation on Hopper (kernel-time.ts's tileWaveEfficiency); refitted without it
 * (GEMM 0.56, FP8 0.42, attention 0.49, 9 µs), all rows score 4.7% and Llama 3.1 405B BF16 5.7%: not adopted either.
 * Since 2026-11-28 a causal flash kernel is charged its tiles on and below the diagonal (layer-time.ts), not one half
 * of the score matrix: 6% more attention work at 2,048 tokens, 1.6% at 8k. The constants were kept: all rows still
 * score 4.8%, Hopper 3.82%, and the bounded refit suggests the same GEMM 0.58 and attention 0.49 (3.64%).
 * Since 2026-11-28 a flash launch is costed as its thread blocks run (layer-time.ts's flashLaunchEfficiency): each block
 * carries a fixed cost of 5 key-tile iterations, and a causal launch's unequal blocks leave its last wave half full.
 * Fitted on cuDNN's causal rates at 2,048–32,768 tokens on the H100 (r 0.62, c 5.25 tiles, worst point 2.6%; the
 * H200 gives 5 tiles, FlashAttention-2 6.25 on both), the model also predicts what the fit never saw: causal-over-full
 * times within 1.5% from 4k on the H100 (one rate for every launch gave 0.52 at 4k against 0.64 measured), and the
 * per-head time of 8 heads over 64 at 8k (1.11 against 1.12–1.13 measured). The attention fraction became the
 * long-sequence rate: the bounded refit puts it at 0.61, under the kernel's 0.62, with GEMM 0.59 unchanged (Hopper
 * MAPE 3.82% → 3.88%, all rows 4.8%; Llama 3.1 405B out of sample BF16 5.3% → 5.6%, FP8 15.7% → 16.2%, its CP 2
 * halving each launch's keys and blocks; SwiGLU's backward counted at 5 widths of f rather than 4 is in these figures).
 * Inside whole layers at 8,192 tokens attention takes about its time alone, so little margin is left it. Past the fit,
 * at 64k and 128k tokens on the H200, cuDNN's rate stays at its 32k value (0.55–0.56) where the launch model keeps
 * rising toward the constant: attention there is charged 5–8% less time than the kernel takes alone (docs/validation.md,
 * "Past the fit"); not refitted, for want of long-sequence training rows to check it on.
 * Checked 2026-11-28 against whole layers run on an H100 with nothing beside them (docs/validation.md, "Whole layers"):
 * these constants charge each of 11 published plans' layers more than it took (measured ÷ predicted 0.84–0.95), so
 * the fit is no faster than a layer's kernels alone; its 10 µs a kernel is of the size of the GPU's idle gaps in
 * eager backward.
 */
const HOPPER: ComputeCalibration = {
  gemmPeakFraction: 0.59,
  fp8GemmPeakFraction: 0.44,
  attentionPeakFraction: 0.61,
  attentionBlockOverheadTiles: 5,
  hbmFraction: 0.7,
  kernelOverhead: us(10),
};

export const COMPUTE_CALIBRATION: Readonly<Record<GpuGeneration, ComputeCalibration>> = {
  volta: AMPERE,
  ampere: AMPERE,
  hopper: HOPPER,
  blackwell: HOPPER,
};

/** The generation's calibration with a plan's overrides applied (what every kernel cost uses). */
export function resolveCalibration(input: { readonly gpu: { readonly generation: GpuGeneration }; readonly calibration?: Partial<ComputeCalibration> }): ComputeCalibration {
  const base = COMPUTE_CALIBRATION[input.gpu.generation];
  return input.calibration === undefined ? base : { ...base, ...input.calibration };
}
