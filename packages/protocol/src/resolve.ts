import type { GpuSpec, NetworkSpec, SystemSpec } from '@trainplan/hardware';
import { countOf, formatGrouped } from '@trainplan/units';
import { slotsOf, withShapeDefaults, type ModelShape, type StateSharding } from '@trainplan/model';
import { defaultAttentionKernel, defaultPrecision, type PlanInput } from '@trainplan/planner';
import { defaultSystemForGpu, gpuById, MEGATRON_DEFAULT_DROPOUT, modelById, networkById, systemById } from '@trainplan/presets';
import { fabricFor } from './fabric-cache.ts';
import { machineIssues } from './machine-checks.ts';
import { unknownGpu, unknownModel, unknownNetwork } from './preset-ids.ts';
import { sequenceWarnings } from './sequence-warning.ts';
import { shapeDefaultsWarnings } from './shape-defaults-warning.ts';
import type { ResolvedScenarioInput } from './resolved.ts';
import type { FieldIssue } from './wire.ts';

export interface ResolvedPlan {
  readonly plan: PlanInput;
  readonly modelId: string;
  readonly gpuId: string;
  readonly networkId: string;
  /** The scenario's model as given: a preset id, or a shape (resolved-extensions.ts writes it back as `resolved.modelShape`). */
  readonly modelInput: ResolvedScenarioInput['model'];
  /** Caveats about the scenario that resolving it found (shape-defaults-warning.ts, sequence-warning.ts), before the planner's own. */
  readonly warnings: readonly string[];
}

/** A model field (a preset id or a shape with its defaults filled) → its shape, or an issue at `model` for an unknown id. */
export function resolveModel(model: ResolvedScenarioInput['model'], issues: FieldIssue[]): ModelShape | undefined {
  if (typeof model !== 'string') return withShapeDefaults(model);
  const preset = modelById(model);
  if (!preset) issues.push(unknownModel(model));
  return preset?.shape;
}

/**
 * Dropout as the model was trained: a preset states it (presets/model-preset.ts, trainedWithDropout); a
 * model given by its shape gets Megatron-LM's default, on (0.1).
 */
function defaultDropout(model: string | object): boolean {
  return typeof model === 'string' ? modelById(model)?.trainedWithDropout ?? MEGATRON_DEFAULT_DROPOUT : MEGATRON_DEFAULT_DROPOUT;
}

/** The planner's state sharding of a scenario's parallelism: ZeRO's stage where given past 0, else the distributed optimizer or none. */
export function stateShardingOf(p: { readonly zeroStage?: number; readonly distributedOptimizer?: boolean }): StateSharding {
  if (p.zeroStage !== undefined && p.zeroStage > 0) return `zero-${p.zeroStage}` as StateSharding;
  return p.distributedOptimizer ? 'distributed-optimizer' : 'none';
}

/**
 * cluster.gpu's machine: a GPU preset id and its usual DGX-class system, or (an extension) a system id
 * standing for its GPU, node size and network. A part left undefined is an unknown id.
 */
export function clusterMachine(id: string): { gpu?: GpuSpec; system?: SystemSpec } {
  const named = gpuById(id) ? undefined : systemById(id);
  const gpu = gpuById(named ? named.gpu : id);
  return { gpu, system: named ?? (gpu ? defaultSystemForGpu(gpu.id) : undefined) };
}

/**
 * A validated contract scenario → the planner's fully resolved input: preset ids looked up,
 * the machine's defaults applied (gpusPerNode and network from the GPU's usual DGX-class system),
 * data parallelism derived as GPUs / (tensor · pipeline · context).
 */
export function resolveScenario(s: ResolvedScenarioInput): { ok: true; value: ResolvedPlan } | { ok: false; issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const model = resolveModel(s.model, issues);
  const { gpu, system } = clusterMachine(s.cluster.gpu);
  if (!gpu) issues.push(unknownGpu(s.cluster.gpu));
  const networkId = s.cluster.network ?? system?.network ?? 'hdr-ib-8x';
  const network: NetworkSpec | undefined = networkById(networkId);
  if (!network) issues.push(unknownNetwork(networkId));
  if (!model || !gpu || !system || !network) return { ok: false, issues };

  const nodeGpus = s.cluster.gpusPerNode ?? system.gpusPerNode;
  issues.push(...machineIssues({ system, network, gpusPerNode: nodeGpus, prefix: 'cluster.' }));
  const gpus = s.cluster.gpus ?? (s.cluster.nodes ?? 0) * nodeGpus;
  if (gpus % nodeGpus !== 0 && gpus > nodeGpus) issues.push(partNodesIssue(gpus, nodeGpus));
  // Fewer GPUs than a node holds are one partly used node, not a fraction of one.
  const gpusPerNode = Math.min(nodeGpus, gpus);
  const p = s.parallelism;
  const modelParallel = p.tensor * p.pipeline * p.context;
  const data = p.data ?? gpus / modelParallel;
  if (p.data === undefined && !Number.isInteger(data)) {
    // The planner's own rule for it (check-plan.ts), so that a caller tells it from a malformed field: the scenario is
    // well formed, its layout does not divide the cluster (reason 'indivisible', as for a data degree that does not).
    issues.push({ path: 'parallelism', rule: 'gpus-indivisible', message: `${formatGrouped(gpus)} GPUs are not divisible by tensor × pipeline × context = ${formatGrouped(modelParallel)}` });
  }
  if (issues.length > 0) return { ok: false, issues };

  // A run at another length than the model's keeps its learned position table, grown where the run is longer (shape.ts).
  const shape: ModelShape = s.training.seqLength !== undefined
    ? { ...model, seqLength: s.training.seqLength, maxPositions: Math.max(model.maxPositions ?? model.seqLength, s.training.seqLength) }
    : model;
  // GB200 NVL72: the NVLink domain, not the 4-GPU tray, is what collectives see as one "node".
  const nvlinkDomainGpus = network.nvlinkDomainGpus ?? gpusPerNode;
  const fabric = fabricFor(gpu, system, network, gpusPerNode);
  const plan: PlanInput = {
    model: shape,
    gpu,
    fabric,
    nodes: gpus / gpusPerNode,
    gpusPerNode,
    nvlinkDomainGpus,
    globalBatchSize: s.training.globalBatchSize,
    microBatchSize: s.training.microBatchSize,
    seqLength: shape.seqLength,
    precision: s.training.precision ?? defaultPrecision(gpu),
    tokens: s.training.tokens,
    dropout: s.training.dropout ?? defaultDropout(s.model),
    attentionKernel: s.training.attentionKernel ?? defaultAttentionKernel(gpu),
    ...(s.training.crossEntropyKernel !== undefined && { crossEntropyKernel: s.training.crossEntropyKernel }),
    ...(s.training.gradientAccumulation !== undefined && { gradientAccumulation: s.training.gradientAccumulation }),
    ...(s.training.fp8Params === true && { fp8Params: true }),
    tensor: p.tensor,
    pipeline: p.pipeline,
    data,
    context: p.context,
    virtualStages: p.virtualStages,
    schedule: p.schedule,
    sequenceParallel: p.sequenceParallel,
    recompute: p.recompute,
    recomputeLayers: p.recomputeLayers,
    sharding: stateShardingOf(p),
    scatterGather: p.scatterGather,
    overlapGradReduce: p.overlapGradReduce,
    overlapTensorParallelComm: p.overlapTensorParallelComm ?? false,
    overlapPipelineComm: p.overlapPipelineComm ?? false,
    ...(p.asyncTensorParallelGradComm !== undefined && { asyncTensorParallelGradComm: p.asyncTensorParallelGradComm }),
    ...((p.embeddingInPipelineSplit || p.lossInPipelineSplit) && { pipelineSlots: slotsOf(p.embeddingInPipelineSplit ?? false, p.lossInPipelineSplit ?? false) }),
    ...(s.cluster.communicationModel !== undefined && { communicationModel: s.cluster.communicationModel }),
    ...(s.cluster.oversubscription !== undefined && { oversubscription: s.cluster.oversubscription }),
  };
  const modelId = typeof s.model === 'string' ? s.model : (s.model.name ?? 'custom');
  const warnings = [...(typeof s.model === 'string' ? [] : shapeDefaultsWarnings(s.model)), ...sequenceWarnings(model, s.training.seqLength, s.model)];
  return { ok: true, value: { plan, modelId, gpuId: gpu.id, networkId: network.id, modelInput: s.model, warnings } };
}

/**
 * More GPUs than one node holds that do not fill whole nodes (fewer than a node are one partly used node): refused by
 * the estimate and the search alike, naming the nearest counts that do.
 */
export function partNodesIssue(gpus: number, gpusPerNode: number): FieldIssue {
  const fewer = Math.floor(gpus / gpusPerNode);
  const whole = (n: number) => `${formatGrouped(n * gpusPerNode)} (${countOf(n, 'node')})`;
  const options = [...(fewer > 0 ? [whole(fewer)] : []), whole(fewer + 1)];
  return { path: 'cluster.gpus', message: `${formatGrouped(gpus)} GPUs do not fill whole nodes of ${gpusPerNode} GPUs: ask for ${options.join(' or ')}, or give cluster.nodes` };
}
