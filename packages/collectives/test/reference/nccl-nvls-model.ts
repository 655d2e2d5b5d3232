// PRE-OPTIMISATION REFERENCE — verbatim snapshot of src/nccl-nvls-model.ts at commit 8660b11, before the
// collectiveCost speed-up (size-independent candidates memoised per topology and op, numeric
// topology memo key). Used only by test/equivalence.test.ts, to prove the optimised
// `collectiveCost` / `ncclCandidates` give identical results. Only the import paths of modules
// not snapshotted here were rewritten (to ../../src/). Do not edit.
import type { Bytes } from '@trainplan/units';
import { byNodes, log2i, ringSteps, type NcclCandidate } from './nccl-candidate.ts';
import { NCCL_TABLES } from '../../src/nccl-tables.ts';
import type { NcclTopology } from './nccl-topology.ts';
import type { CollectiveOp } from '../../src/types.ts';

/** Why NVLS / NVLSTree cannot run here, or null when it can (NVIDIA/nccl src/tuning/nvls.cc enable rules). */
export function nvlsUnavailable(topology: NcclTopology, op: CollectiveOp, algorithm: 'nvls' | 'nvls-tree'): string | null {
  const { fabric, nvls } = topology;
  const { nodes, ranksPerNode } = topology.placement;
  if (!fabric.nvlinkSharp) return 'NVLS needs NVLink SHARP (fabric.nvlinkSharp is false)';
  if (!nvls) return 'NVLS needs a Hopper-or-later NVSwitch with at least 2 ranks of the group on it';
  if (algorithm === 'nvls-tree') {
    if (nodes === 1) return 'NVLSTree is off on a single node';
    if (op !== 'all-reduce') return 'NVLSTree only implements all-reduce';
    return null;
  }
  if (nodes > 1) return 'NVLS across nodes needs CollNet (in-network reduction), which this model leaves disabled';
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
 *            NVLSTree ? perChMaxNVLSTree : ∞) × nCh,  algbw = bw × nRanks/nsteps;
 *   latency NVLS = intraLat (+ interLat across nodes), NVLSTree = intraLat + 2·log2(nNodes)·interLat.
 * In-switch reduction lets NVLS busbw exceed the NVLink wire rate (nccl-tests#212: ~480 vs 450).
 */
export function ncclNvlsModel(
  topology: NcclTopology, op: CollectiveOp, algorithm: 'nvls' | 'nvls-tree', bytes: Bytes,
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
  let algBandwidthGBps = (busBw * ranks) / ringSteps(op, ranks);
  const logSize = log2i(Math.floor(bytes / 64));
  // nvls.cc applies the tree correction to NVLSTree on Blackwell x86 hosts only.
  if (isTree && gen === 'blackwell' && logSize < T.treeCorrectionFactor.value.Simple.length) {
    algBandwidthGBps *= T.treeCorrectionFactor.value.Simple[logSize] ?? 1;
  }
  const hw = T.hwLatencyUs.value;
  const intraLat = hw[intraHardware][key].Simple;
  const interLat = hw.net[key].Simple;
  const latencyUs = isTree
    ? T.baseLatencyUs.value.nvlsTree.Simple + intraLat + 2 * log2i(nodes) * interLat
    : intraLat + (nodes > 1 ? interLat : 0);
  return [{ algorithm, protocol: 'Simple', latencyUs, algBandwidthGBps }];
}
