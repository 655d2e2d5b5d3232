import type { GpuSpec } from '@trainplan/hardware';
import type { Bytes, Flop, FlopPerSecond, Seconds } from '@trainplan/units';
import type { ComputeCalibration } from './calibration.ts';

/**
 * Kernel timing against the GPU's datasheet: a roofline (compute vs HBM traffic) with tile and wave
 * quantisation for GEMMs and a fixed per-kernel overhead. The tile/wave effect follows NVIDIA's
 * "Matrix Multiplication Background User's Guide" (Deep Learning Performance docs): an M×N output is
 * cut into tiles, one per SM at a time; the last wave runs partly empty, and edge tiles compute padding.
 */
export interface KernelContext {
  readonly gpu: GpuSpec;
  readonly calibration: ComputeCalibration;
  /** Peak of the precision the GEMMs run in, and the fraction of it they sustain. */
  readonly gemmPeak: FlopPerSecond;
  readonly gemmFraction: number;
  /** Bytes per element of the GEMM operands (2 for 16-bit, 1 for FP8). */
  readonly gemmOperandBytes: number;
  /** Whether a partly empty last wave of tiles costs a whole wave (tileWaveEfficiency); default true. */
  readonly waveQuantisation?: boolean;
}

/**
 * Tile shapes cuBLAS/CUTLASS pick from for large 16-bit GEMMs, with their relative efficiency. The
 * shapes are those of NVIDIA's Matrix Multiplication Background User's Guide (docs.nvidia.com/
 * deeplearning/performance/dl-performance-matrix-multiplication, "Tile Quantization": 256×128,
 * 128×256, 128×128, 128×64, 64×64), which states that larger tiles reuse more data and so run
 * more efficiently than smaller ones, without figures: the relative efficiencies are our assumption,
 * ordered as each tile's operand reuse m·n/(m + n) (85, 85, 64, 43, 32), and not fitted to any row.
 */
export const GEMM_TILES: readonly { readonly m: number; readonly n: number; readonly efficiency: number }[] = [
  { m: 256, n: 128, efficiency: 1 },
  { m: 128, n: 256, efficiency: 1 },
  { m: 128, n: 128, efficiency: 0.95 },
  { m: 128, n: 64, efficiency: 0.85 },
  { m: 64, n: 64, efficiency: 0.7 },
];

/**
 * Fraction of the SMs' work that is useful for an M×N output (batched `batch` times), best tile. With `quantiseWaves`
 * off, the last wave's idle SMs are not charged (a persistent, stream-K-style schedule splits its work among them):
 * only the padding of edge tiles is.
 */
export function tileWaveEfficiency(m: number, n: number, batch: number, smCount: number, quantiseWaves = true): number {
  let best = 0;
  for (const tile of GEMM_TILES) {
    const tiles = Math.ceil(m / tile.m) * Math.ceil(n / tile.n) * batch;
    const waves = quantiseWaves ? Math.ceil(tiles / smCount) : tiles / smCount;
    const useful = (m * n * batch) / (waves * smCount * tile.m * tile.n);
    best = Math.max(best, useful * tile.efficiency);
  }
  return best;
}

export interface GemmShape {
  readonly m: number;
  readonly n: number;
  readonly k: number;
  /** Independent GEMMs of the same shape in one batched call (attention heads). */
  readonly batch?: number;
}

export const gemmFlops = (g: GemmShape): Flop => 2 * g.m * g.n * g.k * (g.batch ?? 1);

/**
 * A GEMM's tensor-core time alone, with tile and wave quantisation, without its operand traffic or launch:
 * what its rows add to a kernel that streams the same weights for other rows anyway (a serving iteration
 * that fuses a prompt's prefill into the decode's GEMMs).
 */
export function gemmComputeSeconds(ctx: KernelContext, g: GemmShape): Seconds {
  const efficiency = ctx.gemmFraction * tileWaveEfficiency(g.m, g.n, g.batch ?? 1, ctx.gpu.smCount, ctx.waveQuantisation ?? true);
  return gemmFlops(g) / (ctx.gemmPeak * efficiency);
}

/** Time of one GEMM: the slower of tensor-core time (with quantisation) and operand/result traffic. */
export function gemmSeconds(ctx: KernelContext, g: GemmShape, outputBytesPerElement = 2): Seconds {
  const batch = g.batch ?? 1;
  const compute = gemmComputeSeconds(ctx, g);
  const bytes = batch * (ctx.gemmOperandBytes * (g.m * g.k + g.k * g.n) + outputBytesPerElement * g.m * g.n);
  return Math.max(compute, memorySeconds(ctx, bytes)) + ctx.calibration.kernelOverhead;
}

/** A forward GEMM and its two backward GEMMs (data gradient and weight gradient). */
export function gemmForwardBackwardSeconds(ctx: KernelContext, g: GemmShape): {
  forward: Seconds; backward: Seconds; dgrad: Seconds; wgrad: Seconds;
} {
  const forward = gemmSeconds(ctx, g);
  const dgrad = gemmSeconds(ctx, { m: g.m, n: g.k, k: g.n, batch: g.batch });
  // Weight gradients accumulate into fp32 main gradients (Megatron's gradient_accumulation_fusion).
  const wgrad = gemmSeconds(ctx, { m: g.k, n: g.n, k: g.m, batch: g.batch }, 4);
  return { forward, backward: dgrad + wgrad, dgrad, wgrad };
}

/** HBM traffic at the achievable fraction of the datasheet bandwidth. */
export function memorySeconds(ctx: KernelContext, bytes: Bytes): Seconds {
  return bytes / (ctx.gpu.hbmBandwidth * ctx.calibration.hbmFraction);
}

/** An element-wise (memory-bound) kernel: its traffic plus the per-kernel overhead. */
export function elementwiseSeconds(ctx: KernelContext, bytes: Bytes): Seconds {
  return memorySeconds(ctx, bytes) + ctx.calibration.kernelOverhead;
}

/**
 * A fused attention kernel (flash attention): matmul FLOPs at its sustained fraction of `peak`, the 16-bit peak or the
 * share of it the launch's thread blocks reach (layer-time.ts's flashBlockEfficiency).
 */
export function flashAttentionSeconds(ctx: KernelContext, flops: Flop, peak: FlopPerSecond): Seconds {
  return flops / (peak * ctx.calibration.attentionPeakFraction) + ctx.calibration.kernelOverhead;
}
