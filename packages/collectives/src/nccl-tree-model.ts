import { byNodes, candidate, log2i, PROTOCOLS, type NcclCandidate } from './nccl-candidate.ts';
import { NCCL_TABLES } from './nccl-tables.ts';
import type { NcclTopology } from './nccl-topology.ts';

/**
 * NCCL's Tree model, all-reduce only (collectives-reference §1; NVIDIA/nccl src/tuning/tree.cc).
 * Bus bandwidth: (nNodes ≤ 2 ? bwIntra : bwInter) × nCh — the reference's rule, which lets a
 * 2-node tree exceed the NIC rate (nccl-tests#196, #212); the snapshot's tree.cc takes
 * min(bwIntra, bwInter) instead. Then the .92 / per-channel caps, LL ÷3.8, LL128 × 7/9 (one
 * node) or 120/128, × .85 for the plain TREE pattern, × .5 to algorithm bandwidth, and the
 * size-dependent `treeCorrectionFactor`. Latency: base + 2((ppn−1)·intra + log2(nNodes)·inter).
 * Size-independent: the corrected bandwidth of every `logSize` is tabulated once per topology.
 */
export function ncclTreeModel(topology: NcclTopology): NcclCandidate[] {
  const { tree, fabric, intraHardware } = topology;
  const { nodes, ranksPerNode } = topology.placement;
  const gen = fabric.generation;
  const T = NCCL_TABLES;
  const f = T.factors.value;
  const llMaxBw = byNodes(T.llMaxBandwidthGBps.value[nodes === 1 ? gen : 'volta'], nodes);
  const out: NcclCandidate[] = [];
  for (const protocol of PROTOCOLS) {
    if (protocol === 'LL128' && intraHardware !== 'nvlink') continue;
    let busBw = (nodes <= 2 ? tree.bwIntraGBps : tree.bwInterGBps) * tree.nChannels;
    busBw = Math.min(busBw * f.treeCap, tree.nChannels * byNodes(T.perChannelMaxTreeGBps.value[gen], nodes));
    // Across nodes the LL cap is the host's (row by CPU vendor) and bounds the launch, not each channel.
    let uncappedBusBw = protocol === 'LL' && nodes > 1 ? busBw * f.treeLL : busBw;
    if (protocol === 'LL') busBw = Math.min(busBw * f.treeLL, llMaxBw);
    if (protocol === 'LL128') {
      busBw = Math.min(busBw * (nodes === 1 ? f.treeLL128OneNode : f.treeLL128MultiNode),
        tree.nChannels * byNodes(T.perChannelMaxTreeLL128GBps.value[gen], nodes));
    }
    if (tree.pattern === 'tree') {
      busBw *= f.treePatternTree;
      uncappedBusBw *= f.treePatternTree;
    }
    const algBandwidthGBps = busBw * f.treeBusToAlg;
    const uncappedAlgBandwidthGBps = protocol === 'LL' && nodes > 1 ? uncappedBusBw * f.treeBusToAlg : algBandwidthGBps;
    // Corrected for logSize = log2i(⌊bytes/64⌋) ≤ treeCorrectionMaxIndex only.
    const bySize = T.treeCorrectionFactor.value[protocol].slice(0, T.treeCorrectionMaxIndex.value + 1)
      .map((factor) => algBandwidthGBps * factor);
    const hw = T.hwLatencyUs.value;
    const intraLat = hw[intraHardware].tree[protocol];
    const interLat = nodes === 1 ? intraLat : hw.net.tree[protocol];
    const latencyUs = T.baseLatencyUs.value.tree[protocol]
      + 2 * ((ranksPerNode - 1) * intraLat + log2i(nodes) * interLat);
    out.push(candidate('tree', protocol, latencyUs, algBandwidthGBps, bySize, null, uncappedAlgBandwidthGBps));
  }
  return out;
}
