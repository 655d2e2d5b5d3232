import { readFileSync } from 'node:fs';
import { COMPUTE_CALIBRATION, kernelContext, layerComputeCost, peak16, type ComputeCalibration, type PlanInput } from '@trainplan/planner';
import { resolveScenario, validateScenario } from '@trainplan/protocol';
import { kernelCases, type LayerCase } from './kernel-cases.ts';
import { calibrationChecks, loadMeasuredKernels, type MeasuredGpu } from './kernels-measured.ts';

/**
 * Whole transformer layers run on a real GPU by kernels/layer.py (this repository), read back and set against the
 * planner's layer model (packages/planner/src/layer-time.ts's layerComputeCost). The files are the script's output as
 * it came back, unedited: two runs, one after the other, on one NVIDIA H100 80GB HBM3 (SXM) and two on one NVIDIA H200,
 * PyTorch 2.11 with CUDA 13.0, 2026-11-28 (each file's `environment` and `measuredAt` say so).
 */
export interface KernelProfile {
  readonly gemmMs: number;
  readonly attentionMs: number;
  readonly otherMs: number;
  readonly kernels: number;
  readonly topKernels: readonly (readonly [string, number])[];
}

export type LayerVariant = 'eager' | 'fused';

export interface MeasuredLayerRow {
  readonly id: string;
  readonly variant: LayerVariant;
  readonly attentionBackend: string | null;
  readonly finite: boolean;
  readonly gradFinite: boolean;
  readonly forwardMs: number;
  readonly forwardBackwardMs: number;
  /** One forward + backward under torch.profiler, gradients cleared before it. */
  readonly profile: KernelProfile;
  readonly forwardProfile: KernelProfile;
  readonly error?: string;
}

export interface MeasuredLayers {
  readonly environment: { readonly name: string; readonly torch: string; readonly cuda: string; readonly smCount: number };
  readonly measuredAt: string;
  readonly errors: readonly string[];
  readonly layers: readonly MeasuredLayerRow[];
}

/** Each GPU's runs, in the order they ran. */
export const LAYER_RUN_FILES: { readonly [G in MeasuredGpu]: readonly string[] } = {
  'h100-sxm': ['layers-h100-sxm.json', 'layers-h100-sxm.run2.json'],
  h200: ['layers-h200.json', 'layers-h200.run2.json'],
};

export function loadMeasuredLayers(gpu: MeasuredGpu = 'h100-sxm'): MeasuredLayers[] {
  return LAYER_RUN_FILES[gpu].map((f) => JSON.parse(readFileSync(new URL(`../kernels/${f}`, import.meta.url), 'utf8')) as MeasuredLayers);
}

/** The planner's input for one GPU's share of the case's layer: its plan on one node, no sequence parallelism. */
export function layerPlanInput(c: LayerCase, gpu: MeasuredGpu = 'h100-sxm'): PlanInput {
  const scenario = {
    model: c.model,
    cluster: { gpu, gpus: c.tensor },
    parallelism: { tensor: c.tensor, pipeline: 1 },
    training: { globalBatchSize: c.microBatch, microBatchSize: c.microBatch, seqLength: c.seqLength, precision: 'bf16', dropout: c.dropout, attentionKernel: c.attention },
  };
  const valid = validateScenario(scenario);
  if (!valid.ok) throw new Error(`layer case ${c.id}: ${JSON.stringify(valid)}`);
  const resolved = resolveScenario(valid.value);
  if (!resolved.ok) throw new Error(`layer case ${c.id}: ${resolved.issues.map((i) => i.message).join('; ')}`);
  return resolved.value.plan;
}

/**
 * The Hopper constants replaced by what the GPU's kernels reach alone (kernels-measured.ts's calibrationChecks: the GEMM,
 * attention and HBM rates and flash attention's per-block cost), and the per-kernel cost by the GPU's own gap between
 * kernels (a CUDA graph's replay): in a layer's eager run the host queues kernels ahead of a GPU busy with millisecond
 * GEMMs, so the host's launch cost is hidden.
 */
export function kernelAloneCalibration(gpu: MeasuredGpu = 'h100-sxm'): ComputeCalibration {
  const measured = Object.fromEntries(calibrationChecks(gpu).map((c) => [c.constant, c.measured]));
  return {
    ...COMPUTE_CALIBRATION.hopper,
    gemmPeakFraction: measured.gemmPeakFraction!,
    attentionPeakFraction: measured.attentionPeakFraction!,
    attentionBlockOverheadTiles: measured.attentionBlockOverheadTiles!,
    hbmFraction: measured.hbmFraction!,
    kernelOverhead: loadMeasuredKernels(gpu).launch.graphUs * 1e-6,
  };
}

/** Milliseconds of a layer by kind of kernel: the linears' GEMMs, the attention core, the rest (element-wise). */
export interface LayerSplit {
  readonly gemm: number;
  readonly attention: number;
  readonly other: number;
}

export interface LayerComparison {
  readonly kase: LayerCase;
  readonly variant: LayerVariant;
  /** Forward + backward, milliseconds: the mean of the two runs, and their difference over it. */
  readonly measuredMs: number;
  readonly spread: number;
  readonly measuredForwardMs: number;
  /** The planner's forward + backward at the calibrated Hopper constants, and at the kernels' own rates. */
  readonly calibratedMs: number;
  readonly calibratedSplit: LayerSplit;
  readonly kernelAloneMs: number;
  readonly kernelAloneForwardMs: number;
  /** Forward + backward by kind: measured (torch.profiler, mean of the runs) and the planner at the kernels' rates. */
  readonly measuredSplit: LayerSplit;
  readonly modelSplit: LayerSplit;
  /**
   * Milliseconds the GPU sat idle between kernels (timed run minus the profiled kernels' sum, mean of the runs), forward
   * + backward and forward alone, and the profiled forward + backward's kernel count.
   */
  readonly idleMs: number;
  readonly idleForwardMs: number;
  readonly kernels: number;
}

const kernelSum = (p: KernelProfile): number => p.gemmMs + p.attentionMs + p.otherMs;
const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

function modelled(input: PlanInput, calibration: ComputeCalibration): { total: number; forward: number; split: LayerSplit } {
  const cost = layerComputeCost(input, kernelContext(input, calibration), peak16(input.gpu));
  const ms = (s: number) => s * 1e3;
  const total = ms(cost.forward + cost.backward);
  const gemm = ms(cost.gemmForward + cost.gemmBackward);
  const attention = ms(cost.attentionForward + cost.attentionBackward);
  return { total, forward: ms(cost.forward), split: { gemm, attention, other: total - gemm - attention } };
}

/** Every case and variant both runs measured, beside the planner's layer at the calibrated and the kernel-alone constants. */
export function layerComparisons(gpu: MeasuredGpu = 'h100-sxm', runs = loadMeasuredLayers(gpu), alone = kernelAloneCalibration(gpu)): LayerComparison[] {
  return kernelCases().layers.flatMap((kase) => {
    const input = layerPlanInput(kase, gpu);
    const calibrated = modelled(input, COMPUTE_CALIBRATION.hopper);
    const model = modelled(input, alone);
    return (['eager', 'fused'] as const).flatMap((variant) => {
      const rows = runs.map((r) => r.layers.find((l) => l.id === kase.id && l.variant === variant));
      if (rows.some((r) => r === undefined || r.error !== undefined)) return [];
      const ok = rows as MeasuredLayerRow[];
      const totals = ok.map((r) => r.forwardBackwardMs);
      const measuredMs = mean(totals);
      return [{
        kase,
        variant,
        measuredMs,
        spread: (Math.max(...totals) - Math.min(...totals)) / measuredMs,
        measuredForwardMs: mean(ok.map((r) => r.forwardMs)),
        calibratedMs: calibrated.total,
        calibratedSplit: calibrated.split,
        kernelAloneMs: model.total,
        kernelAloneForwardMs: model.forward,
        measuredSplit: {
          gemm: mean(ok.map((r) => r.profile.gemmMs)),
          attention: mean(ok.map((r) => r.profile.attentionMs)),
          other: mean(ok.map((r) => r.profile.otherMs)),
        },
        modelSplit: model.split,
        idleMs: mean(ok.map((r) => r.forwardBackwardMs - kernelSum(r.profile))),
        idleForwardMs: mean(ok.map((r) => r.forwardMs - kernelSum(r.forwardProfile))),
        kernels: mean(ok.map((r) => r.profile.kernels)),
      }];
    });
  });
}
