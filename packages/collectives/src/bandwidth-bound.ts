import { GBps } from '@trainplan/units';
import { gpusJoinedByNvlink, nvlinksToPeers } from './gpus-joined-by-nvlink.ts';
import { ncclTopology, type NcclTopology } from './nccl-topology.ts';
import { PCIE_X16_GBPS } from './pcie-bandwidth.ts';
import type { Algorithm, CollectiveCost, CommGroup, Fabric } from './types.ts';

/**
 * The busbw no bandwidth-optimal algorithm can pass (Patarasuk & Yuan, JPDC 69(2), 2009: every
 * all-reduce sends at least 2(p−1)/p·S bytes per rank, t ≥ 2(p−1)/p·S/B, i.e. busbw ≤ B): B is the
 * GPU's NVLink line rate on one node (on a full mesh, a quad GH200, only the links to the group's other GPUs: 6 × 25 =
 * 150 GB/s for a pair, 450 for all four; on a PCIe node its PCIe x16 line rate: 31.5 GB/s Gen4, 63 Gen5, every byte
 * between its GPUs crossing it); across nodes the line rate of the NICs this group owns per
 * node, and NVLink too when several ranks share a node (collectives-reference §3: per-node
 * busbw ≤ min(B_intra, #NIC·B_NIC)). All-gather, reduce-scatter, broadcast and reduce share it.
 *
 * Across nodes, B_intra is NVLink × m/(m−1) for m ranks per node: of the traffic a node's ranks
 * forward, the share (m−1)/m crosses NVLink and the rest leaves through the NICs (the last rank of
 * each ring channel in a node hands it to a NIC: nccl-topology.ts, as NCCL's search.cc counts it).
 * On a DGX (m = 8) the NICs bind first either way; with few GPUs and many NICs per node (2 A100s,
 * 8 NDR NICs) NVLink alone would be a bound that a real ring passes.
 */
export function busBandwidthLimit(fabric: Fabric, group: CommGroup, topology: NcclTopology = ncclTopology(fabric, group)): number {
  const { placement } = topology;
  const m = placement.ranksPerNode;
  const links = m > 1 ? nvlinksToPeers(fabric, m - 1) : fabric.nvlinkCount;
  const perGpu = gpusJoinedByNvlink(fabric) ? links * fabric.nvlinkBandwidthPerLink : GBps(PCIE_X16_GBPS[fabric.generation]);
  const nvlink = perGpu * placement.nvlinkShare;
  if (placement.nodes === 1) return nvlink;
  const nics = placement.nicsPerNode * fabric.nicBandwidth;
  return m > 1 ? Math.min((nvlink * m) / (m - 1), nics) : nics;
}

/**
 * Where NCCL's own costing may pass that limit (collectives-reference §2; nccl-tests#196, #212): NVLS
 * reduces inside the NVSwitch (each GPU sends its data once: 480 GB/s busbw on an H100's 450 GB/s
 * wire), NVLSTree inherits it, and on exactly 2 nodes NCCL costs Tree on bwIntra, which its search
 * raises to up to 2 × bwInter.
 */
export function mayExceedWireRate(algorithm: Algorithm, group: CommGroup): boolean {
  const nodes = group.ranks / group.ranksPerNode;
  // CollNet reduces in the InfiniBand switches (SHARP): in-network like NVLS.
  return algorithm === 'nvls' || algorithm === 'nvls-tree' || algorithm.startsWith('collnet') || (algorithm === 'tree' && nodes === 2);
}

const BOUNDED_OPS: ReadonlySet<string> = new Set(['all-reduce', 'all-gather', 'reduce-scatter', 'broadcast', 'reduce']);

/**
 * The invariant, checked on every answer: no algorithm may beat the bandwidth lower bound.
 * A cost that does is a modelling error, thrown rather than returned.
 */
export function assertWithinBandwidthBound(
  request: { readonly op: string; readonly fabric: Fabric; readonly group: CommGroup }, cost: CollectiveCost, topology?: NcclTopology,
): CollectiveCost {
  if (!BOUNDED_OPS.has(request.op) || cost.busBandwidth === 0 || mayExceedWireRate(cost.algorithm, request.group)) return cost;
  const limit = busBandwidthLimit(request.fabric, request.group, topology);
  // 1e-9 relative: float rounding of the same quantity computed two ways, never a physical margin.
  if (cost.busBandwidth > limit * (1 + 1e-9)) {
    throw new Error(`internal: ${request.op} ${cost.algorithm}/${cost.protocol} busbw ${cost.busBandwidth} B/s over the ${limit} B/s per-rank bound`);
  }
  return cost;
}
