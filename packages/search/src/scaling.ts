import { estimatePlan, type PlanEstimate } from '@trainplan/planner';
import { countOf, formatGrouped, gcd, lcm } from '@trainplan/units';
import { planFor, type Candidate, type SearchBase } from './candidate.ts';
import { whyNothingFits } from './nothing-fits.ts';
import { defaultSearchSpace, megatronShardings, type SearchConstraints, type SearchSpace } from './search-space.ts';
import { searchPlans, type SearchOptions } from './search.ts';

/**
 * The parallel degrees held fixed across a sweep: with tensor and pipeline the whole plan (the rest at
 * its defaults); otherwise each one given narrows the search at every size.
 */
export type FixedStrategy = Partial<Omit<Candidate, 'data'>>;

export interface ScalingPoint {
  readonly nodes: number;
  readonly gpus: number;
  /**
   * Sequences per step. Not a planned batch where there is no candidate: under weak scaling, where the
   * size cannot keep the batch per node, the nearest whole one (see `reason`).
   */
  readonly globalBatchSize: number;
  /** Absent when nothing runs at this size (see `reason`). */
  readonly candidate?: Candidate;
  readonly estimate?: PlanEstimate;
  readonly tokensPerSecondPerGpu?: number;
  /**
   * Throughput per GPU relative to the smallest size of the sweep that runs a plan (whatever order the
   * sizes were listed in; a size without a plan, a weak-scaled one whose batch would not be whole among
   * them, is never the reference): 1 is perfect scaling. For strong scaling (fixed batch) this is (T_n / T_0) /
   * (n / n_0) of the tokens/s T; for weak scaling (batch grows with the nodes) it is the same ratio,
   * the usual definition of both (e.g. Narayanan et al. 2021, "Efficient Large-Scale Language Model
   * Training on GPU Clusters", §5.1 weak scaling).
   */
  readonly efficiency?: number;
  readonly reason?: string;
}

const DEFAULTS: Omit<Candidate, 'data'> = {
  tensor: 1, pipeline: 1, context: 1, virtualStages: 1, microBatchSize: 1, sequenceParallel: false, recompute: 'none', sharding: 'none',
};

/**
 * The search space with each degree the strategy holds fixed narrowed to that one value: a fixed
 * recompute mode (or micro-batch, …) without tensor and pipeline sizes still binds every plan searched.
 * The search's own 'full-partial' is not tried when recompute is fixed: 'full' names all layers.
 */
function fixedSpace(b: SearchBase, fixed: FixedStrategy, constraints: SearchConstraints): SearchSpace {
  const one = <K extends keyof FixedStrategy>(k: K): [NonNullable<FixedStrategy[K]>] | undefined => (fixed[k] === undefined ? undefined : [fixed[k]!]);
  const space = defaultSearchSpace(b, constraints);
  return {
    tensor: one('tensor') ?? space.tensor,
    pipeline: one('pipeline') ?? space.pipeline,
    pipelineSlots: one('pipelineSlots') ?? space.pipelineSlots,
    context: one('context') ?? space.context,
    virtualStages: one('virtualStages') ?? space.virtualStages,
    microBatchSize: one('microBatchSize') ?? space.microBatchSize,
    sequenceParallel: one('sequenceParallel') ?? space.sequenceParallel,
    recompute: one('recompute') ?? space.recompute,
    sharding: one('sharding') ?? space.sharding,
  };
}

/** Under weak scaling, the batch given and the size it is given for (the first listed), which a size's batch is scaled from. */
interface WeakFrom { readonly batch: number; readonly first: number }

/**
 * One point: the fixed strategy when it names tensor and pipeline sizes, else the best plan found with
 * what it fixes. `from` is set where the batch is weak-scaled from another size's.
 */
function point(base: SearchBase, nodes: number, globalBatchSize: number, fixed: FixedStrategy | undefined, options: SearchOptions, from?: WeakFrom): ScalingPoint {
  const gpus = nodes * base.gpusPerNode;
  const b = { ...base, nodes, globalBatchSize };
  if (fixed?.tensor !== undefined && fixed.pipeline !== undefined) {
    // The rest at its defaults: the plain optimizer, or the distributed one where FP8 weights need it (megatronShardings).
    const c = { ...DEFAULTS, sharding: megatronShardings(base)[0]!, ...fixed };
    const data = gpus / (c.tensor * c.pipeline * c.context);
    const replica = c.tensor * c.pipeline * c.context;
    if (!Number.isInteger(data)) return { nodes, gpus, globalBatchSize, reason: replicaReason(gpus, replica, base.gpusPerNode) };
    const candidate: Candidate = { ...c, data };
    const result = estimatePlan(planFor(b, candidate));
    if (!result.ok) {
      // The planner's "global batch 1 is not a multiple…" names training.globalBatchSize, which the client set to another number.
      const reason = from === undefined || result.issues === undefined ? result.message : result.issues.map((i) => (i.rule === 'batch-indivisible'
        ? `the weak-scaled batch of ${countOf(globalBatchSize, 'sequence')} at ${countOf(nodes, 'node')} (from training.globalBatchSize ${formatGrouped(from.batch)} on ${countOf(from.first, 'node')}) `
          + `is not a multiple of micro-batch × data-parallel = ${formatGrouped(c.microBatchSize)}×${formatGrouped(data)} = ${formatGrouped(c.microBatchSize * data)}`
        : `${i.path}: ${i.message}`)).join('; ');
      return { nodes, gpus, globalBatchSize, candidate, reason };
    }
    return { nodes, gpus, globalBatchSize, candidate, estimate: result, tokensPerSecondPerGpu: result.tokensPerSecond / gpus };
  }
  const space = fixed ? fixedSpace(b, fixed, options.constraints ?? {}) : undefined;
  const result = searchPlans(b, { ...options, top: 1, ...(space && { space }) });
  const best = result.top[0];
  if (!best) return { nodes, gpus, globalBatchSize, reason: `${result.budgetExhausted ? 'no plan found' : 'no configuration fits'}: ${whyNothingFits(result)}` };
  return { nodes, gpus, globalBatchSize, candidate: best.candidate, estimate: best.estimate, tokensPerSecondPerGpu: best.estimate.tokensPerSecond / gpus };
}


/**
 * Why `gpus` GPUs hold no whole replica of TP × PP × CP = `replica` GPUs: fewer than one replica, or not a multiple of it;
 * and the node counts that hold whole replicas (QA: "8 GPUs are not divisible by … 64" read as a divisibility slip).
 */
function replicaReason(gpus: number, replica: number, gpusPerNode: number): string {
  const unit = replica / gcd(replica, gpusPerNode);
  const sizes = `whole replicas need a multiple of ${countOf(unit, 'node')}`;
  return gpus < replica
    ? `${countOf(gpus, 'GPU')} are fewer than one replica of TP × PP × CP = ${replica} GPUs (${sizes})`
    : `${countOf(gpus, 'GPU')} are not divisible by TP × PP × CP = ${replica} (${sizes})`;
}

/** A count of sequences, whole or not, as the reasons write it: a quarter "0.25", a third "0.333", 40/3 "13.33". */
const sequences = (n: number): string => n.toLocaleString('en-US', n < 1 ? { maximumSignificantDigits: 3 } : { maximumFractionDigits: 2 });

/**
 * The sizes, under weak scaling, that keep the batch whole and get past the divisibility rules the
 * fixed degrees alone decide: the multiples of `step` nodes, where `none` is not set.
 *
 * At m nodes of g GPUs the batch is B·m/F (B on the first size's F nodes): whole where m is a multiple
 * of F / gcd(B, F). The GPUs split over tensor × pipeline × context = K where m·g is a multiple of K,
 * m a multiple of K / gcd(K, g). With the whole plan fixed, the batch is also to be a multiple of
 * micro-batch × data-parallel, μ·m·g/K, and that ratio, (B·m/F) / (μ·m·g/K) = B·K / (F·μ·g), is the same
 * at every size: a whole number at each of those multiples, or at none of them.
 */
function weakSizes(batch: number, first: number, gpusPerNode: number, fixed: FixedStrategy | undefined): { step: number; why: string } | { none: string } {
  const split = (fixed?.tensor ?? 1) * (fixed?.pipeline ?? 1) * (fixed?.context ?? 1);
  const whole = first / gcd(batch, first);
  const step = lcm(whole, split / gcd(split, gpusPerNode));
  if (fixed?.tensor === undefined || fixed.pipeline === undefined) {
    return { step, why: step === whole ? 'keep it whole' : `keep it whole with GPUs divisible by TP × PP × CP = ${split}` };
  }
  const microBatch = fixed.microBatchSize ?? DEFAULTS.microBatchSize;
  if ((batch * split) % (first * microBatch * gpusPerNode) === 0) return { step, why: 'keep it whole and a multiple of micro-batch × data-parallel' };
  const perNode = batch / first;
  return {
    none: `with this plan no size keeps it whole and a multiple of micro-batch × data-parallel (${sequences(perNode)} ${perNode === 1 ? 'sequence' : 'sequences'} `
      + `a node, not a multiple of ${microBatch}×${sequences(gpusPerNode / split)} a node)`,
  };
}

/**
 * The batch of one size under weak scaling: the first listed size's batch per node, times its nodes.
 * A size where that is no whole number of sequences (a fraction of one, below it) cannot keep the
 * batch per node, so it has no plan, only the reason and the nearest whole batch; it names the sizes
 * that can (weakSizes), and where the plan held fixed rules out every size, says so instead: naming
 * sizes that keep the batch whole would only move the failure.
 */
function weakBatch(batch: number, first: number, nodes: number, gpusPerNode: number, fixed: FixedStrategy | undefined): { globalBatchSize: number; reason?: string } {
  if ((batch * nodes) % first === 0) return { globalBatchSize: (batch * nodes) / first };
  const exact = (batch * nodes) / first;
  const would = exact < 1 ? `${sequences(exact)} of a sequence per step, under one` : `${sequences(exact)} sequences per step, not a whole number`;
  const sizes = weakSizes(batch, first, gpusPerNode, fixed);
  return {
    globalBatchSize: Math.max(1, Math.round(exact)),
    reason: `weak scaling keeps the first size's batch per node (${countOf(batch, 'sequence')} on ${countOf(first, 'node')}): `
      + `${countOf(nodes, 'node')} would take ${would}; ${'none' in sizes ? sizes.none : `the sizes that ${sizes.why} are multiples of ${countOf(sizes.step, 'node')}`}`,
  };
}

/**
 * Step time, throughput per GPU and scaling efficiency against node count, as in the Azure NDm A100
 * v4 study (530B at 105/140/175 nodes). Strong scaling keeps the global batch; weak scaling keeps the
 * first listed size's batch per node (the batch given is that size's), so each size's batch grows or
 * shrinks with its nodes; a size where that is no whole number of sequences is reported without a plan,
 * as a size the batch cannot be split over is (with the planner's reason). Efficiency is against the
 * smallest size that runs a plan, whatever the order the sizes are listed in, so listing them in another
 * order changes nothing but the order of the points (and, for weak scaling, which size's batch is given).
 */
export function scalingSweep(base: SearchBase, args: {
  nodes: readonly number[]; mode: 'strong' | 'weak'; fixed?: FixedStrategy; options?: SearchOptions;
}): ScalingPoint[] {
  const first = args.nodes[0] ?? base.nodes;
  const points = args.nodes.map((n): ScalingPoint => {
    const batch = args.mode === 'weak' ? weakBatch(base.globalBatchSize, first, n, base.gpusPerNode, args.fixed) : { globalBatchSize: base.globalBatchSize };
    if (batch.reason !== undefined) return { nodes: n, gpus: n * base.gpusPerNode, globalBatchSize: batch.globalBatchSize, reason: batch.reason };
    const from = args.mode === 'weak' && n !== first ? { batch: base.globalBatchSize, first } : undefined;
    return point(base, n, batch.globalBatchSize, args.fixed, args.options ?? {}, from);
  });
  const runs = (p: ScalingPoint): p is ScalingPoint & { tokensPerSecondPerGpu: number } => p.tokensPerSecondPerGpu !== undefined && p.tokensPerSecondPerGpu > 0;
  const ref = points.filter(runs).reduce<(ScalingPoint & { tokensPerSecondPerGpu: number }) | undefined>((a, p) => (!a || p.nodes < a.nodes ? p : a), undefined);
  return points.map((p) => (ref && runs(p) ? { ...p, efficiency: p.tokensPerSecondPerGpu / ref.tokensPerSecondPerGpu } : p));
}

export interface TradeOffCell {
  readonly tensor: number;
  readonly pipeline: number;
  readonly candidate?: Candidate;
  readonly estimate?: PlanEstimate;
  readonly reason?: string;
}

/**
 * The TP/PP trade-off table at a fixed model and cluster: for each tensor × pipeline pair that
 * divides the GPUs, the best plan over the other dimensions, or why none runs. `fixed` holds the other
 * dimensions as a sweep's does (a recompute mode, a micro-batch, …); its tensor and pipeline sizes, the
 * table's own axes, are not held.
 */
export function tensorPipelineTable(
  base: SearchBase,
  options: SearchOptions & { tensor?: readonly number[]; pipeline?: readonly number[]; fixed?: FixedStrategy } = {},
): TradeOffCell[] {
  const gpus = base.nodes * base.gpusPerNode;
  const { tensor: _t, pipeline: _p, ...held } = options.fixed ?? {};
  const space = fixedSpace(base, held, options.constraints ?? {});
  const tensors = options.tensor ?? space.tensor;
  const pipelines = options.pipeline ?? space.pipeline.filter((p) => (p & (p - 1)) === 0 || base.model.layers % p === 0);
  const cells: TradeOffCell[] = [];
  for (const t of tensors) {
    for (const p of pipelines) {
      if (gpus % (t * p) !== 0 || p > base.model.layers) continue;
      const result = searchPlans(base, { ...options, top: 1, space: { ...space, tensor: [t], pipeline: [p] } });
      const best = result.top[0];
      cells.push(best ? { tensor: t, pipeline: p, candidate: best.candidate, estimate: best.estimate }
        : { tensor: t, pipeline: p, reason: result.closestInfeasible?.message ?? whyNothingFits(result) });
    }
  }
  return cells;
}
