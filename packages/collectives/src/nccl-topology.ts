import { toGBps } from '@trainplan/units';
import { gpusJoinedByNvlink, peerLinksOf } from './gpus-joined-by-nvlink.ts';
import { meshRingChannels } from './mesh-rings.ts';
import { channelsThatFit, dupChannels, FIT_TOLERANCE_GBPS, raiseAlongLadder, searchLadder, type NcclGraph } from './nccl-graph-search.ts';
import { NCCL_TABLES, type NcclHardware } from './nccl-tables.ts';
import { groupPlacement, type GroupPlacement } from './group-placement.ts';
import { groupHostPathGBps } from './host-path.ts';
import type { CommGroup, Fabric } from './types.ts';

/** Everything the tuner needs to know about one communicator: placement, path type and graphs. */
export interface NcclTopology {
  readonly placement: GroupPlacement;
  readonly fabric: Fabric;
  /** Intra-node path type: NVLink, or PCIe when the GPUs have no NVLink. */
  readonly intraHardware: Exclude<NcclHardware, 'net'>;
  /** NVLink (or PCIe) bandwidth one GPU can put into this group, in NCCL's per-link units. */
  readonly intraBandwidthPerGpuGBps: number;
  readonly ring: NcclGraph;
  /** The tree graph has the ring's channels (src/init.cc); only its bwIntra may be raised. */
  readonly tree: NcclGraph & { readonly pattern: 'balanced-tree' | 'tree' };
  /** Absent when NVLS is impossible (no NVLink SHARP, pre-Hopper, no NVSwitch — a PCIe node —, < 2 local ranks). */
  readonly nvls: NcclGraph | null;
}

const isHopperOrLater = (fabric: Fabric): boolean => fabric.generation === 'hopper' || fabric.generation === 'blackwell';

/**
 * NVLinks a GPU can drive into a ring of this group: all of them behind an NVSwitch; on a direct
 * mesh (DGX-1, a quad GH200's full mesh) one per ring channel NCCL's search fits along the links among
 * the group's GPUs (mesh-rings.ts: 6 on a full DGX-1, 4 for GPUs 0–3; on 4 GH200s all 18, 6 for a pair),
 * taken to be local GPUs 0 … ppn−1 as Megatron places a tensor-parallel group; 0 when those GPUs have no
 * NVLink ring, and on a PCIe node.
 */
function ringLinks(fabric: Fabric, ranksPerNode: number): number {
  if (!gpusJoinedByNvlink(fabric)) return 0;
  const peers = ranksPerNode > 1 ? peerLinksOf(fabric) : null;
  if (!peers) return fabric.nvlinkCount;
  return meshRingChannels(peers, fabric.gpusPerNode, Array.from({ length: ranksPerNode }, (_, i) => i));
}

/**
 * GPU-to-NVLink bandwidth as NCCL sees it: ring links × NCCL's per-link figure for the SM
 * generation (src/graph/topo.h; 12 × 20 = 240 on A100, 18 × 20.6 ≈ 371 on H100), not the line
 * rate; NCCL's figure for the GPU's PCIe x16 link when the GPUs have no NVLink (ring) between them (24 GB/s Gen4,
 * 48 Gen5: a ring of 2 channels × 12 or 2 × 24, the 24 and 48 GB/s all-reduce busbw NVIDIA charts for 8 PCIe GPUs).
 */
function intraBandwidthPerGpuGBps(fabric: Fabric, placement: GroupPlacement, links: number): number {
  if (links === 0) return NCCL_TABLES.pciBandwidthGBps.value[fabric.generation] * placement.nvlinkShare;
  return links * NCCL_TABLES.nvlinkBandwidthPerLinkGBps.value[fabric.generation] * placement.nvlinkShare;
}

/**
 * On a direct NVLink mesh (DGX-1, quad GH200; null behind an NVSwitch): how many channels at `speed` one GPU of the
 * group can send over NVLink, as NCCL's search counts them. NCCL merges a pair's NVLinks into one link of their summed
 * bandwidth (src/graph/topo.cc ncclTopoConnectNodes adds to an existing link's bw) and every channel takes its speed off
 * each link it crosses (src/graph/search.cc ncclTopoFollowPath), so a pair carries ⌊links × per-link GB/s ÷ speed⌋
 * channels, not a share of the GPU's summed links: a DGX-1 V100's GPU, with two doubled (40 GB/s) and two single (20)
 * NVLink peers, sends 2 + 2 + 1 + 1 = 6 channels at 15 GB/s and 3 + 3 + 1 + 1 = 8 at 12, where its 120 GB/s in all
 * would hold 8 at 15. The fewest over the group's GPUs (local GPUs 0 … ppn−1, as ringLinks takes them).
 */
function meshChannelSlots(fabric: Fabric, placement: GroupPlacement): ((speed: number) => number) | null {
  const peers = peerLinksOf(fabric);
  if (!peers) return null;
  const g = fabric.gpusPerNode;
  const perPairGBps = NCCL_TABLES.nvlinkBandwidthPerLinkGBps.value[fabric.generation] * placement.nvlinkShare;
  const ppn = placement.ranksPerNode;
  return (speed) => {
    let fewest = Number.POSITIVE_INFINITY;
    for (let a = 0; a < ppn; a++) {
      let slots = 0;
      for (let b = 0; b < ppn; b++) slots += channelsThatFit((peers[a * g + b] as number) * perPairGBps, speed);
      fewest = Math.min(fewest, slots);
    }
    return fewest;
  };
}

/**
 * NIC channels at `speed`: each channel enters and leaves a node through one NIC; a NIC of
 * `nicGBps` carries ⌊nicGBps / speed⌋ channels; a fractional NIC share carries what fits in it.
 */
function nicChannels(nics: number, nicGBps: number, speed: number): number {
  return nics >= 1 ? Math.floor(nics) * channelsThatFit(nicGBps, speed) : channelsThatFit(nics * nicGBps, speed);
}

/**
 * Memo of derived graphs: a fabric is immutable data, so the graphs of one (fabric, group) never
 * change. Keyed weakly on the fabric object, so nothing outlives the caller's fabric. The planner
 * asks for the same few groups many times per estimate and per search. Below the fabric, one
 * level per number (ranks, ranksPerNode, concurrent groups): no key string is built per call.
 */
type ByNumber<V> = Map<number, V>;
const memo = new WeakMap<Fabric, ByNumber<ByNumber<ByNumber<NcclTopology>>>>();

function child<V>(map: ByNumber<ByNumber<V>>, key: number): ByNumber<V> {
  let next = map.get(key);
  if (!next) map.set(key, (next = new Map()));
  return next;
}

/** Derives NCCL's ring, tree and NVLS graphs (src/graph/search.cc) for `group` on `fabric`. */
export function ncclTopology(fabric: Fabric, group: CommGroup): NcclTopology {
  let byRanks = memo.get(fabric);
  if (!byRanks) memo.set(fabric, (byRanks = new Map()));
  const byGroups = child(child(byRanks, group.ranks), group.ranksPerNode);
  const groups = group.concurrentGroupsPerNode ?? 1;
  let topology = byGroups.get(groups);
  if (!topology) byGroups.set(groups, (topology = deriveTopology(fabric, group)));
  return topology;
}

function deriveTopology(fabric: Fabric, group: CommGroup): NcclTopology {
  const placement = groupPlacement(group, fabric);
  const { nodes, ranksPerNode: ppn } = placement;
  const hopper = isHopperOrLater(fabric);
  const links = ringLinks(fabric, ppn);
  const intraGBps = intraBandwidthPerGpuGBps(fabric, placement, links);
  const nicGBps = toGBps(fabric.nicBandwidth);
  const ladders = NCCL_TABLES.speedLadderGBps.value;
  const ladder = nodes > 1 ? ladders.inter[fabric.generation] : ladders.intra[fabric.generation];
  // Traffic one GPU sends over NVLink per channel: ppn−1 of the ppn GPUs forward each channel in
  // a node (the last hands it to the NIC). On one node the ring closes, so every GPU forwards. Without NVLink
  // (a PCIe node, or GPUs with no NVLink ring) the last GPU hands the channel to the NIC over the same PCIe link
  // the others forward it on, so every GPU's link carries each channel once, as NCCL's search counts it: the
  // GPU→GPU and GPU→NET paths both take their speed off the GPU's PCIe link (src/graph/search.cc followPath).
  const nvlinkFraction = nodes > 1 && links > 0 ? (ppn - 1) / ppn : 1;
  const meshSlots = links > 0 ? meshChannelSlots(fabric, placement) : null;
  const intraFits = (speed: number, nChannels: number): boolean =>
    ppn === 1 || (meshSlots
      ? nChannels * nvlinkFraction <= meshSlots(speed) + FIT_TOLERANCE_GBPS
      : nChannels * speed * nvlinkFraction <= intraGBps + FIT_TOLERANCE_GBPS);
  const intraChannels = (speed: number): number =>
    ppn === 1 ? Number.POSITIVE_INFINITY
      : meshSlots ? Math.floor(meshSlots(speed) / nvlinkFraction + FIT_TOLERANCE_GBPS) : channelsThatFit(intraGBps, speed * nvlinkFraction);

  // Each channel leaves a node up one GPU's host link and enters down another's, so a node's GPUs carry at most
  // ppn × ⌊host / speed⌋ channels however many NICs sit behind them (host-path.ts groupHostPathGBps): two NDR NICs
  // behind one GH200 carry one 48 GB/s channel, or two at 30, within its 63 GB/s, not two at 48.
  const hostGBps = groupHostPathGBps(fabric, placement);
  const networkChannels = (speed: number): number =>
    Math.min(nicChannels(placement.nicsPerNode, nicGBps, speed), ppn * channelsThatFit(hostGBps, speed));
  const found = searchLadder(ladder, (speed) =>
    nodes > 1 ? Math.min(networkChannels(speed), intraChannels(speed)) : intraChannels(speed));
  const ringSearch = dupChannels(found, hopper);
  const ring: NcclGraph = { nChannels: ringSearch.nChannels, bwIntraGBps: ringSearch.speedGBps, bwInterGBps: ringSearch.speedGBps };

  // Pass 2 for trees: raise bwIntra while it is below 2 × bwInter and the intra-node chain fits.
  const treeBwIntra = raiseAlongLadder(ladder, ring.bwIntraGBps, (bw) => bw < 2 * ring.bwInterGBps,
    (bw) => intraFits(bw, ring.nChannels));
  const tree = {
    ...ring,
    bwIntraGBps: treeBwIntra,
    // search.cc: with one GPU per node a non-ring pattern becomes NCCL_TOPO_PATTERN_TREE.
    pattern: ppn === 1 ? 'tree' as const : 'balanced-tree' as const,
  };
  return {
    placement, fabric, ring, tree,
    intraHardware: links > 0 ? 'nvlink' : 'pci',
    intraBandwidthPerGpuGBps: intraGBps,
    nvls: nvlsGraph(fabric, placement, intraGBps, nicGBps, hostGBps, ladder),
  };
}

/**
 * The NVLS graph: one channel per local GPU (at most NCCL_MAX_NVLS_ARITY), all at one speed; the
 * head GPU of a channel carries it twice, so (nChannels + 1) × bwIntra must fit in a GPU's NVLink
 * (8 H100s: 9 × 40 ≤ 371). Pass 2 then raises bwInter while it is below 2 × bwIntra — on one node
 * nothing limits it below the top of the ladder (H100: 60), across nodes the head's NIC does.
 */
function nvlsGraph(
  fabric: Fabric, placement: GroupPlacement, intraGBps: number, nicGBps: number, hostGBps: number, ladder: readonly number[],
): NcclGraph | null {
  // NVLink SHARP reduces inside an NVSwitch: a mesh or a PCIe node has none, whatever its nvlinkSharp says.
  const supported = fabric.nvlinkSharp && isHopperOrLater(fabric) && fabric.intraNode === 'nvswitch' && gpusJoinedByNvlink(fabric);
  const nChannels = Math.min(placement.ranksPerNode, NCCL_TABLES.maxNvlsArity.value);
  if (!supported || nChannels < 2) return null;
  // A head's network traffic also crosses its own host link (host-path.ts groupHostPathGBps).
  const headNicGBps = placement.nodes === 1 ? Number.POSITIVE_INFINITY
    : Math.min(hostGBps, placement.nicsPerNode >= nChannels ? nicGBps : (nicGBps * placement.nicsPerNode) / nChannels);
  const bwIntraGBps = ladder.find((s) => (nChannels + 1) * s <= intraGBps + FIT_TOLERANCE_GBPS && s <= headNicGBps);
  if (bwIntraGBps === undefined) return null;
  const bwInterGBps = raiseAlongLadder(ladder, bwIntraGBps, (bw) => bw < 2 * bwIntraGBps, (bw) => bw <= headNicGBps);
  return { nChannels, bwIntraGBps, bwInterGBps };
}
