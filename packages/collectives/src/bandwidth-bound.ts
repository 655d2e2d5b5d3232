import { formatBandwidth, GBps } from '@trainplan/units';
import { gpusJoinedByNvlink, nvlinksToPeers } from './gpus-joined-by-nvlink.ts';
import { ncclTopology, type NcclTopology } from './nccl-topology.ts';
import { PCIE_X16_GBPS } from './pcie-bandwidth.ts';
import { reducesInNetwork } from './reduces-in-network.ts';
import type { Algorithm, CollectiveCost, CollectiveOp, CommGroup, Fabric } from './types.ts';

/** The ops whose busbw the bound below covers (all-to-all has its own N/(N−1) bound; send/recv moves no reduction). */
export type BoundedOp = Extract<CollectiveOp, 'all-reduce' | 'all-gather' | 'reduce-scatter' | 'broadcast' | 'reduce'>;

const BOUNDED_OPS: ReadonlySet<string> = new Set<BoundedOp>(['all-reduce', 'all-gather', 'reduce-scatter', 'broadcast', 'reduce']);

/** The busbw no algorithm can pass, and which cut sets it (for the message of a cost that passes it). */
/**
 * What each node must move across its NICs, in the busbw of the whole group: a node is one "process" of N holding its
 * ranks' data, so Patarasuk & Yuan's 2(N−1)/N·S per process (all-reduce) — (N−1)/N·S in or out for all-gather and
 * reduce-scatter, S for broadcast and reduce into or out of a node without the root — crosses the node's NICs; busbw
 * counts the group's factor over n ranks, so it may reach B_nics × factor(n)/factor(N): 2 DGX-1s (n = 16) all-reduce
 * at up to (15/16)/(1/2) × 50 = 93.75 GB/s of busbw on 50 GB/s of NICs, as a hierarchical all-reduce does, reducing in
 * each node before it sends.
 */
function nodeCutRatio(op: BoundedOp, ranks: number, nodes: number): number {
  if (op === 'broadcast' || op === 'reduce') return 1;
  return ((ranks - 1) / ranks) / ((nodes - 1) / nodes);
}

/** A group's NICs per node, whole or (shared with sibling groups) a fraction. */
const nicCountText = (nics: number): string => (Number.isInteger(nics) ? String(nics) : nics.toFixed(2));

/** Which cut sets `bandwidthBound` and what its links are: the two cuts and the words for each. */
interface Cuts {
  readonly peerLinks: number;
  readonly nodeEgress: number;
  readonly nodeCut: number;
  readonly links: number;
  readonly joined: boolean;
}

function cutsOf(fabric: Fabric, op: BoundedOp, topology: NcclTopology): Cuts {
  const { placement } = topology;
  const m = placement.ranksPerNode;
  const links = m > 1 ? nvlinksToPeers(fabric, m - 1) : fabric.nvlinkCount;
  const joined = gpusJoinedByNvlink(fabric);
  const perGpu = joined ? links * fabric.nvlinkBandwidthPerLink : GBps(PCIE_X16_GBPS[fabric.generation]);
  const peerLinks = perGpu * placement.nvlinkShare;
  const nics = placement.nicsPerNode * fabric.nicBandwidth;
  // Every rank sends (or receives) factor × S bytes, and a node's ranks have only their peer links and the node's NICs
  // to do it on: busbw ≤ B_peer + B_nics/m. (A ring reaches only min(B_peer·m/(m−1), B_nics) of it, forwarding (m−1)/m
  // over NVLink and the rest through one NIC per channel; algorithms that reduce inside the node first move less.)
  return { peerLinks, nodeEgress: peerLinks + nics / m, nodeCut: nics * nodeCutRatio(op, placement.ranks, placement.nodes), links, joined };
}

/** The bound's busbw: the peer links on one node, across nodes the tighter cut (a plain number: every answer checks it). */
function bandwidthBound(fabric: Fabric, op: BoundedOp, topology: NcclTopology): number {
  if (topology.placement.nodes === 1) return cutsOf(fabric, op, topology).peerLinks;
  const { nodeEgress, nodeCut } = cutsOf(fabric, op, topology);
  return Math.min(nodeCut, nodeEgress);
}

/** Which cut sets the bound, in words, for the message of a cost that passes it. */
function boundCutText(fabric: Fabric, op: BoundedOp, topology: NcclTopology): string {
  const { placement } = topology;
  const { nodeEgress, nodeCut, links, joined } = cutsOf(fabric, op, topology);
  const peer = joined ? `${links} NVLinks × ${formatBandwidth(fabric.nvlinkBandwidthPerLink)}` : 'its PCIe x16 link';
  if (placement.nodes === 1) return `one node: each GPU's ${peer}`;
  const nicText = `${nicCountText(placement.nicsPerNode)} NIC${placement.nicsPerNode === 1 ? '' : 's'} × ${formatBandwidth(fabric.nicBandwidth)}`;
  return nodeCut <= nodeEgress
    ? `the node cut: what each of ${placement.nodes} nodes must send across its ${nicText}`
    : `each node's egress per rank: ${peer} plus 1/${placement.ranksPerNode} of its ${nicText}`;
}

/**
 * The busbw no algorithm that reduces in the GPUs can pass (Patarasuk & Yuan, JPDC 69(2), 2009: every all-reduce
 * process sends at least 2(p−1)/p·S bytes, t ≥ 2(p−1)/p·S/B, i.e. busbw ≤ B; all-gather, reduce-scatter, broadcast and
 * reduce likewise move factor × S into or out of every rank). On one node B is the GPU's NVLink line rate (on a full
 * mesh, a quad GH200, only the links to the group's other GPUs: 6 × 25 = 150 GB/s for a pair, 450 for all four; on a
 * PCIe node its PCIe x16 line rate: 31.5 GB/s Gen4, 63 Gen5, every byte between its GPUs crossing it). Across nodes
 * it is the tighter of two cuts (collectives-reference §3: per-node busbw ≤ min(B_intra, #NIC·B_NIC) for a ring):
 * each node's egress shared by its m ranks, B_peer + B_nics/m, and the node cut, B_nics × factor(n)/factor(N)
 * (nodeCutRatio). `nicsPerNode` is the NICs this group owns per node (group-placement.ts).
 */
export function busBandwidthLimit(fabric: Fabric, group: CommGroup, op: BoundedOp, topology: NcclTopology = ncclTopology(fabric, group)): number {
  return bandwidthBound(fabric, op, topology);
}

/**
 * Where NCCL's own costing may pass that limit (collectives-reference §2; nccl-tests#196, #212): an algorithm that
 * reduces in the network (reducesInNetwork), and on exactly 2 nodes Tree, which NCCL costs on bwIntra, which its search
 * raises to up to 2 × bwInter.
 */
export function mayExceedWireRate(algorithm: Algorithm, group: CommGroup): boolean {
  const nodes = group.ranks / group.ranksPerNode;
  return reducesInNetwork(algorithm) || (algorithm === 'tree' && nodes === 2);
}

const isBounded = (op: CollectiveOp): op is BoundedOp => BOUNDED_OPS.has(op);

/**
 * The invariant, checked on every answer: no algorithm may beat the bandwidth lower bound.
 * A cost that does is a modelling error, thrown as a plain Error (never the RangeError of a request the machine
 * cannot run), so that callers report it as a bug, not as a bad --algorithm.
 */
export function assertWithinBandwidthBound(
  request: { readonly op: CollectiveOp; readonly fabric: Fabric; readonly group: CommGroup }, cost: CollectiveCost, topology?: NcclTopology,
): CollectiveCost {
  const { op, fabric, group } = request;
  if (!isBounded(op) || cost.busBandwidth === 0 || mayExceedWireRate(cost.algorithm, group)) return cost;
  const placed = topology ?? ncclTopology(fabric, group);
  const bound = bandwidthBound(fabric, op, placed);
  // 1e-9 relative: float rounding of the same quantity computed two ways, never a physical margin.
  if (cost.busBandwidth > bound * (1 + 1e-9)) {
    throw new Error(`the collective cost model passed its own bandwidth bound: ${op} ${cost.algorithm}/${cost.protocol} on ${group.ranks} ranks `
      + `costs ${formatBandwidth(cost.busBandwidth, 6)} of busbw, over the ${formatBandwidth(bound, 6)} no algorithm can reach here (${boundCutText(fabric, op, placed)})`);
  }
  return cost;
}
