import { toGBps } from '@trainplan/units';
import { effectiveIntraBandwidthGBps, effectiveNicBandwidthGBps } from './effective-bandwidth.ts';
import { peerLinksOf } from './gpus-joined-by-nvlink.ts';
import { allToAllUsPerByte } from './direct-all-to-all.ts';
import { hostPathGBps } from './host-path.ts';
import { candidate, type NcclCandidate } from './nccl-candidate.ts';
import { NCCL_TABLES } from './nccl-tables.ts';
import type { NcclTopology } from './nccl-topology.ts';
import type { CollectiveOp, Fabric } from './types.ts';

/**
 * Microseconds per byte of send/recv's slowest pair inside a node on a direct NVLink mesh or a PCIe node, or null
 * behind an NVSwitch, where every GPU drives all its links to any peer. nccl-tests' sendrecv_perf has local GPU a send
 * to a + 1 (on one node the last wraps to the first; across nodes it sends to the next node instead), each over the
 * one path that joins the pair: its NVLinks (links × NCCL's per-link figure), or through the host over PCIe where it
 * has none (hostPathGBps), as the all-to-all's pairs go (direct-all-to-all.ts). No two sends share a link: each GPU sends once and
 * receives once. DGX-1's hybrid cube-mesh joins GPU 0 to 1 by one link (20 GB/s) and GPUs 3 and 4, 7 and 0 by none
 * (PCIe Gen3, 15.75 GB/s), so a node's send/recv runs at 15.75, not at a GPU's six links (QA: 119.84 GB/s closed
 * form against 15.75 emulated). `share`: the placement's NVLink share, when groups overlap on a GPU.
 */
function meshSendRecvUsPerByte(fabric: Fabric, ppn: number, nodes: number, share: number): number | null {
  const g = fabric.gpusPerNode;
  const peers = peerLinksOf(fabric, g);
  if (!peers) return null;
  const perLinkGBps = NCCL_TABLES.nvlinkBandwidthPerLinkGBps.value[fabric.generation];
  const localSenders = nodes > 1 ? ppn - 1 : ppn;
  let slowestGBps = Number.POSITIVE_INFINITY;
  for (let a = 0; a < localSenders; a++) {
    const links = peers[a * g + ((a + 1) % ppn)] as number;
    slowestGBps = Math.min(slowestGBps, links > 0 ? links * perLinkGBps : hostPathGBps(fabric));
  }
  return Number.isFinite(slowestGBps) ? 1 / (1000 * slowestGBps * share) : 0;
}

/**
 * All-to-all and send/recv are not in NCCL's tuner: NCCL runs them as grouped point-to-point
 * sends, all in flight at once (collectives-reference §7.4 "n−1 concurrent sends, NIC-bound").
 * Our model, per rank, with S the nccl-tests size:
 *   all-to-all: S·(n−ppn)/n bytes leave the node over the GPU's NIC share (a GPU cannot
 *     aggregate several NICs, nccl-tests#267), S·(ppn−1)/n go over NVLink, both at once;
 *     busbw on N nodes then tends to N/(N−1) × the per-GPU NIC rate (nccl-tests#130);
 *   send/recv: S to one peer, over NVLink on one node, the NIC share across nodes.
 * On a direct NVLink mesh (DGX-1) the intra-node part goes pair by pair, and on a PCIe node all of it shares
 * each GPU's PCIe link with the inter-node part (direct-all-to-all.ts); send/recv there runs at its slowest
 * pair's path (meshSendRecvUsPerByte).
 * Latency: one NCCL Ring/Simple step (base + hop), plus the per-post network overhead
 * (src/tuning/ring.cc getNetOverhead) for every peer on another node.
 */
export function directModel(topology: NcclTopology, op: CollectiveOp): NcclCandidate[] {
  if (op !== 'all-to-all' && op !== 'send-recv') return [];
  const { fabric, intraHardware } = topology;
  const { ranks, nodes, ranksPerNode, nicsPerNode } = topology.placement;
  const T = NCCL_TABLES;
  const intraGBps = effectiveIntraBandwidthGBps(topology.intraBandwidthPerGpuGBps, fabric.generation);
  const hop = nodes > 1 ? T.hwLatencyUs.value.net.ring.Simple : T.hwLatencyUs.value[intraHardware].ring.Simple;
  let latencyUs = T.baseLatencyUs.value.ring.Simple + hop;
  let transferUsPerByte: number;
  if (op === 'send-recv') {
    // nccl-tests' sendrecv_perf: each rank sends to the next at once. Across nodes only a node's last rank's send leaves
    // it, alone on its NIC, while the others go over the node's own links (QA: the closed form gave every GPU its share of
    // a NIC, 12 GB/s on a 4-NIC PCIe node, where the emulator's sends, nccl-tests', reach 24).
    const crossUsPerByte = nodes > 1 ? 1 / (1000 * effectiveNicBandwidthGBps(toGBps(fabric.nicBandwidth), fabric.generation)) : 0;
    const intraUsPerByte = meshSendRecvUsPerByte(fabric, ranksPerNode, nodes, topology.placement.nvlinkShare)
      ?? (nodes === 1 || ranksPerNode > 1 ? 1 / (1000 * intraGBps) : 0);
    transferUsPerByte = Math.max(crossUsPerByte, intraUsPerByte);
  } else {
    const nicGBps = effectiveNicBandwidthGBps(toGBps(fabric.nicBandwidth), fabric.generation, nicsPerNode / ranksPerNode);
    transferUsPerByte = allToAllUsPerByte(topology, nicGBps, intraGBps);
    latencyUs += (ranks - ranksPerNode) * T.netOverheadUs.value.intel;
  }
  // Expressed as latency + bytes / algbw, the form every candidate shares.
  const algBandwidthGBps = transferUsPerByte > 0 ? 1 / (1000 * transferUsPerByte) : Number.POSITIVE_INFINITY;
  return [candidate('direct', 'Simple', latencyUs, algBandwidthGBps)];
}
