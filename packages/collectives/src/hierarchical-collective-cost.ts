import { algBandwidth } from './alg-bandwidth.ts';
import { reducesInNetwork } from './reduces-in-network.ts';
import { busBandwidthFactor } from './bus-bandwidth-factor.ts';
import { groupPlacement } from './group-placement.ts';
import type { CollectiveCost, CollectiveRequest } from './types.ts';

/** A hierarchical all-reduce's cost, and whether its inter-node step reduces in the network. */
export interface HierarchicalCost {
  readonly cost: CollectiveCost;
  /**
   * The inter-node step reduces in the network's switches (CollNet, NVLS across nodes: SHARP; bandwidth-bound.ts
   * reducesInNetwork): a node then sends its data once where the node cut counts a reduction in the GPUs, and the whole
   * may pass that bound as the step alone may (with CollNet on, 16 A100 nodes × 2 GPUs all-reduce hierarchically at
   * 61.7 GB/s of busbw against a 51.7 GB/s node cut).
   */
  readonly reducesInNetwork: boolean;
}

/**
 * Hierarchical all-reduce on a fabric (collectives-reference §3 "Hierarchical 2D AR"), each step
 * costed by NCCL's own model: (1) reduce-scatter of S inside each node, (2) all-reduce of S/g
 * across nodes on every rail at once — g·(concurrent groups) single-GPU-per-node groups sharing
 * the NICs — and (3) all-gather of S inside each node. The reported protocol is the inter-node
 * step's (the intra-node one on a single node). `costOf` is `collectiveCost`, passed in to keep
 * the module graph acyclic.
 */
export function hierarchicalCollectiveCost(
  request: CollectiveRequest,
  costOf: (request: CollectiveRequest) => CollectiveCost,
): HierarchicalCost {
  const { fabric, bytes } = request;
  const placement = groupPlacement(request.group, fabric);
  const g = placement.ranksPerNode;
  const intraGroup = { ranks: g, ranksPerNode: g, concurrentGroupsPerNode: placement.concurrentGroupsPerNode };
  const reduceScatter = costOf({ op: 'reduce-scatter', bytes, group: intraGroup, fabric });
  const allGather = costOf({ op: 'all-gather', bytes, group: intraGroup, fabric });
  const interGroup = { ranks: placement.nodes, ranksPerNode: 1, concurrentGroupsPerNode: g * placement.concurrentGroupsPerNode };
  const inter = costOf({ op: 'all-reduce', bytes: bytes / g, group: interGroup, fabric });
  const seconds = reduceScatter.seconds + inter.seconds + allGather.seconds;
  const algBw = algBandwidth(bytes, seconds);
  const cost: CollectiveCost = {
    seconds,
    algorithm: 'hierarchical',
    protocol: placement.nodes > 1 ? inter.protocol : reduceScatter.protocol,
    algBandwidth: algBw,
    busBandwidth: algBw * busBandwidthFactor('all-reduce', placement.ranks),
  };
  return { cost, reducesInNetwork: placement.nodes > 1 && reducesInNetwork(inter.algorithm) };
}
