import { describeCandidate, scalingSweep, tensorPipelineTable, type FixedStrategy } from '@trainplan/search';
import { countOf } from '@trainplan/units';
import { MAX_CLUSTER_NODES } from '../cluster-caps.ts';
import { issuesMessage } from '../problem.ts';
import { array } from '../schema/compose.ts';
import { object, optional, withDefault } from '../schema/object.ts';
import { boolean, enumOf, integer } from '../schema/scalars.ts';
import type { Schema } from '../schema/types.ts';
import { jsonSchemaDocument, validate } from '../schema/validate.ts';
import { modelSchema } from '../scenario-schema.ts';
import type { FieldIssue, ScenarioInput } from '../wire.ts';
import { constraintsSchema, searchClusterFields, searchTrainingFields, settingsSchema } from './request-parts.ts';
import { candidateScenario, resolveSearch, type SearchRequestCore } from './resolve-search.ts';
import { searchOptions, type RunSearchOptions } from './run-search.ts';
import type { SearchRequest } from './search-schema.ts';

export interface ScaleRequest extends SearchRequestCore {
  nodes: number[];
  mode: 'strong' | 'weak';
  /** Degrees held fixed at every size (e.g. the paper's TP 8, PP 35); the rest is searched. */
  parallelism?: { tensor?: number; pipeline?: number; context?: number; virtualStages?: number; microBatchSize?: number; sequenceParallel?: boolean; recompute?: 'none' | 'selective' | 'full'; distributedOptimizer?: boolean };
  /** Also the TP × PP trade-off table at the first size. */
  tradeOff: boolean;
  constraints: SearchRequest['constraints'];
}

const degree = (description: string) => optional(integer({ min: 1, max: 65_536, description }));

export const scaleRequestSchema: Schema<ScaleRequest> = object({
  model: modelSchema,
  cluster: object(searchClusterFields, { expected: 'a cluster object', description: 'The node type; the sizes are `nodes`.' }),
  training: object(searchTrainingFields, { expected: 'a training object', description: 'The batch (of the first size, for weak scaling) and precision.' }),
  settings: settingsSchema,
  constraints: constraintsSchema,
  nodes: array(integer({ min: 1, max: MAX_CLUSTER_NODES, description: 'A cluster size, in nodes.' }), { minItems: 1, maxItems: 64, description: 'Cluster sizes, in nodes.' }),
  mode: withDefault(enumOf(['strong', 'weak'], { description: 'Strong (fixed global batch) or weak (batch grows with the nodes) scaling.' }), 'strong'),
  parallelism: optional(object({
    tensor: degree('Tensor-parallel degree held fixed.'),
    pipeline: degree('Pipeline-parallel degree held fixed.'),
    context: degree('Context-parallel degree.'),
    virtualStages: degree('Model chunks per stage.'),
    microBatchSize: degree('Micro-batch size.'),
    sequenceParallel: optional(boolean({ description: 'Sequence parallelism.' })),
    recompute: optional(enumOf(['none', 'selective', 'full'], { description: 'Recompute.' })),
    distributedOptimizer: optional(boolean({ description: 'Distributed optimizer.' })),
  }, { expected: 'a parallelism object', description: 'Held fixed at every size, each field on its own (the search keeps only plans with it); with tensor and pipeline both given the plan is fully fixed, otherwise the fields not given are searched.' })),
  tradeOff: withDefault(boolean({ description: 'Add the TP × PP trade-off table at the first size.' }), false),
}, { expected: 'a scale request object', description: 'Scaling sweeps: step time, throughput per GPU and efficiency against node count.' });

export const scaleRequestJsonSchema = /* @__PURE__ */ jsonSchemaDocument(scaleRequestSchema, {
  id: 'https://trainplan.dev/schemas/scale-request.json', title: 'Scale request',
});

export interface ScalePointJson {
  nodes: number; gpus: number; globalBatchSize: number;
  label?: string; scenario?: ScenarioInput; stepTimeSeconds?: number; tokensPerSecond?: number; tokensPerSecondPerGpu?: number;
  modelTflopsPerGpu?: number; mfu?: number; efficiency?: number; reason?: string;
  /** The planner's warnings on this size's plan (a bubble that dominates, TP across nodes, tight memory); absent when none. */
  warnings?: string[];
}
export interface TradeOffJson {
  tensor: number; pipeline: number; label?: string; stepTimeSeconds?: number; tokensPerSecondPerGpu?: number; mfu?: number; reason?: string;
}
export type ScaleResponseJson =
  | { ok: true; mode: 'strong' | 'weak'; points: ScalePointJson[]; efficiencyBaselineNodes: number; tradeOff?: TradeOffJson[] }
  | { ok: false; reason: 'invalid'; message: string; issues: FieldIssue[] }
  /**
   * No size asked runs a plan: the sweep is still there, each point with the reason it has none (and the
   * trade-off table when asked for), so that a client reading `points` finds them as in an ok answer.
   */
  | { ok: false; reason: 'no-feasible-configuration'; message: string; mode: 'strong' | 'weak'; points: ScalePointJson[]; tradeOff?: TradeOffJson[] };

const invalid = (issues: FieldIssue[]): ScaleResponseJson => ({
  ok: false, reason: 'invalid', message: issuesMessage(issues), issues,
});

/** Scaling sweeps and the TP/PP trade-off table on the wire. */
export function runScale(request: unknown, options: RunSearchOptions = {}): ScaleResponseJson {
  const valid = validate(scaleRequestSchema, request);
  if (!valid.ok) return invalid(valid.issues);
  const req = valid.value;
  const first = req.nodes[0]!;
  const resolved = resolveSearch(req, { nodes: first });
  if (!resolved.ok) return invalid(resolved.issues);
  const r = resolved.value;
  const opts = searchOptions({ ...req, top: 1, objective: 'throughput' } as SearchRequest, options);
  const p = req.parallelism;
  const fixed: FixedStrategy | undefined = p && {
    ...(p.tensor !== undefined && { tensor: p.tensor }),
    ...(p.pipeline !== undefined && { pipeline: p.pipeline }),
    ...(p.context !== undefined && { context: p.context }),
    ...(p.virtualStages !== undefined && { virtualStages: p.virtualStages }),
    ...(p.microBatchSize !== undefined && { microBatchSize: p.microBatchSize }),
    ...(p.sequenceParallel !== undefined && { sequenceParallel: p.sequenceParallel }),
    ...(p.recompute !== undefined && { recompute: p.recompute }),
    ...(p.distributedOptimizer !== undefined && { sharding: p.distributedOptimizer ? 'distributed-optimizer' as const : 'none' as const }),
  };
  const points = scalingSweep(r.base, { nodes: req.nodes, mode: req.mode, fixed, options: opts }).map((pt): ScalePointJson => ({
    nodes: pt.nodes, gpus: pt.gpus, globalBatchSize: pt.globalBatchSize,
    ...(pt.candidate && { label: describeCandidate(pt.candidate) }),
    ...(pt.candidate && pt.estimate && { scenario: candidateScenario({ ...r, core: { ...r.core, training: { ...r.core.training, globalBatchSize: pt.globalBatchSize } } }, pt.candidate, pt.nodes) }),
    ...(pt.estimate && {
      stepTimeSeconds: pt.estimate.stepTimeSeconds, tokensPerSecond: pt.estimate.tokensPerSecond, tokensPerSecondPerGpu: pt.tokensPerSecondPerGpu,
      modelTflopsPerGpu: pt.estimate.modelTflopsPerGpu, mfu: pt.estimate.mfu,
    }),
    ...(pt.efficiency !== undefined && { efficiency: pt.efficiency }),
    ...(pt.reason !== undefined && { reason: pt.reason }),
    ...(pt.estimate && pt.estimate.warnings.length > 0 && { warnings: [...pt.estimate.warnings] }),
  }));
  // The size whose throughput per GPU is efficiency 1 (scalingSweep: the smallest that runs a plan, whatever the order
  // asked), said outright (QA: a client had to find it as the point whose efficiency is 1).
  const running = points.filter((pt) => pt.efficiency !== undefined).map((pt) => pt.nodes);
  const sweep = (tradeOff?: TradeOffJson[]): ScaleResponseJson => (running.length > 0
    ? { ok: true, mode: req.mode, points, efficiencyBaselineNodes: Math.min(...running), ...(tradeOff && { tradeOff }) }
    : { ok: false, reason: 'no-feasible-configuration', message: noPlanMessage(points), mode: req.mode, points, ...(tradeOff && { tradeOff }) });
  if (!req.tradeOff) return sweep();
  const gpus = first * r.cluster.gpusPerNode;
  const tradeOff = tensorPipelineTable({ ...r.base, nodes: first }, { ...opts, ...(fixed && { fixed }) }).map((c): TradeOffJson => ({
    tensor: c.tensor, pipeline: c.pipeline,
    ...(c.candidate && { label: describeCandidate(c.candidate) }),
    ...(c.estimate && { stepTimeSeconds: c.estimate.stepTimeSeconds, tokensPerSecondPerGpu: c.estimate.tokensPerSecond / gpus, mfu: c.estimate.mfu }),
    ...(c.reason !== undefined && { reason: c.reason }),
  }));
  return sweep(tradeOff);
}

/**
 * Why a sweep has no answer, as search and nodes say theirs: no size asked runs a plan, and each size's
 * reason ("12 nodes (96 GPUs): 96 GPUs are not divisible by TP × PP × CP = 64 (…)"), the same reason said once
 * for all the sizes it rules out.
 */
function noPlanMessage(points: readonly ScalePointJson[]): string {
  const byReason = new Map<string, ScalePointJson[]>();
  for (const p of points) byReason.set(p.reason ?? '', [...(byReason.get(p.reason ?? '') ?? []), p]);
  const sizes = (ps: readonly ScalePointJson[]): string => ps.map((p) => `${countOf(p.nodes, 'node')} (${countOf(p.gpus, 'GPU')})`).join(', ');
  const why = [...byReason].map(([reason, ps]) => `${sizes(ps)}: ${reason}`).join('; ');
  return `no configuration runs on ${points.length === 1 ? 'the size' : `any of the ${points.length} sizes`} asked: ${why}`;
}
