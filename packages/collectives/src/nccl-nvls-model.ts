import { byNodes, candidate, log2i, ringSteps, type NcclCandidate } from './nccl-candidate.ts';
import { NCCL_TABLES } from './nccl-tables.ts';
import type { NcclTopology } from './nccl-topology.ts';
import type { CollectiveOp } from './types.ts';
import { nvlsAcrossNodesUnavailable } from './nccl-collnet-model.ts';

/** Why NVLS / NVLSTree cannot run here, or null when it can (NVIDIA/nccl src/tuning/nvls.cc enable rules). */
export function nvlsUnavailable(topology: NcclTopology, op: CollectiveOp, algorithm: 'nvls' | 'nvls-tree'): string | null {
  const { fabric, nvls } = topology;
  const { nodes, ranksPerNode } = topology.placement;
  if (!fabric.nvlinkSharp) return 'NVLS needs NVLink SHARP in the NVSwitch (Hopper or later), which this GPU\'s fabric has not';
  if (!nvls) return 'NVLS needs a Hopper-or-later NVSwitch with at least 2 ranks of the group on it';
  if (algorithm === 'nvls-tree') {
    if (nodes === 1) return 'NVLSTree is off on a single node';
    if (op !== 'all-reduce') return 'NVLSTree only implements all-reduce';
    return null;
  }
  const acrossNodes = nodes > 1 ? nvlsAcrossNodesUnavailable(topology, op) : null;
  if (acrossNodes !== null) return acrossNodes;
  if (op !== 'all-reduce' && op !== 'all-gather' && op !== 'reduce-scatter') {
    return 'NVLS implements all-reduce, all-gather and reduce-scatter only';
  }
  if (op !== 'all-reduce' && ranksPerNode > NCCL_TABLES.maxNvlsArity.value) {
    return `NVLS all-gather/reduce-scatter supports at most ${NCCL_TABLES.maxNvlsArity.value} local ranks`;
  }
  return null;
}

/**
 * NCCL's NVLS / NVLSTree model, Simple protocol only (src/tuning/nvls.cc):
 *   bw = min(bwIntra·eff·(nCh−1)/nCh·(AR ? 2 : (ppn−1)/ppn), bwInter·(NVLSTree ∧ nNodes ≤ 2 ? 2 : 1),
 *            NVLSTree ? perChMaxNVLSTree : ∞) × nCh,  algbw = bw × nRanks/nsteps for all-reduce, bw otherwise;
 *   latency NVLS = intraLat (+ interLat across nodes), NVLSTree = intraLat + 2·log2(nNodes)·interLat.
 * In-switch reduction lets NVLS busbw exceed the NVLink wire rate (nccl-tests#212: ~480 vs 450).
 * Size-independent: built once per (topology, op), the tree correction tabulated by logSize.
 */
export function ncclNvlsModel(
  topology: NcclTopology, op: CollectiveOp, algorithm: 'nvls' | 'nvls-tree',
): NcclCandidate[] {
  const { nvls, fabric, intraHardware } = topology;
  if (!nvls || nvlsUnavailable(topology, op, algorithm) !== null) return [];
  const { ranks, nodes, ranksPerNode } = topology.placement;
  const gen = fabric.generation;
  const T = NCCL_TABLES;
  const isTree = algorithm === 'nvls-tree';
  const key = isTree ? 'nvlsTree' : 'nvls';
  let intraBw = (nvls.bwIntraGBps * T.nvlsEfficiency.value[gen] * (nvls.nChannels - 1)) / nvls.nChannels;
  intraBw *= op === 'all-reduce' ? 2 : (ranksPerNode - 1) / ranksPerNode;
  const interBw = nvls.bwInterGBps * (isTree && nodes <= 2 ? 2 : 1);
  const treeCap = isTree ? byNodes(T.perChannelMaxNvlsTreeGBps.value[gen], nodes) : Number.POSITIVE_INFINITY;
  const busBw = Math.min(intraBw, interBw, treeCap) * nvls.nChannels;
  // nvls.cc: `generalBandwidths = c == ncclFuncAllReduce ? bw·nRanks/nSteps : bw` — all-gather and reduce-scatter
  // keep the bus figure as their algorithm bandwidth (their (ppn−1)/ppn is already in intraBw).
  const algBandwidthGBps = op === 'all-reduce' ? (busBw * ranks) / ringSteps(op, ranks) : busBw;
  // nvls.cc applies the tree correction to NVLSTree on Blackwell x86 hosts only, for every
  // logSize = log2i(⌊bytes/64⌋) the table covers.
  const bySize = isTree && gen === 'blackwell'
    ? T.treeCorrectionFactor.value.Simple.map((factor) => algBandwidthGBps * factor) : [];
  const hw = T.hwLatencyUs.value;
  const intraLat = hw[intraHardware][key].Simple;
  const interLat = hw.net[key].Simple;
  const latencyUs = isTree
    ? T.baseLatencyUs.value.nvlsTree.Simple + intraLat + 2 * log2i(nodes) * interLat
    : intraLat + (nodes > 1 ? interLat : 0);
  return [candidate(algorithm, 'Simple', latencyUs, algBandwidthGBps, bySize)];
}
