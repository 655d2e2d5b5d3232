import { toGBps, type Bytes } from '@trainplan/units';
import { candidate, type NcclCandidate } from './nccl-candidate.ts';
import { groupHostPathGBps } from './host-path.ts';
import { FIT_TOLERANCE_GBPS, raiseAlongLadder, searchLadder, type NcclGraph } from './nccl-graph-search.ts';
import { NCCL_TABLES, type NcclConstant } from './nccl-tables.ts';
import { nvlsPipelineUs } from './nccl-nvls-pipeline.ts';
import { ncclTopology, type NcclTopology } from './nccl-topology.ts';
import type { CollectiveOp } from './types.ts';
import { NO_IN_NETWORK_REDUCTION } from './with-collnet.ts';

/**
 * CollNet's constants (same snapshot as `NCCL_TABLES`; src/tuning/collnet.cc, src/graph/tuning.cc in releases before the
 * split). Kept here, not in NCCL_TABLES: CollNet is opt-in, and the browser widget, which never enables it, builds
 * without this file. Its latencies are NCCL_TABLES' hwLatencyUs rows collnetDirect and collnetChain. Exported for
 * nccl-table-sources.ts, which cites each entry.
 */
export const NCCL_COLLNET_TABLES = {
  directHopperFactor: { // src/tuning/collnet.cc ncclTuningCollnetModelInit (`if (comm->minCompCap >= 90) busBw *= .85`)
    value: 0.85,
  },
  busToAlg: { value: 0.5 }, // src/tuning/collnet.cc (`generalBandwidths = busBw * 0.5` for all-reduce)
  arityLatencyUs: { value: 0.4 }, // src/tuning/collnet.cc ("Add 0.4 us arity serialization latency")
  /** NCCL_MAX_DIRECT_ARITY + 1: CollNet runs only with this many ranks per node at most (both Direct and Chain). */
  maxRanksPerNode: { // src/include/device.h NCCL_MAX_DIRECT_ARITY (7); src/tuning/collnet.cc ncclTuningCollnetModelSim
    value: 8,
  },
  /** NCCL_COLLNET_NODE_THRESHOLD: NCCL sets CollNet up only on this many nodes or more. */
  minNodes: { value: 2 }, // src/init.cc NCCL_PARAM(CollNetNodeThreshold, "COLLNET_NODE_THRESHOLD", 2)
} as const satisfies Record<string, NcclConstant<number>>;

/**
 * Why CollNet itself (the collective network: SHARP through NCCL's CollNet plugin) is not set up for this group, or null
 * when it is: the fabric must opt in (NCCL_COLLNET_ENABLE=1), its network reduce in its switches, and the group span
 * NCCL_COLLNET_NODE_THRESHOLD nodes. NVLS across nodes needs this too (nvlsAcrossNodesUnavailable).
 */
function collnetSetupUnavailable(topology: NcclTopology): string | null {
  const { fabric } = topology;
  if (fabric.collnet !== true) return 'CollNet is off, as NCCL leaves it by default (NCCL_COLLNET_ENABLE=0)';
  if (!fabric.inNetworkReduction) return NO_IN_NETWORK_REDUCTION;
  const minNodes = NCCL_COLLNET_TABLES.minNodes.value;
  if (topology.placement.nodes < minNodes) return `CollNet runs across ${minNodes} nodes or more (NCCL_COLLNET_NODE_THRESHOLD)`;
  return null;
}

/**
 * Why CollNetDirect or CollNetChain cannot run `op` on this topology, or null when it can (src/tuning/collnet.cc
 * ncclTuningCollnetModelInit/Sim): CollNet set up (collnetSetupUnavailable); all-reduce (NCCL also runs CollNetDirect
 * all-gather and reduce-scatter, but only where the plugin implements iallgather/ireducescatter, which this model does
 * not assume); at most NCCL_MAX_DIRECT_ARITY + 1 ranks per node; and, across nodes, no more ranks on a node than
 * CollNet heads (`localRanks > nHeads` is a hard disable): a head is a GPU with a NIC of its own.
 */
export function collnetUnavailable(topology: NcclTopology, op: CollectiveOp, algorithm: 'collnet-direct' | 'collnet-chain'): string | null {
  const setup = collnetSetupUnavailable(topology);
  if (setup !== null) return setup;
  const name = algorithm === 'collnet-direct' ? 'CollNetDirect' : 'CollNetChain';
  if (op !== 'all-reduce') return `${name} is modelled for all-reduce only`;
  const { ranksPerNode } = topology.placement;
  const most = NCCL_COLLNET_TABLES.maxRanksPerNode.value;
  if (ranksPerNode > most) return `CollNet runs with at most ${most} ranks per node (NCCL_MAX_DIRECT_ARITY + 1), this group has ${ranksPerNode}`;
  const heads = collnetHeads(topology);
  if (ranksPerNode > heads) {
    return `CollNet needs a NIC for each of the group's GPUs on a node (a head each): ${ranksPerNode} GPUs per node reach ${heads} NIC${heads === 1 ? '' : 's'}`;
  }
  return null;
}

/**
 * CollNet heads on a node: GPUs of the group with a NIC of their own. NCCL's CollNetDirect search takes one NIC:GPU pair
 * per channel and skips a GPU already a head (src/graph/search.cc ncclTopoSearchRecNet), so two NICs on one GPU (8 NDR
 * NICs on a 4-GPU GB200 tray) still make one head, and 8 GPUs sharing 4 NICs (DGX-1) make 4. A fractional NIC share
 * (concurrent groups on one NIC) is one head on that share.
 */
function collnetHeads(topology: NcclTopology): number {
  const { ranksPerNode, nicsPerNode } = topology.placement;
  return Math.min(ranksPerNode, Math.max(1, Math.floor(nicsPerNode + FIT_TOLERANCE_GBPS)));
}

/**
 * NCCL's CollNetDirect graph (src/graph/search.cc ncclTopoCompute, NCCL_TOPO_PATTERN_COLLNET_DIRECT): one channel per
 * head, at most min(NCCL_MAX_DIRECT_ARITY + 1, local GPUs); pass 1 takes the fastest speed of the inter-node ladder at
 * which a head's NIC carries its channel (bwInter) and NVLink carries what the pattern puts on it: every GPU sends a
 * head 1/(ppn − 1) of the head's bwIntra and the head as much back (ncclTopoSearchTryCollnetDirect), so the busiest
 * GPU moves bwIntra·(1 + (heads − 1)/(ppn − 1)) each way. ncclTopoDupChannels would double the channels up to that
 * same maximum, which the heads already fill whenever CollNet runs (collnetUnavailable: ranks per node ≤ heads), so
 * it changes nothing here. Pass 2 then raises bwIntra along the ladder while it is below 2 × bwInter and still fits
 * ("increase bwIntra for trees (2 nodes or collnet)"). With one GPU per node NCCL searches the pattern as a tree of
 * that GPU alone: one channel, no NVLink.
 */
export function collnetDirectGraph(topology: NcclTopology): NcclGraph {
  const { fabric, placement } = topology;
  const ppn = placement.ranksPerNode;
  const heads = collnetHeads(topology);
  const nicGBps = toGBps(fabric.nicBandwidth);
  // A head's NIC traffic crosses its own host link too (host-path.ts groupHostPathGBps).
  const headNicGBps = Math.min(groupHostPathGBps(fabric, placement), placement.nicsPerNode >= 1 ? nicGBps : placement.nicsPerNode * nicGBps);
  const nvlinkPerBwIntra = ppn === 1 ? 0 : 1 + (heads - 1) / (ppn - 1);
  const nvlinkFits = (bwIntra: number): boolean => bwIntra * nvlinkPerBwIntra <= topology.intraBandwidthPerGpuGBps + FIT_TOLERANCE_GBPS;
  const ladder = NCCL_TABLES.speedLadderGBps.value.inter[fabric.generation];
  const found = searchLadder(ladder, (speed) => (speed <= headNicGBps + FIT_TOLERANCE_GBPS && nvlinkFits(speed) ? heads : 0));
  const bwInter = found.speedGBps;
  const bwIntra = raiseAlongLadder(ladder, bwInter, (bw) => bw < 2 * bwInter, nvlinkFits);
  return { nChannels: found.nChannels, bwIntraGBps: bwIntra, bwInterGBps: bwInter };
}

/**
 * NCCL's CollNet model, all-reduce, Simple protocol only (src/tuning/collnet.cc ncclTuningCollnetModelInit; in releases
 * before the split, src/graph/tuning.cc ncclTopoTuneModel; collectives-reference §1). Bus bandwidth is nCh · bwIntra of
 * the algorithm's own graph (CollNet is costed on bwIntra however many nodes): CollNetDirect's graph above, CollNetChain's
 * the tree's (init.cc searches it as NCCL_TOPO_PATTERN_TREE with the ring's channel count, as the tree graph is).
 * CollNetDirect then divides by r − (r − 1)/2, r = ppn/nCh ("Collnet+Direct requires all GPUs to have a local NIC to
 * work at full speed": 1 whenever CollNet runs here, since every GPU of the group is a head, but kept as NCCL writes it),
 * and × .85 from Hopper on. Bus → algorithm bandwidth × 0.5. Latency (base 0):
 *   CollNetDirect  2·(min(1, ppn − 1)·intraLat + 0.4·(ppn − 1)) + interLat,
 *   CollNetChain   2·(ppn − 1)·intraLat + interLat,
 * with NCCL's hwLatencies collnetDirect / collnetChain rows (NVLink or PCI within the node, NET across it). The
 * network's own latency (graph latencyInter, which NCCL adds twice for Simple) is left out, as the ring and tree
 * models leave it. The reduction runs in the switches, so the busbw these give may pass the NICs' line rate, as
 * NVLS passes NVLink's (bandwidth-bound.ts mayExceedWireRate). Size-independent: built once per topology.
 */
export function ncclCollnetModel(topology: NcclTopology, op: CollectiveOp, algorithm: 'collnet-direct' | 'collnet-chain'): NcclCandidate[] {
  if (topology.fabric.collnet === true && !topology.fabric.inNetworkReduction) {
    // A fabric built by hand with CollNet on and no SHARP (withCollnet refuses to make one): said, not ignored.
    throw new RangeError(NO_IN_NETWORK_REDUCTION);
  }
  if (collnetUnavailable(topology, op, algorithm) !== null) return [];
  const C = NCCL_COLLNET_TABLES;
  const direct = algorithm === 'collnet-direct';
  const graph = direct ? collnetDirectGraph(topology) : topology.tree;
  const ppn = topology.placement.ranksPerNode;
  let busBw = graph.nChannels * graph.bwIntraGBps;
  if (direct) {
    const r = ppn / graph.nChannels;
    busBw /= r - (r - 1) / 2;
    if (topology.fabric.generation === 'hopper' || topology.fabric.generation === 'blackwell') busBw *= C.directHopperFactor.value;
  }
  const key = direct ? 'collnetDirect' : 'collnetChain';
  const hw = NCCL_TABLES.hwLatencyUs.value;
  const intraLat = hw[topology.intraHardware][key].Simple;
  const interLat = hw.net[key].Simple;
  const latencyUs = NCCL_TABLES.baseLatencyUs.value[key].Simple + (direct
    ? 2 * (Math.min(1, ppn - 1) * intraLat + (ppn - 1) * C.arityLatencyUs.value) + interLat
    : 2 * (ppn - 1) * intraLat + interLat);
  return [candidate(algorithm, 'Simple', latencyUs, busBw * C.busToAlg.value)];
}

/**
 * Why NVLS cannot run `op` across this group's nodes, or null when it can (NVIDIA/nccl src/tuning/nvls.cc: with
 * `collnetEnable == 0` multi-node NVLS is disabled, and ncclTuningNvlsModelSim refuses it without CollNet support): the
 * NVSwitch reduces each node's share, then CollNet (SHARP) reduces across the nodes, so CollNet must be set up
 * (collnetSetupUnavailable). All-reduce only: across nodes NCCL's NVLS all-gather and reduce-scatter also need the
 * CollNet plugin's iallgather / ireducescatter, which this model does not assume. NVLSTree needs none of this. Once
 * enabled, ncclNvlsModel costs it with nvls.cc's own formula, on the NVLS graph's per-head NIC rate (bwInter).
 */
export function nvlsAcrossNodesUnavailable(topology: NcclTopology, op: CollectiveOp): string | null {
  const setup = collnetSetupUnavailable(topology);
  if (setup !== null) return `NVLS across nodes needs CollNet (in-network reduction): ${setup}`;
  if (op !== 'all-reduce') return 'NVLS across nodes is modelled for all-reduce only (NCCL\'s all-gather and reduce-scatter there need the CollNet plugin\'s own)';
  return null;
}

/**
 * The tuner's candidates for an op on a topology (nccl-candidates.ts ncclCandidatesFor), passed in: nccl-candidates.ts
 * imports this module for CollNet's own candidates, so this module takes it from its caller rather than import it back.
 */
export type CandidatesFor = (topology: NcclTopology, op: CollectiveOp) => readonly NcclCandidate[];

/**
 * How long NVLS all-reduce across nodes really takes, in µs (nccl-runtime-model.ts calls it, with ncclCandidatesFor as
 * `candidatesFor`; only a CollNet fabric gets here). NCCL runs it as the one-node NVLS all-reduce around an in-network
 * one (src/device/all_reduce.h, NVLS with CollNet): each node's NVSwitch reduces its ranks' data into the heads' shares,
 * each head sends its share up through its own NIC to the SHARP switches and takes the reduced share back, and the
 * NVSwitch multicasts it. Each byte crosses a head's NIC once each way, so the network bounds the algorithm bandwidth
 * at heads × the head's NIC rate (nChannels × bwInter of the NVLS graph), where the tuner (ncclNvlsModel) charges that
 * rate as a ring's bus bandwidth, below what the NICs carry by the ring's 2(n − 1)/n (collectives.json,
 * nvidia-gtc24-s62129-dgx-h100-multinode-sharp: 480 GB/s measured on DGX H100 with SHARP against the tuner's 384). The
 * NVLink stages run as the one-node NVLS pipeline does (nvlsPipelineUs), so the time is the slower of the two
 * with the tuner's latency for the network leg.
 */
export function nvlsAcrossNodesTimeUs(topology: NcclTopology, bytes: Bytes, latencyUs: number, candidatesFor: CandidatesFor): number {
  const { nvls, placement } = topology;
  if (!nvls) return latencyUs;
  const { ranksPerNode, concurrentGroupsPerNode } = placement;
  const oneNode = ncclTopology(topology.fabric, { ranks: ranksPerNode, ranksPerNode, concurrentGroupsPerNode });
  const oneNodeNvls = candidatesFor(oneNode, 'all-reduce').find((c) => c.algorithm === 'nvls');
  const nvlinkUs = oneNodeNvls ? nvlsPipelineUs(oneNode, bytes, oneNodeNvls.algBandwidthGBps) : 0;
  return Math.max(nvlinkUs, latencyUs + bytes / (1000 * nvls.nChannels * nvls.bwInterGBps));
}

/**
 * How long CollNetDirect all-reduce really takes, in µs: the tuner's time (`algBandwidthGBps`, its latency), at most as
 * fast as NVLink carries the pattern. Each GPU sends the other ppn − 1 heads their shares of its data, (ppn − 1)/ppn of
 * it, and each head sends its reduced share back out to them (src/device/all_reduce.h runCollNetDirect: scatter, the
 * network's reduction, then the heads' broadcast), so a GPU's NVLink moves 2(ppn − 1)/ppn of the message each way; the
 * tuner's formula does not count it and on A100 asks more than NVLink carries (QA: 191.9 GB/s of algbw on 4 DGX A100, 336
 * GB/s each way of a GPU's NVLink against NCCL's 240).
 */
export function collnetDirectTimeUs(topology: NcclTopology, bytes: Bytes, latencyUs: number, algBandwidthGBps: number): number {
  const ppn = topology.placement.ranksPerNode;
  const nvlinkShare = ppn > 1 ? (2 * (ppn - 1)) / ppn : 0;
  const nvlinkBound = nvlinkShare > 0 ? topology.intraBandwidthPerGpuGBps / nvlinkShare : Number.POSITIVE_INFINITY;
  return latencyUs + bytes / (1000 * Math.min(algBandwidthGBps, nvlinkBound));
}
