import type { Bytes } from '@trainplan/units';
import { byNodes, candidateAlgBandwidthGBps, candidateLatencyUs, ringSteps, type NcclCandidate } from './nccl-candidate.ts';
import { NCCL_RUNTIME_TABLES } from './nccl-runtime-tables.ts';
import { NCCL_TABLES } from './nccl-tables.ts';
import { ncclCandidatesFor } from './nccl-candidates.ts';
import { collnetDirectTimeUs, nvlsAcrossNodesTimeUs } from './nccl-collnet-model.ts';
import { ringChainLatencyUs } from './nccl-ring-model.ts';
import { ncclTopology, type NcclTopology } from './nccl-topology.ts';
import type { CollectiveOp } from './types.ts';
import { nvlsPipelineLatencyUs, nvlsPipelineStages, nvlsPipelineUs } from './nccl-nvls-pipeline.ts';

/**
 * How long NCCL's chosen (algorithm, protocol) really takes, in µs: the tuner's prediction
 * (`candidateTimeUs`) corrected for what NCCL does after selecting it (collectives-reference §1,
 * "After selection"). Mechanisms from NCCL's source, no fitted constant:
 *  - Ring and Tree launch only the channels and threads the message can fill
 *    (`launchedBandwidthShare`): below nChannels·nThreads·threshold bytes the bandwidth term
 *    scales with the channels actually used, so small messages are slower than predicted. A cap
 *    on the whole launch (the multi-node LL cap) still bounds it but is not itself scaled: one
 *    channel of LL across nodes runs at its own rate, not at 1/nChannels of the host's cap.
 *  - Single-node NVLS all-reduce is a three-stage pipeline over loops whose chunk NCCL shrinks
 *    for mid-size messages (`nvlsPipelineUs`); reduce-scatter and all-gather the same loops through two stages.
 *  - NVLSTree all-reduce runs the same loops through four stages, two over NVLink and two over
 *    the tree (`nvlsTreeAllReducePipelineUs`): it cannot beat the one-node NVLS pipeline it contains.
 *    The tree stages run at what the heads' NICs carry, not at the tuner's NVLink term, which the
 *    multi-node NVLS graph holds at the NIC speed (`nvlsTreeNetworkAlgGBps`).
 *  - NVLS all-reduce across nodes (SHARP, CollNet opted in) sends each byte through a NIC once each way, where the
 *    tuner charges the NICs as a ring's (`nvlsAcrossNodesTimeUs`); CollNetDirect's scatter to the heads and broadcast
 *    back cannot move faster than NVLink carries them (`collnetDirectTimeUs`).
 *  - Ring broadcast and reduce pay their chain's hops, not the tuner's one (`ncclRuntimeLatencyUs`).
 * Other choices (PAT, direct) keep the tuner's time.
 */
export function ncclRuntimeTimeUs(
  topology: NcclTopology, op: CollectiveOp, c: NcclCandidate, bytes: Bytes, index: number,
): number {
  const latencyUs = ncclRuntimeLatencyUs(topology, op, c, bytes);
  const algBandwidthGBps = candidateAlgBandwidthGBps(c, index);
  const nvlsStages = oneNodeNvlsStages(topology, op, c);
  if (nvlsStages !== undefined) return nvlsPipelineUs(topology, bytes, algBandwidthGBps, nvlsStages);
  if (c.algorithm === 'nvls' && topology.placement.nodes > 1) return nvlsAcrossNodesTimeUs(topology, bytes, latencyUs, ncclCandidatesFor);
  if (c.algorithm === 'collnet-direct') return collnetDirectTimeUs(topology, bytes, latencyUs, algBandwidthGBps);
  if (c.algorithm === 'nvls-tree' && topology.nvls && NCCL_RUNTIME_TABLES.nvlsChannels.value[topology.fabric.generation] > 0) {
    // Not the tuner's rate: its tree correction stands in for the mid-size fill this pipeline costs, and its NVLink
    // term for the NVLink stages this pipeline costs at the one-node rate (nvlsTreeNetworkAlgGBps).
    return nvlsTreeAllReducePipelineUs(topology, bytes, latencyUs);
  }
  if (c.algorithm === 'ring' || c.algorithm === 'tree') {
    const graph = c.algorithm === 'ring' ? topology.ring : topology.tree;
    const share = launchedBandwidthShare(c, graph.nChannels, topology.placement.ranks, bytes);
    if (share >= 1) return latencyUs + bytes / (1000 * algBandwidthGBps);
    // The channels launched run at their share of the uncapped rate (size correction applied), under the cap of
    // the whole launch; where no launch-wide cap binds this is the capped rate × share.
    const correction = algBandwidthGBps / c.algBandwidthGBps;
    const launchedGBps = Math.min(algBandwidthGBps, c.uncappedAlgBandwidthGBps * correction * share);
    return latencyUs + bytes / (1000 * launchedGBps);
  }
  return latencyUs + bytes / (1000 * algBandwidthGBps);
}

/**
 * The stages of the one-node NVLS pipeline NCCL runs this choice as (`nvlsPipelineUs`, on Hopper and later), or undefined
 * where it runs none.
 */
function oneNodeNvlsStages(topology: NcclTopology, op: CollectiveOp, c: NcclCandidate): number | undefined {
  const runs = c.algorithm === 'nvls' && topology.placement.nodes === 1 && topology.nvls !== null
    && NCCL_RUNTIME_TABLES.nvlsChannels.value[topology.fabric.generation] > 0;
  return runs ? nvlsPipelineStages(op) : undefined;
}

/**
 * The latency part of `ncclRuntimeTimeUs` (the emulator waits it out, then streams the rest as bandwidth): the tuner's
 * (`candidateLatencyUs`, plateau included), except for ring broadcast and reduce, whose pipelined chain's first chunk
 * crosses all nRanks − 1 hops (`ringChainLatencyUs`) where the tuner charges one, and one-node NVLS all-reduce,
 * reduce-scatter and all-gather, whose pipelines replace the tuner's lumped latency with their own empty-message time
 * (`nvlsPipelineLatencyUs`: the tuner's 25 µs on 8 × H100 is more than an all-reduce's whole 18.6 µs run of 8 B, and the
 * emulator waited it out, QA: +34% at 8 B–32 KiB). NVLSTree all-reduce adds its pipeline fill to the tuner's latency in `ncclRuntimeTimeUs`.
 */
export function ncclRuntimeLatencyUs(topology: NcclTopology, op: CollectiveOp, c: NcclCandidate, bytes: Bytes): number {
  if (c.algorithm === 'ring' && (op === 'broadcast' || op === 'reduce')) return ringChainLatencyUs(topology, op, c.protocol);
  const nvlsStages = oneNodeNvlsStages(topology, op, c);
  if (nvlsStages !== undefined) return nvlsPipelineLatencyUs(nvlsStages);
  return candidateLatencyUs(c, bytes);
}

/**
 * The fraction of the graph's bandwidth NCCL launches for `bytes` (src/enqueue.cc
 * topoGetAlgoInfo): `while (nBytes < nc·nt·threshold) { if (nc ≥ 2) nc--; else if (nt % 128 == 0)
 * nt /= 2; else break; }`, threshold ×nRanks for Ring/LL. Each channel is one CTA moving its
 * share of the data, so bandwidth scales with nc·nt / (nChannels·maxThreads). Solved in closed
 * form: nc is the largest count with nc·nt·threshold ≤ bytes (at least 1).
 */
export function launchedBandwidthShare(c: NcclCandidate, nChannels: number, ranks: number, bytes: Bytes): number {
  const R = NCCL_RUNTIME_TABLES;
  const maxThreads = R.maxThreads.value[c.protocol];
  const threshold = R.threadThresholdBytes.value[c.protocol] * (c.protocol === 'LL' && c.algorithm === 'ring' ? ranks : 1);
  const perChannelBytes = maxThreads * threshold;
  if (bytes >= nChannels * perChannelBytes) return 1;
  const nc = Math.max(1, Math.floor(bytes / perChannelBytes));
  let nt = maxThreads;
  if (nc === 1) {
    while (bytes < nt * threshold && nt % R.threadHalvingMultiple.value === 0) nt /= 2;
  }
  return (nc * nt) / (nChannels * maxThreads);
}

/** NVLSTree chunk bytes for a message on `nodes` nodes (src/enqueue.cc calcCollChunking, NCCL_ALGO_NVLS_TREE). */
export function nvlsTreeChunkBytes(bytes: Bytes, concurrentOps: number, nodes: number): number {
  const { maxChunkBytes, maxChunkBytesFromFourNodes, cuts } = NCCL_RUNTIME_TABLES.nvlsTreeChunking.value;
  let chunk: number = nodes >= 4 ? maxChunkBytesFromFourNodes : maxChunkBytes;
  for (const cut of cuts) {
    if (bytes < cut.factor * concurrentOps * chunk && chunk > cut.bytes) chunk = cut.bytes;
  }
  return chunk;
}

/**
 * Multi-node NVLSTree all-reduce as NCCL runs it (src/device/all_reduce.h): the loops of the one-node NVLS pipeline
 * (nvlsPipelineUs) through four stages instead of three. The stages are scatter into the switch, reduce and send
 * up the tree, receive down the tree and multicast, and gather. The tree's hops are in the tuner's latency
 * (base + intra + 2·log2(nodes)·inter). Each stage works a loop at its own rate. Scatter and gather run over NVLink at
 * the one-node NVLS rate `bi` (its asymptote for this node's ranks, as nvlsPipelineUs sets it). The two tree
 * stages run at the network's rate `bn` (nvlsTreeNetworkAlgGBps). The first loop passes every stage; later ones follow
 * the slowest stage:
 *   t = latency + 2·(o + m/bi) + 2·(o + m/bn) + (max(1, S/L) − 1) · (o + m/min(bi, bn)),  m = min(S, L).
 * Costing all four stages at the slowest rate (as before 2026-11-28) charged a one-loop message four passes of the
 * network: 2.5× ring's time at 16 MiB on two B200 nodes.
 */
function nvlsTreeAllReducePipelineUs(topology: NcclTopology, bytes: Bytes, latencyUs: number): number {
  const R = NCCL_RUNTIME_TABLES;
  const nHeads = topology.nvls?.nChannels ?? 1;
  const concurrentOps = R.nvlsChannels.value[topology.fabric.generation] * nHeads;
  const loopOverheadUs = NCCL_TABLES.hwLatencyUs.value.nvlink.ring.Simple;
  const { nodes } = topology.placement;
  const maxLoopBytes = concurrentOps * nvlsTreeChunkBytes(Number.POSITIVE_INFINITY, concurrentOps, nodes);
  const netUsPerByte = Math.max(1 / (1000 * nvlsTreeNetworkAlgGBps(topology)) - loopOverheadUs / maxLoopBytes, 0);
  const intraUsPerByte = oneNodeNvlsUsPerByte(topology);
  const loopBytes = concurrentOps * nvlsTreeChunkBytes(bytes, concurrentOps, nodes);
  const loops = Math.max(1, bytes / loopBytes);
  const moved = Math.min(bytes, loopBytes);
  const intraStageUs = loopOverheadUs + moved * intraUsPerByte;
  const netStageUs = loopOverheadUs + moved * netUsPerByte;
  const treeStages = R.nvlsTreeAllReducePipelineStages.value - 2;
  return latencyUs + 2 * intraStageUs + treeStages * netStageUs + (loops - 1) * Math.max(intraStageUs, netStageUs);
}

/**
 * The algorithm bandwidth (GB/s) of NVLSTree's two tree stages. It is the tuner's NVLSTree bandwidth (src/tuning/nvls.cc,
 * collectives-reference §1) without its NVLink term, which the NVLink stages cost at the one-node rate, and with the
 * network term as the NICs carry it:
 *   min(nCh·bwInter / shares, perChMaxNVLSTree·nCh·nRanks/nSteps),
 * with `shares` from nvlsTreeNicSharesPerChannel (1 on two nodes, 2 beyond). The cap is NVIDIA's per-channel figure,
 * converted as the tuner converts it.
 *
 * The NVLink term is left out because the NVLS graph NCCL searches across nodes (src/graph/search.cc ncclTopoCompute,
 * NCCL_TOPO_PATTERN_NVLS with NICs) sets bwIntra = bwInter at a speed that fits the head's NIC in pass 1. Pass 2 raises
 * bwInter, and tries a higher bwIntra only beside a bwInter the NIC has already refused, so that search fails too. So
 * bwIntra never passes the NIC speed, whatever NVLink could carry. On Hopper NVLink binds first
 * (9 × 40 ≤ 371), so nothing changes. On Blackwell the node's own NVLS graph gets 80 while the 2-node graph keeps 48,
 * and the tuner's NVLink term (48·0.74·7/8·2·8 = 497 bus GB/s) caps two DGX B200 nodes at 492 GB/s busbw, where
 * CoreWeave measured 690 (nccl-tests, coreweave/nccl-tests#92). The NIC term is a tree's traffic: each head's NIC
 * moves its share once each way per tree pass. The tuner's bwInter·(nNodes ≤ 2 ? 2 : 1)·nCh, converted at
 * nRanks/nSteps, is nRanks/(nRanks − 1) above it.
 */
function nvlsTreeNetworkAlgGBps(topology: NcclTopology): number {
  const { nvls, fabric, placement } = topology;
  if (!nvls) return Number.POSITIVE_INFINITY;
  const { nodes, ranks } = placement;
  const shares = NCCL_RUNTIME_TABLES.nvlsTreeNicSharesPerChannel.value;
  const nicGBps = (nvls.nChannels * nvls.bwInterGBps) / (nodes <= 2 ? shares.twoNodes : shares.moreNodes);
  const capPerChannelGBps = byNodes(NCCL_TABLES.perChannelMaxNvlsTreeGBps.value[fabric.generation], nodes);
  const capGBps = (capPerChannelGBps * nvls.nChannels * ranks) / ringSteps('all-reduce', ranks);
  return Math.min(nicGBps, capGBps);
}

/**
 * The raw µs per byte of a one-node NVLS stage for this group's ranks on a node (nvlsPipelineUs's `b`):
 * its asymptote is the one-node NVLS all-reduce bandwidth; 0 when the loop overhead alone exceeds that.
 */
function oneNodeNvlsUsPerByte(topology: NcclTopology): number {
  let usPerByte = oneNodeRates.get(topology);
  if (usPerByte === undefined) oneNodeRates.set(topology, (usPerByte = deriveOneNodeNvlsUsPerByte(topology)));
  return usPerByte;
}

/** Memo of oneNodeNvlsUsPerByte per topology (immutable, itself memoised): estimates cost the same groups many times. */
const oneNodeRates = new WeakMap<NcclTopology, number>();

function deriveOneNodeNvlsUsPerByte(topology: NcclTopology): number {
  const { ranksPerNode, concurrentGroupsPerNode } = topology.placement;
  const oneNode = ncclTopology(topology.fabric, { ranks: ranksPerNode, ranksPerNode, concurrentGroupsPerNode });
  const nvls = ncclCandidatesFor(oneNode, 'all-reduce').find((c) => c.algorithm === 'nvls');
  if (!nvls || !oneNode.nvls) return 0;
  const R = NCCL_RUNTIME_TABLES;
  const concurrentOps = R.nvlsChannels.value[oneNode.fabric.generation] * oneNode.nvls.nChannels;
  const maxLoopBytes = concurrentOps * R.nvlsChunking.value.maxChunkBytes;
  return Math.max(1 / (1000 * nvls.algBandwidthGBps) - NCCL_TABLES.hwLatencyUs.value.nvlink.ring.Simple / maxLoopBytes, 0);
}
