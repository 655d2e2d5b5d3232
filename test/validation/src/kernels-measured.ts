import { readFileSync } from 'node:fs';
import { gpuById } from '@trainplan/presets';
import { causalTileFraction, COMPUTE_CALIBRATION, flashLaunchEfficiency, gemmSeconds, peak16, tileWaveEfficiency, type ComputeCalibration, type KernelContext } from '@trainplan/planner';
import { pearson } from './correlation.ts';
import { kernelCases, type GemmCase } from './kernel-cases.ts';

/**
 * Kernels timed on real GPUs by kernels/measure.py (this repository), read back and set against the planner's kernel
 * model (packages/planner/src/kernel-time.ts) and the Hopper calibration (calibration.ts). The files are the script's
 * output as it came back, unedited: one NVIDIA H100 80GB HBM3 (SXM), 2026-11-27, and one NVIDIA H200, 2026-11-28 (its
 * first run, 2026-11-27, kept as h200.run1.json), PyTorch 2.11 with CUDA 13.0 and driver 580.159.04 (each file's
 * `environment` and `measuredAt` say so).
 */
export interface MeasuredKernels {
  readonly environment: { readonly name: string; readonly torch: string; readonly cuda: string; readonly smCount: number; readonly nvidiaSmi: string };
  readonly measuredAt: string;
  readonly errors: readonly string[];
  readonly launch: { readonly eagerUs: number; readonly graphUs: number };
  readonly elementwise: readonly { readonly id: string; readonly bytes: number; readonly ms: number; readonly bytesPerSecond: number }[];
  readonly gemm: readonly { readonly id: string; readonly ms: number; readonly tflops: number; readonly call: string; readonly relErr?: number; readonly error?: string }[];
  readonly attention: readonly {
    readonly id: string; readonly backend: 'FLASH_ATTENTION' | 'CUDNN_ATTENTION';
    readonly forwardMs: number; readonly forwardBackwardMs: number; readonly error?: string;
  }[];
  readonly sustained: readonly { readonly tflops: number; readonly smClockMHz: number; readonly powerW: number }[];
}

export const MEASURED_GPUS = ['h100-sxm', 'h200'] as const;
export type MeasuredGpu = (typeof MEASURED_GPUS)[number];

export function loadMeasuredKernels(gpu: MeasuredGpu): MeasuredKernels {
  return JSON.parse(readFileSync(new URL(`../kernels/${gpu}.json`, import.meta.url), 'utf8')) as MeasuredKernels;
}

/**
 * The H200's first run (2026-11-27, 207 of today's GEMM cases: it ran before the dgxc-24.11 plans were added), kept
 * as it came back: beside kernels/h200.json, the second, it says how far the same kernels move from one run to the next.
 */
export function loadFirstH200Run(): MeasuredKernels {
  return JSON.parse(readFileSync(new URL('../kernels/h200.run1.json', import.meta.url), 'utf8')) as MeasuredKernels;
}

/** The largest relative change of a causal flash point's rate from one run to another (the points flashBlockFit fits). */
export function attentionRunToRun(gpu: MeasuredGpu, a: MeasuredKernels, b: MeasuredKernels): number {
  const later = attentionPoints(gpu, b).filter((p) => p.seqLength >= 2048);
  return Math.max(...attentionPoints(gpu, a).filter((p) => p.seqLength >= 2048).map((p) => {
    const q = later.find((x) => x.backend === p.backend && x.seqLength === p.seqLength)!;
    return Math.abs(q.causalFraction / p.causalFraction - 1);
  }));
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

type GpuSpec = KernelContext['gpu'];

function spec(gpu: MeasuredGpu): GpuSpec {
  const g = gpuById(gpu);
  if (!g) throw new Error(`no GPU preset ${gpu}`);
  return g;
}

const HOPPER = COMPUTE_CALIBRATION.hopper;

/** The kernel model's context at a given GEMM fraction, without the per-kernel launch cost (measure.py times the kernel alone). */
function context(gpu: GpuSpec, dtype: 'bf16' | 'fp8', waveQuantisation: boolean): KernelContext {
  const calibration: ComputeCalibration = { ...HOPPER, kernelOverhead: 0 };
  const base = { gpu, calibration, gemmFraction: 1, waveQuantisation };
  return dtype === 'fp8' ? { ...base, gemmPeak: gpu.peakFlops.fp8!, gemmOperandBytes: 1 } : { ...base, gemmPeak: peak16(gpu), gemmOperandBytes: 2 };
}

export interface GemmComparison {
  readonly kase: GemmCase;
  readonly measuredSeconds: number;
  /** The kernel model's time at fraction 1: measured ÷ this is the fraction the GEMM implies. */
  readonly idealSeconds: number;
}

/**
 * Every measured GEMM beside its case and its kernel-model time at a fraction of 1; `waveQuantisation` false scores
 * the what-if of a schedule that leaves no last wave partly idle.
 */
export function gemmComparisons(gpu: MeasuredGpu, data = loadMeasuredKernels(gpu), waveQuantisation = true): GemmComparison[] {
  const g = spec(gpu);
  const byId = new Map(data.gemm.map((r) => [r.id, r]));
  return kernelCases().gemm.flatMap((kase) => {
    const row = byId.get(kase.id);
    if (!row || row.error !== undefined) return [];
    return [{ kase, measuredSeconds: row.ms / 1e3, idealSeconds: gemmSeconds(context(g, kase.dtype, waveQuantisation), kase.shape, kase.outputBytes) }];
  });
}

export interface ShapeModelScore {
  readonly group: string;
  readonly n: number;
  /** The one fraction of the peak that centres the group (the median of what its GEMMs imply). */
  readonly fraction: number;
  /** With that fraction, the kernel model's time against each measured time: mean and worst |error|. */
  readonly mape: number;
  readonly worst: number;
  readonly worstId: string;
}

/**
 * How well the kernel model's shape terms (tile and wave quantisation, the roofline) predict each GEMM when one fraction
 * per precision is given: the question the shape model answers, separated from the fraction a fit supplies.
 */
export function shapeModelScore(rows: readonly GemmComparison[], group: string): ShapeModelScore {
  const fraction = median(rows.map((r) => r.idealSeconds / r.measuredSeconds));
  const errors = rows.map((r) => ({ id: r.kase.id, e: Math.abs(r.idealSeconds / fraction / r.measuredSeconds - 1) }));
  const worst = errors.reduce((a, b) => (b.e > a.e ? b : a));
  return { group, n: rows.length, fraction, mape: errors.reduce((s, x) => s + x.e, 0) / errors.length, worst: worst.e, worstId: worst.id };
}

/** The plan GEMMs (the shapes layer-time.ts costs) in 16 bits and in FP8, scored as above. */
export function planShapeScores(gpu: MeasuredGpu, data = loadMeasuredKernels(gpu), waveQuantisation = true): { bf16: ShapeModelScore; fp8: ShapeModelScore } {
  const plan = gemmComparisons(gpu, data, waveQuantisation).filter((r) => r.kase.group === 'plan');
  return {
    bf16: shapeModelScore(plan.filter((r) => r.kase.dtype === 'bf16'), 'plan GEMMs, BF16'),
    fp8: shapeModelScore(plan.filter((r) => r.kase.dtype === 'fp8'), 'plan GEMMs, FP8'),
  };
}

/**
 * A plan's four forward linears in FP8 over the same in BF16, measured time (`plan` as kernel-cases.ts names it, e.g.
 * 'gpt3-175b.tp4.T2048'): how much of a 16-bit layer's GEMM time FP8 leaves on that plan's shapes.
 */
export function fp8ForwardTimeRatio(gpu: MeasuredGpu, plan: string, data = loadMeasuredKernels(gpu)): number {
  const forward = gemmComparisons(gpu, data).filter((r) => r.kase.group === 'plan' && r.kase.pass === 'forward'
    && r.kase.id.startsWith(`${plan}.`) && !r.kase.id.startsWith(`${plan}.logits`));
  const total = (dtype: string) => forward.filter((r) => r.kase.dtype === dtype).reduce((sum, r) => sum + r.measuredSeconds, 0);
  if (forward.filter((r) => r.kase.dtype === 'fp8').length !== 4) throw new Error(`no FP8 linears measured for ${plan} on ${gpu}`);
  return total('fp8') / total('bf16');
}

/**
 * The wave sweep (N in steps of 256 at M 8,192, K 4,096): the model's tile-and-wave efficiency alternates between
 * steps; whether the measured rate follows it is the correlation of their step-to-step changes.
 */
export function waveSweep(gpu: MeasuredGpu, data = loadMeasuredKernels(gpu)): { predictedSwing: number; measuredSwing: number; correlation: number } {
  const g = spec(gpu);
  const rows = gemmComparisons(gpu, data).filter((r) => r.kase.group === 'waves' && r.kase.shape.n >= 1024);
  const predicted = rows.map((r) => tileWaveEfficiency(r.kase.shape.m, r.kase.shape.n, 1, g.smCount));
  const measured = rows.map((r) => r.idealSeconds / r.measuredSeconds);
  const steps = (xs: number[]) => xs.slice(1).map((x, i) => x / xs[i]! - 1);
  const dp = steps(predicted);
  const dm = steps(measured);
  const meanAbs = (xs: number[]) => xs.reduce((s, x) => s + Math.abs(x), 0) / xs.length;
  return { predictedSwing: meanAbs(dp), measuredSwing: meanAbs(dm), correlation: pearson(dp, dm) };
}


export interface AttentionPoint {
  readonly seqLength: number;
  readonly backend: 'FLASH_ATTENTION' | 'CUDNN_ATTENTION';
  /** Forward + backward FLOPs (forward 4·b·h·s²·d over the causal tiles computed; backward 2.5×) over the time, as a fraction of the 16-bit peak. */
  readonly causalFraction: number;
  /** Causal forward + backward time over full. */
  readonly causalOverFull: number;
  /**
   * The same ratio as layer-time.ts charges it: the share of 128 × 128 tiles on or below the diagonal, each launch's
   * blocks at the Hopper calibration's per-block cost (a full launch's query tiles meet every key tile, a causal one's
   * (T + 1) / 2 on average).
   */
  readonly modelCausalOverFull: number;
  /** Backward time over forward time (causal): layer-time.ts takes 2.5 (5 matmuls to 2) at one rate. */
  readonly backwardOverForward: number;
}

/** Flash attention at 16 heads of 128, one sequence, by sequence length and backend. */
export function attentionPoints(gpu: MeasuredGpu, data = loadMeasuredKernels(gpu)): AttentionPoint[] {
  const peak = peak16(spec(gpu));
  const sms = spec(gpu).smCount;
  const cases = kernelCases().attention.filter((c) => c.heads === ATTENTION_SWEEP_HEADS);
  const find = (id: string, backend: string) => data.attention.find((r) => r.id === id && r.backend === backend && r.error === undefined);
  return (['CUDNN_ATTENTION', 'FLASH_ATTENTION'] as const).flatMap((backend) => cases.filter((c) => c.causal).flatMap((c) => {
    const causal = find(c.id, backend);
    const full = find(c.id.replace('.causal', '.full'), backend);
    if (!causal || !full) return [];
    const flop = 3.5 * 4 * c.batch * c.heads * c.seqLength ** 2 * c.headDim * causalTileFraction(c.seqLength);
    return [{
      seqLength: c.seqLength,
      backend,
      causalFraction: flop / (causal.forwardBackwardMs * 1e-3) / peak,
      causalOverFull: causal.forwardBackwardMs / full.forwardBackwardMs,
      modelCausalOverFull: causalTileFraction(c.seqLength) * fullLaunch(c.seqLength, c.heads, sms, HOPPER.attentionBlockOverheadTiles)
        / causalLaunch(c.seqLength, c.heads, sms, HOPPER.attentionBlockOverheadTiles),
      backwardOverForward: (causal.forwardBackwardMs - causal.forwardMs) / causal.forwardMs,
    }];
  }));
}

/**
 * The flash launch model (layer-time.ts's flashLaunchEfficiency) fitted to the measured causal rates from 2,048 tokens
 * on: the long-sequence fraction r and the per-block overhead c (key-tile iterations) minimising the squared log error
 * of r · k̄ / (k̄ + c) / (1 + ½·S/B), half a wave not fitted, c on a grid of quarter tiles, r in closed form for each.
 * Shorter sequences are left out: at 1,024 tokens cuDNN's causal backward runs slower than at 2,048 (a different kernel
 * choice, not the block cost).
 */
export function flashBlockFit(gpu: MeasuredGpu, backend: AttentionPoint['backend'], data = loadMeasuredKernels(gpu)): {
  fraction: number; overheadTiles: number; worst: number; points: { seqLength: number; measured: number; fitted: number }[];
} {
  const points = attentionPoints(gpu, data).filter((p) => p.backend === backend && p.seqLength >= 2048);
  const smCount = spec(gpu).smCount;
  const share = (seqLength: number, c: number) => causalLaunch(seqLength, ATTENTION_SWEEP_HEADS, smCount, c);
  let best = { fraction: 0, overheadTiles: 0, error: Number.POSITIVE_INFINITY };
  for (let c = 0; c <= 20; c += 0.25) {
    const logR = points.reduce((sum, p) => sum + Math.log(p.causalFraction / share(p.seqLength, c)), 0) / points.length;
    const error = points.reduce((sum, p) => sum + (Math.log(p.causalFraction) - logR - Math.log(share(p.seqLength, c))) ** 2, 0);
    if (error < best.error) best = { fraction: Math.exp(logR), overheadTiles: c, error };
  }
  const fitted = points.map((p) => ({ seqLength: p.seqLength, measured: p.causalFraction, fitted: best.fraction * share(p.seqLength, best.overheadTiles) }));
  return {
    fraction: best.fraction,
    overheadTiles: best.overheadTiles,
    worst: Math.max(...fitted.map((p) => Math.abs(p.fitted / p.measured - 1))),
    points: fitted,
  };
}

/** The attention sweep's launches: one sequence of 16 heads (kernel-cases.ts). */
const ATTENTION_SWEEP_HEADS = 16;

/** The share of the long-sequence rate a causal launch of one sequence reaches (layer-time.ts's flashLaunchEfficiency). */
const causalLaunch = (seqLength: number, heads: number, smCount: number, overheadTiles: number): number =>
  flashLaunchEfficiency({ localTokens: seqLength, seqLength, sequencesTimesHeads: heads, smCount, overheadTiles });

/**
 * The same for a launch without the causal mask, which layer-time.ts never costs (decoders are causal): every query tile
 * meets all T key tiles, so its blocks are equal and its last wave is the plain quantisation of B blocks over S SMs
 * rather than half a wave of unequal ones.
 */
function fullLaunch(seqLength: number, heads: number, smCount: number, overheadTiles: number): number {
  const tiles = Math.ceil(seqLength / 128);
  const waves = (heads * tiles) / smCount;
  return (tiles / (tiles + overheadTiles)) * (waves / Math.ceil(waves));
}

/**
 * cuDNN's causal per-head time at 8,192 tokens with 8 heads over 64 (kernel-cases.ts's h8 and h64 launches, 512 and 4,096
 * blocks), measured on each GPU and as the launch model costs it with the Hopper calibration: what one rate for every
 * launch says is 1.
 */
export function headCountRatio(): { model: number; measured: number[] } {
  const c = HOPPER.attentionBlockOverheadTiles;
  const sms = spec('h100-sxm').smCount;
  const perHead = (data: MeasuredKernels, heads: number) =>
    data.attention.find((r) => r.id === `flash.s8192.h${heads}.causal` && r.backend === 'CUDNN_ATTENTION')!.forwardBackwardMs / heads;
  return {
    model: causalLaunch(8192, 64, sms, c) / causalLaunch(8192, 8, sms, c),
    measured: MEASURED_GPUS.map((gpu) => { const d = loadMeasuredKernels(gpu); return perHead(d, 8) / perHead(d, 64); }),
  };
}

export interface CalibrationCheck {
  readonly constant: keyof ComputeCalibration | 'clock';
  readonly label: string;
  /** The Hopper calibration's value (fitted end to end on training runs). */
  readonly calibrated: number;
  /** What the kernels measured alone reach on the H100. */
  readonly measured: number;
  readonly how: string;
}

/** The sustained product rate and clock over the second half of the ~20 s run (the first seconds run at boost). */
export function sustained(data: MeasuredKernels): { tflops: number; smClockMHz: number; powerW: number; firstTflops: number } {
  const late = data.sustained.slice(Math.floor(data.sustained.length / 2));
  return {
    tflops: median(late.map((s) => s.tflops)),
    smClockMHz: median(late.map((s) => s.smClockMHz)),
    powerW: median(late.map((s) => s.powerW)),
    firstTflops: data.sustained[0]!.tflops,
  };
}

/** The elementwise kernels layer-time.ts costs by traffic (softmax is Megatron's fused kernel, not PyTorch's, in the plans). */
export const MODELLED_ELEMENTWISE = ['copy', 'add', 'gelu', 'layerNorm', 'dropout'] as const;

/** Each element-wise kernel's bandwidth as a fraction of the GPU's datasheet HBM bandwidth. */
export function elementwiseFractions(gpu: MeasuredGpu, data = loadMeasuredKernels(gpu)): { id: string; bytesPerSecond: number; fraction: number }[] {
  const bandwidth = spec(gpu).hbmBandwidth;
  return data.elementwise.map((r) => ({ id: r.id, bytesPerSecond: r.bytesPerSecond, fraction: r.bytesPerSecond / bandwidth }));
}

/** Each Hopper constant beside what the GPU's kernels reach alone (the report's table is the H100's). */
export function calibrationChecks(measuredGpu: MeasuredGpu = 'h100-sxm', data = loadMeasuredKernels(measuredGpu)): CalibrationCheck[] {
  const gpu = spec(measuredGpu);
  const plan = planShapeScores(measuredGpu, data);
  const at8k = attentionPoints(measuredGpu, data).find((p) => p.seqLength === 8192 && p.backend === 'CUDNN_ATTENTION')!;
  const cudnn = flashBlockFit(measuredGpu, 'CUDNN_ATTENTION', data);
  const fa2 = flashBlockFit(measuredGpu, 'FLASH_ATTENTION', data);
  const hbm = median(data.elementwise.filter((r) => (MODELLED_ELEMENTWISE as readonly string[]).includes(r.id)).map((r) => r.bytesPerSecond)) / gpu.hbmBandwidth;
  const s = sustained(data);
  return [
    { constant: 'gemmPeakFraction', label: '16-bit GEMM, fraction of the dense peak', calibrated: HOPPER.gemmPeakFraction, measured: plan.bf16.fraction,
      how: `median of the ${plan.bf16.n} plan GEMMs (forward, input and weight gradients); 8192³ back to back for 20 s: ${(s.tflops * 1e12 / peak16(gpu)).toFixed(2)}` },
    { constant: 'fp8GemmPeakFraction', label: 'FP8 GEMM, fraction of the FP8 peak', calibrated: HOPPER.fp8GemmPeakFraction, measured: plan.fp8.fraction,
      how: `median of the ${plan.fp8.n} FP8 plan GEMMs (torch._scaled_mm, e4m3, per-tensor scales, bf16 out)` },
    { constant: 'attentionPeakFraction', label: 'flash attention, fraction of the 16-bit peak on long sequences', calibrated: HOPPER.attentionPeakFraction,
      measured: cudnn.fraction,
      how: 'cuDNN fused attention (what Transformer Engine runs on Hopper), causal, 16 heads of 128, forward + backward, 2,048 to 32,768 tokens '
        + `fitted to r · k̄ / (k̄ + c) (flashBlockFit; worst point ${(cudnn.worst * 100).toFixed(1)}%); at 8,192 tokens alone ${at8k.causalFraction.toFixed(2)}` },
    { constant: 'attentionBlockOverheadTiles', label: 'flash attention, fixed cost of a thread block (key tiles)', calibrated: HOPPER.attentionBlockOverheadTiles,
      measured: cudnn.overheadTiles,
      how: `c of the same fit; FlashAttention-2 through PyTorch: ${fa2.overheadTiles.toFixed(1)} tiles at r = ${fa2.fraction.toFixed(2)} (worst point ${(fa2.worst * 100).toFixed(1)}%)` },
    { constant: 'hbmFraction', label: 'element-wise kernels, fraction of HBM bandwidth', calibrated: HOPPER.hbmFraction, measured: hbm,
      how: `median of ${MODELLED_ELEMENTWISE.join(', ')} over a 16,384 × 8,192 bf16 tensor` },
    { constant: 'kernelOverhead', label: 'per-kernel cost (µs)', calibrated: HOPPER.kernelOverhead * 1e6, measured: data.launch.eagerUs,
      how: `eager PyTorch launches of a tiny kernel, host-bound; from a CUDA graph: ${data.launch.graphUs.toFixed(1)} µs` },
  ];
}
