import { candidate, log2i, type NcclCandidate } from './nccl-candidate.ts';
import { NCCL_TABLES } from './nccl-tables.ts';
import type { NcclTopology } from './nccl-topology.ts';
import type { CollectiveOp } from './types.ts';

/** Why PAT cannot run here, or null (NVIDIA/nccl src/tuning/pat.cc ncclPatEnable). */
export function patUnavailable(topology: NcclTopology, op: CollectiveOp): string | null {
  if (op !== 'all-gather' && op !== 'reduce-scatter') return 'PAT implements all-gather and reduce-scatter only';
  if (topology.placement.ranksPerNode !== 1) return 'PAT only supports 1 GPU per node: give gpusPerNode 1';
  if (topology.placement.nodes < 2) return 'PAT needs at least 2 nodes';
  return null;
}

/**
 * NCCL's PAT model (src/tuning/pat.cc), Simple only: bandwidth 0.75 × nCh × min(bwIntra, bwInter),
 * used directly as the algorithm bandwidth (no nRanks/nsteps conversion in the source);
 * latency 8 + log2(nNodes)·interLat/3.5 + 2.8·nRanks µs.
 */
export function ncclPatModel(topology: NcclTopology, op: CollectiveOp): NcclCandidate[] {
  if (patUnavailable(topology, op) !== null) return [];
  const { ring } = topology;
  const { ranks, nodes } = topology.placement;
  const T = NCCL_TABLES;
  const algBandwidthGBps = Math.min(ring.bwInterGBps, ring.bwIntraGBps) * ring.nChannels * T.factors.value.pat;
  const latencyUs = T.baseLatencyUs.value.pat.Simple
    + (log2i(nodes) * T.hwLatencyUs.value.net.pat.Simple) / T.pat.value.interLatencyDivisor
    + ranks * T.pat.value.perRankUs;
  return [candidate('pat', 'Simple', latencyUs, algBandwidthGBps)];
}
