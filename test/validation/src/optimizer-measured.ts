import { COMPUTE_CALIBRATION, estimatePlan } from '@trainplan/planner';
import { resolveScenario, validateScenario } from '@trainplan/protocol';
import { kernelCases, type OptimizerCase } from './kernel-cases.ts';
import { OPTIMIZER_PASS_BYTES } from '@trainplan/planner';
import { MEASURED_GPU, mean, measuredGpuHbmBandwidth, readKernelRuns, spreadOf } from './measured-runs.ts';

/**
 * Optimizer steps run on a real GPU by kernels/optimizer.py (this repository), read back and set against the step
 * trainplan charges (packages/planner/src/optimizer-time.ts, estimatePlan's breakdown.optimizerSeconds). The files are
 * the script's output as it came back, unedited: two runs, one after the other, on one NVIDIA H200, PyTorch 2.11 with
 * CUDA 13.0, 2026-11-29 (each file's `environment` and `measuredAt`).
 */
export interface MeasuredOptimizerRow {
  readonly id: string;
  readonly parameters: number;
  readonly tensors: number;
  readonly fused: boolean;
  readonly finite: boolean;
  /** The step's three passes timed alone, and back to back as one call with the norm read back to the host between. */
  readonly normMs: number;
  readonly adamMs: number;
  readonly copyMs: number;
  readonly stepMs: number;
  /** One more step under torch.profiler: its kernels' GPU time (the host's launches and the norm's read-back left out). */
  readonly profile: { readonly gemmMs: number; readonly attentionMs: number; readonly otherMs: number; readonly kernels: number };
  /** The whole stage's fp32 gradient buffer zeroed (its parameters, unsharded), the bf16 gradients cast to fp32, fp16's unscale. */
  readonly bufferParameters: number;
  readonly zeroMs: number;
  readonly castMs: number;
  readonly unscaleMs: number;
  readonly error?: string;
}

export interface MeasuredOptimizer {
  readonly environment: { readonly name: string; readonly torch: string; readonly cuda: string };
  readonly measuredAt: string;
  readonly errors: readonly string[];
  readonly optimizer: readonly MeasuredOptimizerRow[];
}

export const OPTIMIZER_RUN_FILES = ['optimizer-h200.run1.json', 'optimizer-h200.run2.json'] as const;

export function loadMeasuredOptimizer(): MeasuredOptimizer[] {
  return readKernelRuns<MeasuredOptimizer>(OPTIMIZER_RUN_FILES);
}

export type OptimizerPass = keyof typeof OPTIMIZER_PASS_BYTES;

/**
 * What optimizer-time.ts charged until this measurement (2026-11-29): 34 bytes a parameter updated (without the copy's
 * read of the master weights), no zeroing of the gradient buffer.
 */
export const OPTIMIZER_BYTES_BEFORE = 34;

export interface OptimizerComparison {
  readonly kase: OptimizerCase;
  /**
   * The runs' mean (ms): the step's kernels on the GPU plus the zeroing of the gradient buffer, what optimizer-time.ts
   * costs; and how far the runs differ over their mean.
   */
  readonly measuredMs: number;
  readonly spread: number;
  /** The step's kernels alone, and the step as the host saw it (the norm read back between passes, the launches). */
  readonly kernelsMs: number;
  readonly hostStepMs: number;
  readonly hostSpread: number;
  /** How far the norm timed alone differs between the runs over their mean. */
  readonly normSpread: number;
  readonly passMs: Readonly<Record<OptimizerPass | 'zero' | 'cast' | 'unscale', number>>;
  readonly tensors: number;
  /** trainplan's breakdown.optimizerSeconds for the case's plan on H200s (ms), and what the 34-byte count gave. */
  readonly predictedMs: number;
  readonly predictedBeforeMs: number;
}

/** The case's plan as a contract scenario on H200s: its TP × PP × DP GPUs, the distributed optimizer where it has it. */
export function optimizerScenario(c: OptimizerCase): unknown {
  return {
    model: c.model,
    cluster: { gpu: MEASURED_GPU, gpus: c.tensor * c.pipeline * c.data },
    parallelism: { tensor: c.tensor, pipeline: c.pipeline, distributedOptimizer: c.distributedOptimizer },
    training: { globalBatchSize: 8 * c.data, microBatchSize: 1, seqLength: 2048, precision: 'bf16' },
  };
}

export function predictedOptimizerMs(c: OptimizerCase): number {
  const valid = validateScenario(optimizerScenario(c));
  if (!valid.ok) throw new Error(`optimizer case ${c.id}: ${JSON.stringify(valid)}`);
  const resolved = resolveScenario(valid.value);
  if (!resolved.ok) throw new Error(`optimizer case ${c.id}: ${resolved.issues.map((i) => i.message).join('; ')}`);
  const estimate = estimatePlan(resolved.value.plan);
  if (!('breakdown' in estimate)) throw new Error(`optimizer case ${c.id}: the plan does not run`);
  return estimate.breakdown.optimizerSeconds * 1e3;
}

/**
 * A pass's (or the whole step's) bytes over its time, as a fraction of the H200's datasheet HBM bandwidth: `parameters`
 * times the bytes it moves of each (the parameters updated, or the stage's for the buffer's zeroing).
 */
export const hbmShare = (parameters: number, bytesPerParameter: number, ms: number): number =>
  (bytesPerParameter * parameters) / (ms * 1e-3) / measuredGpuHbmBandwidth();


export function optimizerComparisons(runs = loadMeasuredOptimizer()): OptimizerComparison[] {
  const hopper = COMPUTE_CALIBRATION.hopper;
  return kernelCases().optimizer.flatMap((kase) => {
    const rows = runs.map((r) => r.optimizer.find((d) => d.id === kase.id));
    if (rows.some((r) => r === undefined || r.error !== undefined)) return [];
    const ok = rows as MeasuredOptimizerRow[];
    const kernels = ok.map((r) => r.profile.otherMs + r.profile.gemmMs + r.profile.attentionMs);
    const measured = ok.map((r, i) => kernels[i]! + r.zeroMs);
    const hostSteps = ok.map((r) => r.stepMs);
    const before = hopper.kernelOverhead + (OPTIMIZER_BYTES_BEFORE * kase.parameters) / (hopper.hbmFraction * measuredGpuHbmBandwidth());
    return [{
      kase,
      measuredMs: mean(measured),
      spread: spreadOf(measured),
      kernelsMs: mean(kernels),
      hostStepMs: mean(hostSteps),
      hostSpread: spreadOf(hostSteps),
      normSpread: spreadOf(ok.map((r) => r.normMs)),
      passMs: {
        norm: mean(ok.map((r) => r.normMs)), adam: mean(ok.map((r) => r.adamMs)), copy: mean(ok.map((r) => r.copyMs)),
        zero: mean(ok.map((r) => r.zeroMs)), cast: mean(ok.map((r) => r.castMs)), unscale: mean(ok.map((r) => r.unscaleMs)),
      },
      tensors: ok[0]!.tensors,
      predictedMs: predictedOptimizerMs(kase),
      predictedBeforeMs: before * 1e3,
    }];
  });
}
