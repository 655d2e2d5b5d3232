import type { Fabric } from '../types.ts';

/** What a directed link joins. One physical cable or port is two links, one per direction. */
export const LINK_KINDS = [
  'nvlink-up', 'nvlink-down', 'pcie-up', 'pcie-down', 'host-nic', 'nic-host', 'nic-leaf', 'leaf-nic', 'leaf-spine', 'spine-leaf',
  'nvlink-peer',
] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/**
 * A machine as a graph the emulator runs flows on: per node, each GPU's NVLink port into the node's
 * NVSwitch domain (up and down) or, on a direct NVLink mesh (DGX-1), one link per ordered pair of
 * GPUs that NVLink joins (on a PCIe node, none: a mesh of no NVLink pairs); each GPU's PCIe path to the host complex, each NIC (one rail per NIC), its
 * cable to a leaf switch, and each leaf's trunk to the spine layer. Links are numbered
 * arithmetically (no maps), so routing is O(hops); attributes live in typed arrays.
 *
 * Layout: node n owns links [n·linksPerNode, (n+1)·linksPerNode): for g in GPUs nvlink-up,
 * nvlink-down, pcie-up, pcie-down (linksPerGpu = 4; on a mesh only pcie-up, pcie-down: 2), then for
 * r in NICs host-nic, nic-host, nic-leaf, leaf-nic (4 each), then on a mesh its nvlink-peer links
 * (peerSlot); then per leaf leaf-spine, spine-leaf.
 */
export interface TopologyGraph {
  readonly fabric: Fabric;
  readonly nodes: number;
  readonly gpusPerNode: number;
  readonly nicsPerNode: number;
  readonly railOptimised: boolean;
  readonly oversubscription: number;
  /** Ports of each leaf switch at the NICs' line rate (leafPortsAtNicRate of the fabric's leaf switch). */
  readonly leafPorts: number;
  /** Nodes whose NIC of one rail share a leaf switch (rail-optimised), or nodes per leaf otherwise. */
  readonly nodesPerLeaf: number;
  readonly leaves: number;
  readonly linksPerNode: number;
  /** Links per GPU at the start of a node's block: 4 behind an NVSwitch, 2 (PCIe only) on a mesh or a PCIe node. */
  readonly linksPerGpu: number;
  /**
   * On a direct NVLink mesh, peerSlot[a·gpusPerNode + b] is the index (within the node's block, after
   * its NICs) of the nvlink-peer link from local GPU a to b, or −1 where NVLink does not join them
   * (every pair of a PCIe node); null behind an NVSwitch.
   */
  readonly peerSlot: Int32Array | null;
  readonly linkCount: number;
  /** Bytes per second each way, as NCCL can drive it (see buildTopology for each kind's figure). */
  readonly linkBandwidth: Float64Array;
  /** Seconds of wire and switch latency per hop. */
  readonly linkLatency: Float64Array;
  /** Index into LINK_KINDS. */
  readonly linkKind: Uint8Array;
}

export const gpuNode = (t: TopologyGraph, gpu: number): number => Math.floor(gpu / t.gpusPerNode);
/** The NIC (rail) closest to a GPU: GPUs split evenly over the NICs of their node. */
export const railOfLocalGpu = (t: TopologyGraph, local: number): number =>
  Math.floor((local * t.nicsPerNode) / t.gpusPerNode);
/** The NIC (rail) closest to a GPU, by its global index. */
export const railOfGpu = (t: TopologyGraph, gpu: number): number => railOfLocalGpu(t, gpu - gpuNode(t, gpu) * t.gpusPerNode);

/**
 * Every NIC (rail) closest to a local GPU, in order: its own one, or, where a node has more NICs than GPUs, each NIC of
 * its share (a 4-GPU tray with 8 NICs: GPU l has NICs 2l and 2l + 1, on its own PCIe switch).
 */
export function railsOfLocalGpu(t: TopologyGraph, local: number): number[] {
  const first = railOfLocalGpu(t, local);
  const end = Math.max(first + 1, Math.floor(((local + 1) * t.nicsPerNode) / t.gpusPerNode));
  return Array.from({ length: end - first }, (_, i) => first + i);
}

/**
 * Where a local GPU stands among the GPUs that share its closest NIC (DGX-1, jean-zay: GPUs 2r and 2r + 1 share NIC r):
 * its index among them and their count; index 0 of 1 where every GPU has a NIC of its own.
 */
export function placeAtNic(t: TopologyGraph, local: number): { readonly index: number; readonly sharing: number } {
  const rail = railOfLocalGpu(t, local);
  // GPUs l with ⌊l·N/G⌋ = r: from ⌈r·G/N⌉ to ⌈(r+1)·G/N⌉ − 1.
  const from = Math.ceil((rail * t.gpusPerNode) / t.nicsPerNode);
  const to = Math.min(t.gpusPerNode, Math.ceil(((rail + 1) * t.gpusPerNode) / t.nicsPerNode));
  return { index: local - from, sharing: Math.max(1, to - from) };
}

function leafOf(t: TopologyGraph, node: number, rail: number): number {
  if (t.railOptimised) return rail * Math.ceil(t.nodes / t.nodesPerLeaf) + Math.floor(node / t.nodesPerLeaf);
  return Math.floor(node / t.nodesPerLeaf);
}

/** GPU link `offset` of a local GPU: 0 nvlink-up, 1 nvlink-down (NVSwitch only), 2 pcie-up, 3 pcie-down. */
const gpuLink = (t: TopologyGraph, node: number, local: number, offset: number): number =>
  node * t.linksPerNode + local * t.linksPerGpu + offset - (4 - t.linksPerGpu);
const nicLink = (t: TopologyGraph, node: number, rail: number, offset: number): number =>
  node * t.linksPerNode + t.gpusPerNode * t.linksPerGpu + rail * 4 + offset;
/** The first nvlink-peer link of a node's block (a mesh's). */
const peerBase = (t: TopologyGraph, node: number): number => node * t.linksPerNode + t.gpusPerNode * t.linksPerGpu + t.nicsPerNode * 4;
/** The host→NIC link of NIC `rail` of `node`. */
export const hostNicLink = (t: TopologyGraph, node: number, rail: number): number => nicLink(t, node, rail, 0);
const leafLink = (t: TopologyGraph, leaf: number, offset: number): number => t.nodes * t.linksPerNode + leaf * 2 + offset;

/**
 * The links a transfer from GPU `src` to GPU `dst` crosses, appended to `out` (returns its new
 * length). Inside a node: NVLink up, NVLink down; on a mesh the pair's own NVLink, or, where NVLink
 * does not join them, PCIe up and down through the host (NCCL's P2P over PCIe or host memory for a
 * `SYS` pair: src/transport/p2p.cc, shm.cc). Across nodes, on NIC `rail` at both ends (NCCL keeps
 * a channel on one rail, NCCL_CROSS_NIC=0): PCIe up, host→NIC, NIC→leaf, [leaf→spine→leaf],
 * leaf→NIC, NIC→host, PCIe down.
 */
export function routeInto(t: TopologyGraph, src: number, dst: number, rail: number, out: Int32Array, at = 0): number {
  const g = t.gpusPerNode;
  const sn = Math.floor(src / g);
  const dn = Math.floor(dst / g);
  const sl = src - sn * g;
  const dl = dst - dn * g;
  let i = at;
  if (sn === dn) {
    if (src === dst) return i;
    if (t.peerSlot) {
      const slot = t.peerSlot[sl * g + dl] as number;
      if (slot >= 0) {
        out[i++] = peerBase(t, sn) + slot;
      } else {
        out[i++] = gpuLink(t, sn, sl, 2);
        out[i++] = gpuLink(t, dn, dl, 3);
      }
      return i;
    }
    out[i++] = gpuLink(t, sn, sl, 0);
    out[i++] = gpuLink(t, dn, dl, 1);
    return i;
  }
  out[i++] = gpuLink(t, sn, sl, 2);
  out[i++] = nicLink(t, sn, rail, 0);
  out[i++] = nicLink(t, sn, rail, 2);
  const sLeaf = leafOf(t, sn, rail);
  const dLeaf = leafOf(t, dn, rail);
  if (sLeaf !== dLeaf) {
    out[i++] = leafLink(t, sLeaf, 0);
    out[i++] = leafLink(t, dLeaf, 1);
  }
  out[i++] = nicLink(t, dn, rail, 3);
  out[i++] = nicLink(t, dn, rail, 1);
  out[i++] = gpuLink(t, dn, dl, 3);
  return i;
}

/** The longest route: 8 links (PCIe, host→NIC, NIC→leaf, leaf→spine, and back down). */
export const MAX_ROUTE_LINKS = 8;

/** The summed wire latency of `path[at .. at + length)` (per-hop latency of a route). */
export function pathLatency(t: TopologyGraph, path: Int32Array, at: number, length: number): number {
  let seconds = 0;
  for (let i = at; i < at + length; i++) seconds += t.linkLatency[path[i] as number] as number;
  return seconds;
}

/**
 * The wire latency NCCL's network latency figures already hold: that of the shortest inter-node
 * route, NIC → leaf switch → NIC (its two cables). NCCL's hwLat[NET] (src/graph/tuning.cc) is a
 * measured per-hop figure that includes the wire, and the IB plugin adds no latency of its own
 * (p2p-seconds.ts); we take it as measured between two nodes under one leaf, the usual
 * nccl-tests set-up (an assumption: NCCL does not say). The emulator charges NCCL's figure less
 * this, plus each route's own wire latency, so a route through the spine costs its two extra cables.
 */
export function interNodeWireSeconds(t: TopologyGraph): number {
  if (t.nodes < 1 || t.nicsPerNode < 1) return 0;
  return (t.linkLatency[nicLink(t, 0, 0, 2)] as number) + (t.linkLatency[nicLink(t, 0, 0, 3)] as number);
}

/** A readable name for a link, e.g. `node 3 gpu 5 nvlink-up`, `leaf 2 leaf-spine`. */
export function linkName(t: TopologyGraph, link: number): string {
  const kind = LINK_KINDS[t.linkKind[link] ?? 0] ?? 'link';
  if (link >= t.nodes * t.linksPerNode) return `leaf ${Math.floor((link - t.nodes * t.linksPerNode) / 2)} ${kind}`;
  const node = Math.floor(link / t.linksPerNode);
  const within = link - node * t.linksPerNode;
  const gpuLinks = t.gpusPerNode * t.linksPerGpu;
  if (within < gpuLinks) return `node ${node} gpu ${Math.floor(within / t.linksPerGpu)} ${kind}`;
  if (within < gpuLinks + 4 * t.nicsPerNode) return `node ${node} nic ${Math.floor((within - gpuLinks) / 4)} ${kind}`;
  const slot = link - peerBase(t, node);
  const pair = t.peerSlot ? t.peerSlot.indexOf(slot) : -1;
  return `node ${node} gpu ${Math.floor(pair / t.gpusPerNode)}→gpu ${pair % t.gpusPerNode} ${kind}`;
}

function switchPort(t: TopologyGraph, gpu: number, offset: 0 | 1): number {
  if (t.peerSlot) throw new Error('a direct NVLink mesh or a PCIe node has no NVSwitch ports');
  return gpuLink(t, gpuNode(t, gpu), gpu - gpuNode(t, gpu) * t.gpusPerNode, offset);
}
/** GPU `gpu`'s NVLink port into its node's NVSwitch vertex (one switch vertex per node stands for the NVSwitch planes). */
export const nvlinkUpLink = (t: TopologyGraph, gpu: number): number => switchPort(t, gpu, 0);
/** The NVSwitch vertex's port down to GPU `gpu`. */
export const nvlinkDownLink = (t: TopologyGraph, gpu: number): number => switchPort(t, gpu, 1);
