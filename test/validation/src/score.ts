import { modelFlopsPerStep, narayananHardwareFlops, withShapeDefaults } from '@trainplan/model';
import type { ComputeCalibration, PlanInput } from '@trainplan/planner';
import { estimatePlan } from '@trainplan/planner';
import { resolveScenario, toEstimateJson, validateScenario, type EstimateOk, type ScenarioInput } from '@trainplan/protocol';
import { gpuById } from '@trainplan/presets';
import { loadTrainingRows, type TrainingRow } from './ground-truth.ts';
import { SOURCES, type SourceId, type SourceProfile } from './sources.ts';

// The ground truth names A100s and H100s; B200 and GB200 are named by the out-of-sample NVIDIA rows (nvidia-perf-summary.ts).
const GPU_IDS_BY_NAME: readonly [string, string][] = [
  ['A100-SXM4-80GB', 'a100-80gb'], ['H100-SXM5-80GB', 'h100-sxm'], ['B200', 'b200'], ['GB200', 'gb200'],
];

export interface ScoredRow {
  readonly id: string;
  readonly source: SourceId;
  readonly tier: string;
  readonly measuredStepSeconds: number;
  /** How the measured step time was obtained (stated, or derived from TFLOP/s or MFU). */
  readonly measuredFrom: string;
  readonly predictedStepSeconds: number;
  /** (predicted − measured) / measured. */
  readonly error: number;
  readonly estimate: EstimateOk;
  /** The unstated settings that were chosen (fastest feasible), as text. */
  readonly chosen: string;
  readonly candidates: number;
  /** Among the candidates that fit, the slowest one's error: how far the unstated settings alone could move the row. */
  readonly slowestFittingError?: number;
  readonly fits: boolean;
}

function gpuId(row: TrainingRow): string {
  const hit = GPU_IDS_BY_NAME.find(([name]) => row.hardware.gpu.startsWith(name));
  if (!hit) throw new Error(`no GPU preset for ${row.hardware.gpu}`);
  return hit[1];
}

/** The step time a row measured: stated, or derived with the source's own FLOP convention. */
export function measuredStep(row: TrainingRow, profile: SourceProfile): { seconds: number; from: string } | undefined {
  const m = row.measured;
  if (m.step_time_s !== null) return { seconds: m.step_time_s, from: 'stated' };
  const scenario = profile.scenario(row);
  const shape = withShapeDefaults(scenario.model);
  const n = row.hardware.total_gpus;
  const gbs = row.parallel.gbs!;
  if (m.tflops_per_gpu !== null) {
    const hardware = m.tflops_basis?.startsWith('hardware');
    const flops = hardware ? narayananHardwareFlops(shape, gbs) : modelFlopsPerStep(shape, { globalBatchSize: gbs });
    return { seconds: flops / (n * m.tflops_per_gpu * 1e12), from: hardware ? 'TFLOP/s, eq. 3 (hardware)' : 'TFLOP/s (model)' };
  }
  if (m.mfu !== null) {
    const peak = gpuById(gpuId(row))!.peakFlops.bf16!;
    return { seconds: modelFlopsPerStep(shape, { globalBatchSize: gbs }) / (n * peak * m.mfu), from: 'MFU' };
  }
  return undefined;
}

type Unknowns = ReturnType<SourceProfile['unknowns']>;

/** Every combination of the unstated settings. */
function combinations(unknowns: Unknowns): Record<string, number | string>[] {
  let out: Record<string, number | string>[] = [{}];
  for (const [key, values] of Object.entries(unknowns)) {
    out = out.flatMap((partial) => (values ?? []).map((v) => ({ ...partial, [key]: v })));
  }
  return out;
}

function candidateScenario(row: TrainingRow, profile: SourceProfile, pick: Record<string, number | string>): ScenarioInput {
  const base = profile.scenario(row);
  const v = (pick.virtualStages as number | undefined) ?? base.parallelism?.virtualStages ?? row.parallel.vp ?? 1;
  return {
    model: base.model,
    cluster: { gpu: gpuId(row), gpusPerNode: row.hardware.gpus_per_node, nodes: row.hardware.nodes, network: profile.network },
    training: { ...base.training, ...(pick.microBatchSize !== undefined ? { microBatchSize: pick.microBatchSize as number } : {}) },
    parallelism: {
      ...base.parallelism,
      virtualStages: v,
      schedule: v > 1 ? 'interleaved' : '1f1b',
      ...(pick.recompute !== undefined ? { recompute: pick.recompute as 'none' | 'selective' } : {}),
    },
  };
}

/** Calibration replacements per GPU generation (for the fit in fit.ts); none for the shipped model. */
export type CalibrationOverrides = Partial<Record<string, Partial<ComputeCalibration>>>;

/**
 * A change to the machine as the collectives see it, for what-if diagnostics that the scenario
 * contract has no field for (e.g. fewer NICs per node than the preset); none for scored rows.
 */
export type FabricOverride = (fabric: PlanInput['fabric']) => PlanInput['fabric'];

/**
 * The contract path (validate → resolve → plan → estimate JSON), with optional calibration overrides.
 * Out-of-memory candidates are still ranked, flagged as not fitting.
 */
function evaluate(scenario: ScenarioInput, overrides: CalibrationOverrides, fabric?: FabricOverride): EstimateOk | undefined {
  const valid = validateScenario(scenario);
  if (!valid.ok) throw new Error(`validation scenario is invalid: ${valid.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  const resolved = resolveScenario(valid.value);
  if (!resolved.ok) throw new Error(resolved.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  const resolvedPlan = resolved.value.plan;
  const plan = {
    ...resolvedPlan,
    calibration: overrides[resolvedPlan.gpu.generation],
    ...(fabric && { fabric: fabric(resolvedPlan.fabric) }),
  };
  const result = estimatePlan(plan);
  if (result.ok) return toEstimateJson(resolved.value, result);
  return result.estimate ? toEstimateJson(resolved.value, result.estimate) : undefined;
}

/** Every combination of a row's unstated settings, estimated (out-of-memory ones included, flagged). */
export function rowCandidates(
  row: TrainingRow, profile: SourceProfile, overrides: CalibrationOverrides = {}, fabric?: FabricOverride,
): { pick: Record<string, number | string>; estimate: EstimateOk }[] {
  return combinations(profile.unknowns(row)).flatMap((pick) => {
    const estimate = evaluate(candidateScenario(row, profile, pick), overrides, fabric);
    return estimate ? [{ pick, estimate }] : [];
  });
}

export function scoreRow(
  row: TrainingRow, profile: SourceProfile, overrides: CalibrationOverrides = {}, fabric?: FabricOverride,
): ScoredRow | undefined {
  const measured = measuredStep(row, profile);
  if (!measured || row.parallel.gbs === null) return undefined;
  const candidates = rowCandidates(row, profile, overrides, fabric);
  let best: { e: EstimateOk; pick: Record<string, number | string>; fits: boolean } | undefined;
  let slowestFitting = -Infinity;
  for (const { pick, estimate: answer } of candidates) {
    // A candidate that fits always beats one that does not; among equals, the faster wins.
    const better = !best || (answer.memory.fits && !best.fits)
      || (answer.memory.fits === best.fits && answer.stepTimeSeconds < best.e.stepTimeSeconds);
    if (better) best = { e: answer, pick, fits: answer.memory.fits };
    if (answer.memory.fits) slowestFitting = Math.max(slowestFitting, answer.stepTimeSeconds);
  }
  if (!best) throw new Error(`no feasible candidate for ${row.id}`);
  return {
    id: row.id,
    source: profile.id,
    tier: row.tier,
    measuredStepSeconds: measured.seconds,
    measuredFrom: measured.from,
    predictedStepSeconds: best.e.stepTimeSeconds,
    error: (best.e.stepTimeSeconds - measured.seconds) / measured.seconds,
    estimate: best.e,
    chosen: Object.entries(best.pick).map(([k, v]) => `${k} ${v}`).join(', '),
    candidates: candidates.length,
    ...(candidates.length > 1 && Number.isFinite(slowestFitting) && { slowestFittingError: (slowestFitting - measured.seconds) / measured.seconds }),
    fits: best.fits,
  };
}

/** Tier A and B rows of every source with a profile, scored. */
export function scoreAll(overrides: CalibrationOverrides = {}): ScoredRow[] {
  const rows = loadTrainingRows().filter((r) => r.tier === 'A' || r.tier === 'B');
  const out: ScoredRow[] = [];
  for (const row of rows) {
    const profile = SOURCES.find((s) => s.matches(row));
    if (!profile) continue;
    const scored = scoreRow(row, profile, overrides);
    if (scored) out.push(scored);
  }
  return out;
}

export interface SourceSummary {
  readonly source: SourceId | 'all';
  readonly rows: number;
  readonly mape: number;
  readonly worst: number;
  readonly bias: number;
}

/** Relative errors ((predicted − measured) / measured) summed up: how many, the mean absolute, the worst absolute, the mean signed. */
export interface ErrorSummary {
  readonly n: number;
  readonly mape: number;
  readonly worst: number;
  readonly bias: number;
}

export function errorSummary(errors: readonly number[]): ErrorSummary {
  return {
    n: errors.length,
    mape: errors.reduce((s, e) => s + Math.abs(e), 0) / errors.length,
    worst: Math.max(...errors.map(Math.abs)),
    bias: errors.reduce((s, e) => s + e, 0) / errors.length,
  };
}

export function summarise(rows: readonly ScoredRow[]): { overall: SourceSummary; bySource: SourceSummary[] } {
  const summary = (source: SourceId | 'all', group: readonly ScoredRow[]): SourceSummary => {
    const { n, mape, worst, bias } = errorSummary(group.map((r) => r.error));
    return { source, rows: n, mape, worst, bias };
  };
  const bySource = SOURCES.map((s) => rows.filter((r) => r.source === s.id)).filter((g) => g.length > 0).map((g) => summary(g[0]!.source, g));
  return { overall: summary('all', rows), bySource };
}
