import { byNodes, candidate, PROTOCOLS, ringSteps, type NcclCandidate } from './nccl-candidate.ts';
import { NCCL_TABLES } from './nccl-tables.ts';
import type { NcclTopology } from './nccl-topology.ts';
import type { CollectiveOp, Protocol } from './types.ts';

/**
 * NCCL's Ring model (NVIDIA/nccl src/tuning/ring.cc; collectives-reference §1) for every
 * protocol: bus bandwidth from the ring graph with the LL/LL128 caps, × nRanks/nsteps to
 * algorithm bandwidth; latency base + per-step intra/inter latencies; the multi-node
 * Ring/Simple all-reduce "plateau" (× 1.4) once bytes/(nCh·nRanks) ≥ 64. Size-independent: built
 * once per (topology, op); the plateau's latency is precomputed and chosen per size.
 */
export function ncclRingModel(topology: NcclTopology, op: CollectiveOp): NcclCandidate[] {
  const { ring, fabric, intraHardware } = topology;
  const { ranks, nodes } = topology.placement;
  const gen = fabric.generation;
  const T = NCCL_TABLES;
  const f = T.factors.value;
  const nsteps = ringSteps(op, ranks);
  // LL cap row: GPU generation on one node, CPU vendor across nodes (Intel assumed: row 0).
  const llMaxBw = byNodes(T.llMaxBandwidthGBps.value[nodes === 1 ? gen : 'volta'], nodes);
  const ll128Enabled = intraHardware === 'nvlink';
  const out: NcclCandidate[] = [];
  for (const protocol of PROTOCOLS) {
    if (protocol === 'LL128' && !ll128Enabled) continue;
    let busBw = (nodes <= 2 ? ring.bwIntraGBps : ring.bwInterGBps) * ring.nChannels;
    // Across nodes the LL cap is the host's (row by CPU vendor) and bounds the launch, not each channel.
    const uncappedBusBw = protocol === 'LL' && nodes > 1 ? busBw * f.ringLL : null;
    if (protocol === 'LL') busBw = Math.min(llMaxBw, busBw * f.ringLL);
    if (protocol === 'LL128') {
      busBw = Math.min(busBw * f.ringLL128, ring.nChannels * byNodes(T.perChannelMaxRingLL128GBps.value[gen], nodes));
    }
    const { baseUs, intraStepUs, interStepUs, interSteps } = ringLatencyParts(topology, op, protocol);
    const latencyUs = op === 'broadcast' || op === 'reduce'
      ? baseUs + intraStepUs // sameChannels assumed: one hop's latency
      : baseUs + (nsteps - interSteps) * intraStepUs + interSteps * interStepUs;
    // The plateau's size test, bytes / (nCh · nRanks) ≥ minBytesPerChannelPerRank, is applied by `candidateTimeUs`.
    const plateau = T.ringPlateau.value;
    const plateauFactor = gen === 'volta' ? plateau.factorBeforeAmpere : plateau.factor;
    const plateauLatency = protocol === 'Simple' && op === 'all-reduce' && nodes > 1
      ? { perBytes: ring.nChannels * ranks, latencyUs: latencyUs * plateauFactor } : null;
    const algBw = (busBw * ranks) / nsteps;
    out.push(candidate('ring', protocol, latencyUs, algBw, [], plateauLatency,
      uncappedBusBw === null ? algBw : (uncappedBusBw * ranks) / nsteps));
  }
  return out;
}

/**
 * The pieces of NCCL's ring latency for one protocol (src/tuning/ring.cc; collectives-reference
 * §1 "Latency"): the base, the per-step latency of an intra-node step (max(intraLat, netOvh)) and
 * of an inter-node step, and how many of the op's steps NCCL counts as inter-node. Broadcast and
 * reduce cost one hop in all (sameChannels assumed), returned as one step and no inter step: an
 * NVLink (or PCIe) hop on one node, a network hop across nodes (ring.cc's `hwLevel`).
 * The emulator applies the same per-step latencies to the steps it runs.
 */
export function ringLatencyParts(topology: NcclTopology, op: CollectiveOp, protocol: Protocol): {
  baseUs: number; intraStepUs: number; interStepUs: number; interSteps: number;
} {
  const { intraHardware } = topology;
  const { nodes, ranksPerNode } = topology.placement;
  const T = NCCL_TABLES;
  const hw = T.hwLatencyUs.value;
  const baseUs = T.baseLatencyUs.value.ring[protocol];
  if (op === 'broadcast' || op === 'reduce') {
    // ring.cc: `hwLevel = nNodes == 1 ? intraHw : NCCL_HW_NET` — across nodes the one hop is a network hop.
    return { baseUs, intraStepUs: hw[nodes === 1 ? intraHardware : 'net'].ring[protocol], interStepUs: 0, interSteps: 0 };
  }
  const netOverheadUs = nodes > 1
    ? T.netOverheadUs.value.intel * (protocol === 'Simple' ? T.netOverheadUs.value.simpleMultiplier : 1) : 0;
  const intraStepUs = Math.max(hw[intraHardware].ring[protocol], netOverheadUs);
  // With one GPU per node latencies are fully exposed: NCCL uses the Tree network latency.
  const interStepUs = nodes === 1 ? intraStepUs : hw.net[ranksPerNode === 1 ? 'tree' : 'ring'][protocol];
  const interSteps = nodes === 1 ? 0 : op === 'all-reduce' ? 2 * (nodes - 1) : nodes - 1;
  return { baseUs, intraStepUs, interStepUs, interSteps };
}
