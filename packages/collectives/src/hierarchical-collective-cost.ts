import { algBandwidth } from './alg-bandwidth.ts';
import { busBandwidthFactor } from './bus-bandwidth-factor.ts';
import { groupPlacement } from './group-placement.ts';
import type { CollectiveCost, CollectiveRequest } from './types.ts';

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
): CollectiveCost {
  const { fabric, bytes } = request;
  const placement = groupPlacement(request.group, fabric);
  const g = placement.ranksPerNode;
  const intraGroup = { ranks: g, ranksPerNode: g, concurrentGroupsPerNode: placement.concurrentGroupsPerNode };
  const reduceScatter = costOf({ op: 'reduce-scatter', bytes, group: intraGroup, fabric });
  const allGather = costOf({ op: 'all-gather', bytes, group: intraGroup, fabric });
  const inter = costOf({
    op: 'all-reduce',
    bytes: bytes / g,
    group: { ranks: placement.nodes, ranksPerNode: 1, concurrentGroupsPerNode: g * placement.concurrentGroupsPerNode },
    fabric,
  });
  const seconds = reduceScatter.seconds + inter.seconds + allGather.seconds;
  const algBw = algBandwidth(bytes, seconds);
  return {
    seconds,
    algorithm: 'hierarchical',
    protocol: placement.nodes > 1 ? inter.protocol : reduceScatter.protocol,
    algBandwidth: algBw,
    busBandwidth: algBw * busBandwidthFactor('all-reduce', placement.ranks),
  };
}
