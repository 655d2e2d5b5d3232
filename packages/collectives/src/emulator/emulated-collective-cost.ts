import { collectiveCost } from '../collective-cost.ts';
import { buildTopology } from '../topology/build-topology.ts';
import type { TopologyGraph } from '../topology/topology-graph.ts';
import type { CollectiveOp, CommGroup, Fabric } from '../types.ts';
import { concurrentGroupGpus, type GroupLayout } from './concurrent-groups.ts';
import { emulateCollectives, type EmulatedCollective } from './emulate-collectives.ts';

export interface EmulatedCostOptions {
  readonly fabric: Fabric;
  readonly op: CollectiveOp;
  /** nccl-tests size semantics, as `collectiveCost`. */
  readonly bytes: number;
  /** The group; its `concurrentGroupsPerNode` sibling groups run the same collective at the same time. */
  readonly group: CommGroup;
  readonly layout: GroupLayout;
  /** Leaf oversubscription of the fat tree (1, the default, is non-blocking). */
  readonly oversubscription?: number;
}

export interface EmulatedCost {
  readonly seconds: number;
  /** False when the emulator refused the run (event budget, an algorithm it does not execute): the closed form answered. */
  readonly emulated: boolean;
  /** Why the emulator refused, when `emulated` is false (its message), for the caller to report. */
  readonly reason?: string;
}

// Memo per fabric (immutable data, weakly held): topologies by (nodes, oversubscription), and
// emulated times by (topology, op, bytes, group, layout). The planner asks the same few
// collectives for every stage and every estimate of a search.
const topologies = new WeakMap<Fabric, Map<string, TopologyGraph>>();
const times = new WeakMap<TopologyGraph, Map<string, EmulatedCost>>();

function topologyFor(fabric: Fabric, nodes: number, oversubscription: number): TopologyGraph {
  let byKey = topologies.get(fabric);
  if (!byKey) topologies.set(fabric, (byKey = new Map()));
  const key = `${nodes}|${oversubscription}`;
  let t = byKey.get(key);
  if (!t) byKey.set(key, (t = buildTopology({ fabric, nodes, oversubscription })));
  return t;
}

/**
 * One collective of a parallel group, emulated together with its concurrent sibling groups (so
 * that, e.g., the data-parallel all-reduces of all tensor-parallel ranks share the NICs and the
 * spine) on the fat tree of the nodes they span; the slowest group's time. NCCL's choice of
 * algorithm and protocol, as `collectiveCost`. Memoised. When the emulator refuses the run, the
 * closed form answers and `emulated` is false.
 */
export function emulatedCollectiveCost(options: EmulatedCostOptions): EmulatedCost {
  const { fabric, op, bytes, group, layout } = options;
  if (group.ranks <= 1 || !(bytes > 0)) return { seconds: 0, emulated: true };
  const oversubscription = options.oversubscription ?? 1;
  const nodes = Math.ceil(group.ranks / group.ranksPerNode);
  const t = topologyFor(fabric, nodes, oversubscription);
  let memo = times.get(t);
  if (!memo) times.set(t, (memo = new Map()));
  const key = `${op}|${bytes}|${group.ranks}|${group.ranksPerNode}|${group.concurrentGroupsPerNode ?? 1}|${layout}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const collectives: EmulatedCollective[] = concurrentGroupGpus(group, fabric.gpusPerNode, layout)
    .map((gpus) => ({ op, bytes, gpus }));
  const result = emulateCollectives({ topology: t, collectives, maxLinks: 1 });
  const cost: EmulatedCost = result.ok
    ? { seconds: result.seconds, emulated: true }
    : { seconds: collectiveCost({ op, bytes, group, fabric }).seconds, emulated: false, reason: result.message };
  memo.set(key, cost);
  return cost;
}

/**
 * The pipeline-stage boundaries: every GPU of stage s's `nodesPerStage` nodes sends `bytes` to the
 * same local GPU `nodesPerStage` nodes on (Megatron's pp-outermost rank order: stage s holds nodes
 * s·nodesPerStage …), both directions (activations forward, gradients back), at every boundary at
 * once (in a pipeline's steady state every stage sends and receives together), on the fat tree of
 * all `stages` stages' nodes, so a boundary meets the leaf switches where it really falls: where
 * stages straddle a leaf these sends cross the spine, and share its trunks with the other
 * boundaries'. The slowest send's time. `stages` defaults to 2 (one boundary, from node 0), which
 * sees a leaf boundary only when a stage outgrows a leaf. Memoised; the closed form answers
 * (`emulated: false`, with the reason) when the emulator refuses.
 */
export function emulatedStageSendCost(options: {
  readonly fabric: Fabric;
  readonly nodesPerStage: number;
  readonly bytes: number;
  readonly oversubscription?: number;
  /** Pipeline stages (≥ 2): all their boundaries are emulated at their real node offsets. */
  readonly stages?: number;
}): EmulatedCost {
  const { fabric, bytes } = options;
  const nodesPerStage = Math.max(1, Math.ceil(options.nodesPerStage));
  const stages = Math.max(2, Math.floor(options.stages ?? 2));
  if (!(bytes > 0)) return { seconds: 0, emulated: true };
  const t = topologyFor(fabric, stages * nodesPerStage, options.oversubscription ?? 1);
  let memo = times.get(t);
  if (!memo) times.set(t, (memo = new Map()));
  const key = `stage-send|${bytes}|${nodesPerStage}|${stages}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const g = fabric.gpusPerNode;
  const stageGpus = nodesPerStage * g;
  const collectives: EmulatedCollective[] = [];
  for (let s = 0; s + 1 < stages; s++) {
    for (let gpu = s * stageGpus; gpu < (s + 1) * stageGpus; gpu++) collectives.push({ op: 'send-recv', bytes, gpus: [gpu, gpu + stageGpus] });
  }
  const result = emulateCollectives({ topology: t, collectives, maxLinks: 1 });
  const cost: EmulatedCost = result.ok
    ? { seconds: result.seconds, emulated: true }
    : {
      seconds: collectiveCost({ op: 'send-recv', bytes, group: { ranks: 2, ranksPerNode: 1 }, fabric }).seconds,
      emulated: false, reason: result.message,
    };
  memo.set(key, cost);
  return cost;
}
