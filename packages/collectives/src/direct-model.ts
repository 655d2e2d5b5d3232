import { toGBps } from '@trainplan/units';
import { effectiveIntraBandwidthGBps, effectiveNicBandwidthGBps } from './effective-bandwidth.ts';
import { candidate, type NcclCandidate } from './nccl-candidate.ts';
import { NCCL_TABLES } from './nccl-tables.ts';
import type { NcclTopology } from './nccl-topology.ts';
import type { CollectiveOp } from './types.ts';

/**
 * All-to-all and send/recv are not in NCCL's tuner: NCCL runs them as grouped point-to-point
 * sends, all in flight at once (collectives-reference §7.4 "n−1 concurrent sends, NIC-bound").
 * Our model, per rank, with S the nccl-tests size:
 *   all-to-all: S·(n−ppn)/n bytes leave the node over the GPU's NIC share (a GPU cannot
 *     aggregate several NICs, nccl-tests#267), S·(ppn−1)/n go over NVLink, both at once;
 *     busbw on N nodes then tends to N/(N−1) × the per-GPU NIC rate (nccl-tests#130);
 *   send/recv: S to one peer, over NVLink on one node, the NIC share across nodes.
 * Latency: one NCCL Ring/Simple step (base + hop), plus the per-post network overhead
 * (src/tuning/ring.cc getNetOverhead) for every peer on another node.
 */
export function directModel(topology: NcclTopology, op: CollectiveOp): NcclCandidate[] {
  if (op !== 'all-to-all' && op !== 'send-recv') return [];
  const { fabric, intraHardware } = topology;
  const { ranks, nodes, ranksPerNode, nicsPerNode } = topology.placement;
  const T = NCCL_TABLES;
  const nicGBps = effectiveNicBandwidthGBps(toGBps(fabric.nicBandwidth), fabric.generation, nicsPerNode / ranksPerNode);
  const intraGBps = effectiveIntraBandwidthGBps(topology.intraBandwidthPerGpuGBps, fabric.generation);
  const hop = nodes > 1 ? T.hwLatencyUs.value.net.ring.Simple : T.hwLatencyUs.value[intraHardware].ring.Simple;
  let latencyUs = T.baseLatencyUs.value.ring.Simple + hop;
  let transferUsPerByte: number;
  if (op === 'send-recv') {
    transferUsPerByte = 1 / (1000 * (nodes > 1 ? nicGBps : intraGBps));
  } else {
    const interFraction = (ranks - ranksPerNode) / ranks;
    const intraFraction = (ranksPerNode - 1) / ranks;
    transferUsPerByte = Math.max(interFraction / (1000 * nicGBps), intraFraction / (1000 * intraGBps));
    latencyUs += (ranks - ranksPerNode) * T.netOverheadUs.value.intel;
  }
  // Expressed as latency + bytes / algbw, the form every candidate shares.
  const algBandwidthGBps = transferUsPerByte > 0 ? 1 / (1000 * transferUsPerByte) : Number.POSITIVE_INFINITY;
  return [candidate('direct', 'Simple', latencyUs, algBandwidthGBps)];
}
