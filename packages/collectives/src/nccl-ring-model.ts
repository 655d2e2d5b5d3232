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
    // Broadcast and reduce: the tuner charges one hop (sameChannels assumed), a network hop across nodes
    // (tuning.cc: `lat = hwLat[hw[a]][a][p]`, hw = nNodes == 1 ? intraHw : NET; `latencies += lat`). That is the
    // tuner's figure, kept verbatim because it decides the protocol; the chain's hops are charged when the choice
    // is run (ringChainLatencyUs, nccl-runtime-model.ts).
    const latencyUs = op === 'broadcast' || op === 'reduce'
      ? baseUs + NCCL_TABLES.hwLatencyUs.value[nodes === 1 ? topology.intraHardware : 'net'].ring[protocol]
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
 * of an inter-node step, and how many of the op's steps NCCL counts as inter-node. For broadcast and
 * reduce the steps are the chain's (ringChainLatencyUs): the tuner itself charges them one hop
 * (ncclRingModel), but a pipelined chain's first byte crosses every one of them.
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
  const netOverheadUs = nodes > 1
    ? T.netOverheadUs.value.intel * (protocol === 'Simple' ? T.netOverheadUs.value.simpleMultiplier : 1) : 0;
  const intraStepUs = Math.max(hw[intraHardware].ring[protocol], netOverheadUs);
  // With one GPU per node latencies are fully exposed: NCCL uses the Tree network latency.
  const interStepUs = nodes === 1 ? intraStepUs : hw.net[ranksPerNode === 1 ? 'tree' : 'ring'][protocol];
  const interSteps = nodes === 1 ? 0
    : op === 'all-reduce' ? 2 * (nodes - 1)
    : op === 'broadcast' || op === 'reduce' ? chainInterNodeHops(nodes, ranksPerNode, topology.ring.nChannels)
    : nodes - 1;
  return { baseUs, intraStepUs, interStepUs, interSteps };
}

/**
 * The inter-node hops of the slowest channel's broadcast or reduce chain: a channel's ring runs node by
 * node from its entry GPU, and the chain runs along it from the root (rank 0) to the rank before it. Where
 * the root is its node's entry GPU the chain crosses nNodes − 1 node boundaries; where it is not, the chain
 * leaves the root's node part-way, comes back into it at the end, and crosses nNodes. Channels enter each node
 * at different GPUs (ring-program.ts ringChannels; NCCL's search rotates them over the NICs), so with several
 * channels and GPUs per node some channel's chain crosses nNodes: NCCL's own count for these ops,
 * `nInterSteps = nNodes` (src/graph/tuning.cc ncclTopoTuneModel).
 */
function chainInterNodeHops(nodes: number, ranksPerNode: number, nChannels: number): number {
  if (nodes <= 1) return 0;
  return ranksPerNode > 1 && nChannels > 1 ? nodes : nodes - 1;
}

/**
 * How long a ring broadcast or reduce takes to get its first byte through, in µs: NCCL runs it as a
 * pipelined chain from the root (src/device/broadcast.h, reduce.h: each rank receives a chunk, then
 * forwards it), so the first chunk crosses all nRanks − 1 hops, each at NCCL's per-step ring latency
 * for its kind (ringLatencyParts): base + (nRanks − 1 − inter)·intraStep + inter·interStep. The
 * tuner's one hop (ncclRingModel) ignores this — its figure only has to rank the protocols — so it is
 * charged when the choice is run (ncclRuntimeTimeUs): a broadcast over 1,024 ranks cannot take one
 * hop's 9.3 µs while an all-gather of the same 8 B takes 1.25 ms.
 */
export function ringChainLatencyUs(topology: NcclTopology, op: 'broadcast' | 'reduce', protocol: Protocol): number {
  const { baseUs, intraStepUs, interStepUs, interSteps } = ringLatencyParts(topology, op, protocol);
  const hops = topology.placement.ranks - 1;
  return baseUs + (hops - interSteps) * intraStepUs + interSteps * interStepUs;
}
