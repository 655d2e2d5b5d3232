import { gcd } from '@trainplan/units';
import type { Candidate, SearchBase } from './candidate.ts';
import { MAX_NODES } from './capacity-limits.ts';
import { batchesFor, meetsGoal, type CapacityOptions, type Sizer } from './capacity-sizer.ts';
import type { CapacityGoal, CapacityPoint } from './capacity-types.ts';
import { evaluateCandidate } from './evaluate.ts';
import { memoryBudgetBytes } from './memory-budget.ts';

/** Full searches run on the fastest sizes a replica scan finds (each scan's cheapest estimates are only a guide). */
export const REPLICA_SCAN_CONFIRMS = 3;

/**
 * The nodes one model replica of `c` spans: a size takes whole replicas of TP × PP × CP GPUs exactly when its node count
 * is a multiple of this (TP 2 · PP 14 · CP 4 on 8-GPU nodes: 112 GPUs, 14 nodes).
 */
export const nodesPerReplicaUnit = (c: Pick<Candidate, 'tensor' | 'pipeline' | 'context'>, gpusPerNode: number): number => {
  const modelParallelGpus = c.tensor * c.pipeline * c.context;
  return modelParallelGpus / gcd(modelParallelGpus, gpusPerNode);
};

/** The sizes a family scan estimates, in nodes (both ends included; absent: from one replica to MAX_NODES). */
export interface FamilyRange { readonly fromNodes?: number; readonly toNodes?: number }

/** A size's time, GPU-hours and cost (with a price) with the given shape and as many data-parallel replicas as the size holds. */
interface ShapeAt { readonly nodes: number; readonly seconds: number; readonly gpuHours: number; readonly cost?: number }

/**
 * Every cluster size that holds whole replicas of the model-parallel shape `shape` (the same TP, PP, CP, virtual stages,
 * micro-batch, recompute and sharding, data parallelism filling the size), each estimated once with that shape at the
 * size's own batch. A batch per size keeps each replica's micro-batches about the same, so along such a family the time
 * falls nearly as 1/nodes while the GPU-hours creep up with the data-parallel all-reduce; but the sizes between the
 * family's members do not take the shape, and the batch of some members is not divisible by their replicas, so the
 * family's fastest within a budget is invisible to powers of two and bisections over all sizes (QA: GPT-3 175B on H100,
 * 300B tokens, 320k GPU-hours at each size's batch: a bisection ended at 1,554 nodes, 1.04 days; the family of its shape
 * TP 2 · PP 14 · CP 4 runs on to 1,666 nodes, 0.97 days within the budget). One estimate a member, so scanning every one
 * up to MAX_NODES costs about as much as one size's search. Returns the members within `goal`, fastest first.
 */
export function replicaFamily(
  base: SearchBase, tokens: number, shape: Candidate, goal: CapacityGoal, options: CapacityOptions, price?: number,
  range: FamilyRange = {},
): ShapeAt[] {
  const unit = nodesPerReplicaUnit(shape, base.gpusPerNode);
  const modelParallelGpus = shape.tensor * shape.pipeline * shape.context;
  const memoryBudget = memoryBudgetBytes(base, options.constraints?.memoryFraction);
  const within: ShapeAt[] = [];
  const first = unit * Math.max(1, Math.ceil((range.fromNodes ?? unit) / unit));
  for (let nodes = first; nodes <= Math.min(MAX_NODES, range.toNodes ?? MAX_NODES); nodes += unit) {
    const data = (nodes * base.gpusPerNode) / modelParallelGpus;
    // The member at the faster of the size's batches that its replicas divide (SizedBatchFor), as the size's search takes it.
    const times = batchesFor(options.globalBatchFor, nodes, base).filter((b) => b % (data * shape.microBatchSize) === 0).flatMap((globalBatchSize) => {
      // Object.assign, not `{ ...base, nodes, … }`: V8 (Node 20) writes each property after a spread on a slow path
      // (candidate.ts planFor), and a family estimates every member.
      const evaluation = evaluateCandidate(Object.assign({}, base, { nodes, tokens, globalBatchSize }), Object.assign({}, shape, { data }), undefined, memoryBudget);
      const t = evaluation.ok ? evaluation.estimate.timeToTrain : undefined;
      return t ? [t] : [];
    });
    if (times.length === 0) continue;
    const time = times.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    // On the wall clock at the uptime, as searchOnNodes counts a size's time (WallClock): both over the uptime.
    const uptime = options.uptime ?? 1;
    const seconds = time.seconds / uptime;
    const gpuHours = time.gpuHours / uptime;
    const member = { nodes, seconds, gpuHours, cost: price === undefined ? undefined : gpuHours * price };
    if (meetsGoal(member, goal)) within.push(member);
  }
  return within.sort((a, b) => a.seconds - b.seconds);
}

/** Shapes whose families a replica scan round searches: those of the fastest sizes found within the goal, one each. */
export const REPLICA_SEED_SHAPES = 4;

/**
 * Replica scans from the fastest sizes found within the goal: the families (replicaFamily) of the REPLICA_SEED_SHAPES
 * distinct shapes of the fastest points are scanned, and the REPLICA_SCAN_CONFIRMS fastest members of each that beat the
 * fastest point are searched in full (`consider` weighs each); rounds repeat while the fastest changes (at most `rounds`).
 * Not the fastest's shape alone: the second-fastest size's family can run past it (QA: Llama 3 70B on H100, 2T tokens,
 * 659k GPU-hours at each size's batch: the fastest found, 185 nodes of TP 2 · PP 5, 17.8 days; 180 nodes of TP 2 · PP 9
 * · CP 4 run on, a replica of 9 nodes at a time, to 279 nodes in 12.3 days within the budget). `scanned` holds the shapes
 * scanned before (each is scanned once) and gains those scanned now.
 */
export function scanReplicaFamilies(
  s: Sizer, base: SearchBase, tokens: number, goal: CapacityGoal, options: CapacityOptions, price: number | undefined,
  consider: (p: CapacityPoint | undefined) => boolean, scanned: Set<string>, rounds = 3,
): void {
  const fastest = (): CapacityPoint | undefined => withinGoal(s, goal)[0];
  for (let round = 0; round < rounds; round++) {
    const from = fastest();
    if (from === undefined) return;
    const seeds: Candidate[] = [];
    for (const p of withinGoal(s, goal)) {
      if (seeds.length >= REPLICA_SEED_SHAPES) break;
      const key = shapeKey(p.plan.candidate);
      if (scanned.has(key)) continue;
      scanned.add(key);
      seeds.push(p.plan.candidate);
    }
    for (const shape of seeds) {
      const faster = replicaFamily(base, tokens, shape, goal, options, price).filter((m) => m.seconds < from.seconds);
      for (const m of faster.slice(0, REPLICA_SCAN_CONFIRMS)) consider(s.at(m.nodes));
    }
    if (seeds.length === 0 || fastest() === from) return;
  }
}

/** A model-parallel shape: a candidate less its data-parallel size. */
export const shapeKey = (c: Candidate): string => JSON.stringify({ ...c, data: 0 });

/** The sizes searched whose plan meets `goal`, fastest first. */
const withinGoal = (s: Sizer, goal: CapacityGoal): CapacityPoint[] => s.points().filter((p) => meetsGoal(p, goal)).sort((a, b) => a.seconds - b.seconds);
