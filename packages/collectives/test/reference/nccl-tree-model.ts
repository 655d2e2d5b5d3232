// PRE-OPTIMISATION REFERENCE — verbatim snapshot of src/nccl-tree-model.ts at commit 8660b11, before the
// collectiveCost speed-up (size-independent candidates memoised per topology and op, numeric
// topology memo key). Used only by test/equivalence.test.ts, to prove the optimised
// `collectiveCost` / `ncclCandidates` give identical results. Only the import paths of modules
// not snapshotted here were rewritten (to ../../src/). Do not edit.
import type { Bytes } from '@trainplan/units';
import { byNodes, log2i, PROTOCOLS, type NcclCandidate } from './nccl-candidate.ts';
import { NCCL_TABLES } from '../../src/nccl-tables.ts';
import type { NcclTopology } from './nccl-topology.ts';

/**
 * NCCL's Tree model, all-reduce only (collectives-reference §1; NVIDIA/nccl src/tuning/tree.cc).
 * Bus bandwidth: (nNodes ≤ 2 ? bwIntra : bwInter) × nCh — the reference's rule, which lets a
 * 2-node tree exceed the NIC rate (nccl-tests#196, #212); the snapshot's tree.cc takes
 * min(bwIntra, bwInter) instead. Then the .92 / per-channel caps, LL ÷3.8, LL128 × 7/9 (one
 * node) or 120/128, × .85 for the plain TREE pattern, × .5 to algorithm bandwidth, and the
 * size-dependent `treeCorrectionFactor`. Latency: base + 2((ppn−1)·intra + log2(nNodes)·inter).
 */
export function ncclTreeModel(topology: NcclTopology, bytes: Bytes): NcclCandidate[] {
  const { tree, fabric, intraHardware } = topology;
  const { nodes, ranksPerNode } = topology.placement;
  const gen = fabric.generation;
  const T = NCCL_TABLES;
  const f = T.factors.value;
  const llMaxBw = byNodes(T.llMaxBandwidthGBps.value[nodes === 1 ? gen : 'volta'], nodes);
  const logSize = log2i(Math.floor(bytes / 64));
  const out: NcclCandidate[] = [];
  for (const protocol of PROTOCOLS) {
    if (protocol === 'LL128' && intraHardware !== 'nvlink') continue;
    let busBw = (nodes <= 2 ? tree.bwIntraGBps : tree.bwInterGBps) * tree.nChannels;
    busBw = Math.min(busBw * f.treeCap, tree.nChannels * byNodes(T.perChannelMaxTreeGBps.value[gen], nodes));
    if (protocol === 'LL') busBw = Math.min(busBw * f.treeLL, llMaxBw);
    if (protocol === 'LL128') {
      busBw = Math.min(busBw * (nodes === 1 ? f.treeLL128OneNode : f.treeLL128MultiNode),
        tree.nChannels * byNodes(T.perChannelMaxTreeLL128GBps.value[gen], nodes));
    }
    if (tree.pattern === 'tree') busBw *= f.treePatternTree;
    let algBandwidthGBps = busBw * f.treeBusToAlg;
    if (logSize <= T.treeCorrectionMaxIndex.value) {
      algBandwidthGBps *= T.treeCorrectionFactor.value[protocol][logSize] ?? 1;
    }
    const hw = T.hwLatencyUs.value;
    const intraLat = hw[intraHardware].tree[protocol];
    const interLat = nodes === 1 ? intraLat : hw.net.tree[protocol];
    const latencyUs = T.baseLatencyUs.value.tree[protocol]
      + 2 * ((ranksPerNode - 1) * intraLat + log2i(nodes) * interLat);
    out.push({ algorithm: 'tree', protocol, latencyUs, algBandwidthGBps });
  }
  return out;
}
