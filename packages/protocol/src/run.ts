import { estimatePlan, type PlanEstimate } from '@trainplan/planner';
import { toDays } from '@trainplan/units';
import { pipelineSplitFlags } from './pipeline-split-flags.ts';
import { issuesMessage } from './problem.ts';
import { resolveScenario, type ResolvedPlan } from './resolve.ts';
import { resolvedExtensions } from './resolved-extensions.ts';
import type { ResolvedScenarioInput } from './resolved.ts';
import { NO_SCENARIOS, validateScenario } from './scenario-schema.ts';
import { presetIdIssues } from './preset-ids.ts';
import type { EstimateJson, EstimateOk, FieldIssue } from './wire.ts';

/** `[i]` before each path of the i-th scenario: `[2].cluster.gpu`, `[2]` for the whole scenario (as formatPath writes them). */
const prefix = (issues: readonly FieldIssue[], index: number | undefined): FieldIssue[] =>
  issues.map((i) => ({
    path: index === undefined ? i.path : i.path === '' || i.path.startsWith('[') ? `[${index}]${i.path}` : `[${index}].${i.path}`,
    message: i.message,
    ...(i.rule !== undefined && { rule: i.rule }),
  }));

const invalid = (issues: FieldIssue[]): EstimateJson => ({ ok: false, reason: 'invalid', message: issuesMessage(issues), issues });

/** The planner's estimate in the contract's JSON shape (plus trainplan's extensions). */
export function toEstimateJson(resolved: ResolvedPlan, e: PlanEstimate): EstimateOk {
  const { plan } = resolved;
  const json: EstimateOk = {
    ok: true,
    stepTimeSeconds: e.stepTimeSeconds,
    tokensPerSecond: e.tokensPerSecond,
    modelTflopsPerGpu: e.modelTflopsPerGpu,
    hardwareTflopsPerGpu: e.hardwareTflopsPerGpu,
    mfu: e.mfu,
    hfu: e.hfu,
    peakTflopsPerGpu: e.peakTflopsPerGpu,
    memory: {
      weightsBytes: e.memory.weightsBytes,
      gradientsBytes: e.memory.gradientsBytes,
      optimizerBytes: e.memory.optimizerBytes,
      activationsBytes: e.memory.activationsBytes,
      otherBytes: e.memory.otherBytes,
      otherParts: { ...e.memory.otherParts },
      totalBytes: e.memory.totalBytes,
      capacityBytes: e.memory.capacityBytes,
      fits: e.memory.fits,
      stage: e.memory.stage,
    },
    breakdown: { ...e.breakdown },
    samplesPerSecond: e.samplesPerSecond,
    modelFlopsPerStep: e.modelFlopsPerStep,
    hardwareFlopsPerStep: e.hardwareFlopsPerStep,
    parameters: e.parameters,
    resolved: {
      model: resolved.modelId,
      gpu: resolved.gpuId,
      network: resolved.networkId,
      gpusPerNode: plan.gpusPerNode,
      nodes: plan.nodes,
      gpus: plan.nodes * plan.gpusPerNode,
      tensor: plan.tensor,
      pipeline: plan.pipeline,
      data: plan.data,
      context: plan.context,
      virtualStages: plan.virtualStages,
      microBatchSize: plan.microBatchSize,
      microBatches: e.microBatches,
      globalBatchSize: plan.globalBatchSize,
      seqLength: plan.seqLength,
      precision: plan.precision,
      dropout: plan.dropout,
      attentionKernel: plan.attentionKernel,
      crossEntropyKernel: plan.crossEntropyKernel ?? 'fused',
      gradientAccumulation: plan.gradientAccumulation ?? 'fused',
      ...(plan.precision === 'fp8' && { fp8Params: plan.fp8Params === true }),
      recompute: plan.recompute,
      ...(plan.recomputeLayers !== undefined && { recomputeLayers: plan.recomputeLayers }),
      sequenceParallel: plan.sequenceParallel,
      distributedOptimizer: plan.sharding === 'distributed-optimizer',
      zeroStage: plan.sharding.startsWith('zero-') ? Number(plan.sharding.slice(5)) : 0,
      schedule: plan.schedule,
      ...pipelineSplitFlags(plan.pipelineSlots),
      layersPerStage: e.stages.map((s) => s.layers),
      communicationModel: plan.communicationModel ?? 'closed-form',
      oversubscription: plan.oversubscription ?? 1,
      ...resolvedExtensions(resolved),
    },
    warnings: [...resolved.warnings, ...e.warnings],
  };
  if (e.timeToTrain) {
    json.timeToTrain = {
      tokens: e.timeToTrain.tokens,
      seconds: e.timeToTrain.seconds,
      days: toDays(e.timeToTrain.seconds),
      gpuHours: e.timeToTrain.gpuHours,
    };
  }
  return json;
}

/** One validated scenario → its estimate (never throws for anything a caller can send). */
export function estimateResolvedScenario(s: ResolvedScenarioInput, index?: number): EstimateJson {
  const resolved = resolveScenario(s);
  if (!resolved.ok) {
    const issues = prefix(resolved.issues, index);
    // Only the planner's rules (FieldIssue.rule) make a layout indivisible; anything else resolve finds is invalid input.
    return issues.every((i) => i.rule !== undefined) ? { ok: false, reason: 'indivisible', message: issuesMessage(issues), issues } : invalid(issues);
  }
  const result = estimatePlan(resolved.value.plan);
  if (result.ok) return toEstimateJson(resolved.value, result);
  if (result.reason === 'out-of-memory') {
    // The plan that does not fit is still a plan: its resolved settings and memory say what to change.
    const plan = result.estimate === undefined ? undefined : toEstimateJson(resolved.value, result.estimate);
    return {
      ok: false, reason: 'out-of-memory', message: result.message, neededBytes: result.neededBytes, availableBytes: result.availableBytes,
      ...(plan !== undefined && { resolved: plan.resolved, memory: plan.memory, parameters: plan.parameters }),
    };
  }
  // In an array, the message names the slot as the issues' paths do ("[0].training.globalBatchSize: …"), as a slot that
  // resolve refused says it (QA: a planner rule's message lost the index its issues carried).
  const issues = prefix([...(result.issues ?? [])], index);
  const message = index !== undefined && issues.length > 0 ? issuesMessage(issues) : result.message;
  return { ok: false, reason: result.reason, message, issues };
}

/**
 * The contract's estimate entry point: one scenario gives one answer, an array gives an array in
 * the same order. Invalid input is an answer (`ok: false, reason: 'invalid'`) naming each field.
 */
export function runEstimate(value: unknown): EstimateJson | EstimateJson[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return invalid([{ path: '', message: NO_SCENARIOS }]);
    return value.map((item, i) => {
      const v = validateScenario(item);
      return v.ok ? estimateResolvedScenario(v.value, i) : malformedScenarioAnswer(item, i);
    });
  }
  const v = validateScenario(value);
  return v.ok ? estimateResolvedScenario(v.value) : invalid(withPresetIds(v.issues, value));
}

/**
 * The answer in its slot for the i-th scenario of an array that is not a valid scenario: ok false, reason invalid, its
 * schema issues and unknown preset ids under `[i]`; the array's other scenarios are answered as ever (runEstimate, and
 * POST /v1/estimate and /v1/memory for an array).
 */
export function malformedScenarioAnswer(raw: unknown, index: number): EstimateJson {
  const v = validateScenario(raw);
  return invalid(prefix(withPresetIds(v.ok ? [] : v.issues, raw), index));
}

/** A scenario's schema issues and, for fields they do not already name, its unknown preset ids. */
function withPresetIds(issues: readonly FieldIssue[], raw: unknown): FieldIssue[] {
  return [...issues, ...presetIdIssues(raw, issues.map((i) => i.path))];
}
