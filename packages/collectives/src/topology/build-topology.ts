import { countOf, GBps, toGBps, us } from '@trainplan/units';
import { effectiveNicBandwidthGBps } from '../effective-bandwidth.ts';
import { gpusJoinedByNvlink, peerLinksOf } from '../gpus-joined-by-nvlink.ts';
import { NCCL_TABLES } from '../nccl-tables.ts';
import { leafPortsAtNicRate } from '../leaf-switch-ports.ts';
import { PCIE_X16_GBPS } from '../pcie-bandwidth.ts';
import type { Fabric } from '../types.ts';
import { LINK_KINDS, type LinkKind, type TopologyGraph } from './topology-graph.ts';

export interface TopologyOptions {
  readonly fabric: Fabric;
  /** Nodes (NVLink domains for an NVLink-only fabric such as GB200 NVL72). */
  readonly nodes: number;
  /** Leaf oversubscription: downlink ÷ uplink capacity (1, the default, is non-blocking). */
  readonly oversubscription?: number;
  /** Rail-optimised (the default, DGX SuperPOD): NIC r of every node goes to a leaf of rail r. */
  readonly railOptimised?: boolean;
  /** Override the nodes per leaf (default: as many as the leaf's down ports hold, `fabric.leafSwitch`'s ports split by R). */
  readonly nodesPerLeaf?: number;
}

/**
 * The topology graph of `nodes` nodes of `fabric` (collectives-reference §7.2). Bandwidths are what
 * NCCL drives, so that an uncontended emulation meets NCCL's own model:
 *   NVLink port: links × NCCL's per-link figure (src/graph/topo.h: 20 GB/s SM80, 20.6 SM90, 40.1
 *     SM100; 240 GB/s A100, 371 H100); on a direct mesh (DGX-1) each ordered pair NVLink joins is its
 *     own link of the pair's links × that figure; a PCIe node (or GPUs without NVLink) has no NVLink
 *     port, and every pair of its GPUs meets over their PCIe links, as a mesh's pairs without NVLink do;
 *   PCIe: each GPU's x16 link to the host or its PCIe switch at line rate (pcie-bandwidth.ts), which
 *     its NIC traffic and, on a PCIe node, all its traffic to the node's other GPUs share (a ring over
 *     it still runs at NCCL's rate: ring-program.ts caps each channel at it);
 *   NIC: the fastest inter-node speed of NCCL's ladder that fits the line rate (24 of HDR's 25, 48 of
 *     NDR's 50: nccl-tests#160, #290); NIC↔leaf cables at line rate;
 *   leaf: the fabric's own switch (`fabric.leafSwitch`, from the network preset: 40 ports on HDR's Quantum
 *     QM8700, 64 on NDR's Quantum-2 QM9700), its ports counted at the NICs' rate (leafPortsAtNicRate) and split
 *     round(ports · R / (1 + R)) down to the nodes, at least one left up: a 40-port leaf holds 20 nodes' rails at
 *     1:1 (the DGX A100 SuperPOD's scalable unit) and 32 at 4:1, a 64-port one 32 and 51;
 *   leaf↔spine trunk: a full leaf's down-port line rate ÷ oversubscription, on every leaf (a part-filled last
 *     leaf keeps all its uplinks, as it is cabled).
 * Latency: the network preset's one-way latency is NIC to NIC through the spine, split over its four
 * cables; a chunk's route adds its cables' latency (per-hop latency), less the one-leaf wire NCCL's
 * network latencies already hold (topology-graph.ts interNodeWireSeconds). NVLink and PCIe hops
 * carry none here because NCCL's per-step latencies (which the emulator applies per step) include them.
 */
export function buildTopology(options: TopologyOptions): TopologyGraph {
  const { fabric, nodes } = options;
  if (!Number.isInteger(nodes) || nodes < 1) throw new RangeError(`nodes must be a positive integer, got ${nodes}`);
  const oversubscription = options.oversubscription ?? 1;
  if (!(oversubscription >= 1)) throw new RangeError(`oversubscription must be ≥ 1, got ${oversubscription}`);
  const railOptimised = options.railOptimised ?? true;
  const g = fabric.gpusPerNode;
  const nics = Math.max(1, Math.round(fabric.nicsPerNode));
  const leafPorts = leafPortsAtNicRate(fabric.leafSwitch, fabric.nicBandwidth);
  // Down ports : up ports = R : 1 over the leaf's ports, to the nearest port, and at least one port each way: a leaf with
  // no uplink would cut its nodes off, and R ≥ 1 already keeps the down side ≥ half the ports.
  const downPorts = Math.min(leafPorts - 1, Math.max(1, Math.round((leafPorts * oversubscription) / (1 + oversubscription))));
  const nodesPerLeaf = options.nodesPerLeaf ?? (railOptimised ? downPorts : Math.max(1, Math.floor(downPorts / nics)));
  const leavesPerGroup = Math.ceil(nodes / nodesPerLeaf);
  const leaves = railOptimised ? leavesPerGroup * nics : leavesPerGroup;
  const peers = peerLinksOf(fabric, g);
  const linksPerGpu = peers ? 2 : 4;
  let peerSlot: Int32Array | null = null;
  let peerLinks = 0;
  if (peers) {
    peerSlot = new Int32Array(g * g).fill(-1);
    for (let pair = 0; pair < g * g; pair++) if ((peers[pair] as number) > 0) peerSlot[pair] = peerLinks++;
  }
  const linksPerNode = linksPerGpu * g + 4 * nics + peerLinks;
  const linkCount = nodes * linksPerNode + 2 * leaves;
  const bw = new Float64Array(linkCount);
  const lat = new Float64Array(linkCount);
  const kind = new Uint8Array(linkCount);
  const k = (name: LinkKind): number => LINK_KINDS.indexOf(name);

  const perLinkGBps = NCCL_TABLES.nvlinkBandwidthPerLinkGBps.value[fabric.generation];
  // Used behind an NVSwitch only (peers null), where the GPUs have NVLink.
  const nvlinkGBps = fabric.nvlinkCount * perLinkGBps;
  const nicLineGBps = toGBps(fabric.nicBandwidth);
  const nicGBps = effectiveNicBandwidthGBps(nicLineGBps, fabric.generation);
  // A PCIe node's GPUs meet over PCIe alone (hardware IntraNodeKind 'pcie'): their peer-to-peer traffic runs at what NCCL
  // drives over an x16 link (nccl-tables.ts pciBandwidthGBps: 24 GB/s Gen4, 48 Gen5), as the closed form costs it (QA:
  // all-to-all on h100-pcie-8x emulated at the 63 GB/s line rate, 30% over send-recv's 48). Elsewhere the PCIe link only
  // carries a GPU's NIC traffic, which the NIC binds: its line rate, as before.
  const pcieGBps = gpusJoinedByNvlink(fabric) ? PCIE_X16_GBPS[fabric.generation] : NCCL_TABLES.pciBandwidthGBps.value[fabric.generation];
  const cableLatency = fabric.networkLatency / 4;

  for (let n = 0; n < nodes; n++) {
    const base = n * linksPerNode;
    for (let l = 0; l < g; l++) {
      let at = base + linksPerGpu * l;
      if (!peers) {
        bw[at] = GBps(nvlinkGBps); kind[at] = k('nvlink-up');
        bw[at + 1] = GBps(nvlinkGBps); kind[at + 1] = k('nvlink-down');
        at += 2;
      }
      bw[at] = GBps(pcieGBps); kind[at] = k('pcie-up');
      bw[at + 1] = GBps(pcieGBps); kind[at + 1] = k('pcie-down');
    }
    if (peers && peerSlot) {
      const first = base + linksPerGpu * g + 4 * nics;
      for (let pair = 0; pair < g * g; pair++) {
        const slot = peerSlot[pair] as number;
        if (slot < 0) continue;
        bw[first + slot] = GBps((peers[pair] as number) * perLinkGBps); kind[first + slot] = k('nvlink-peer');
      }
    }
    for (let r = 0; r < nics; r++) {
      const at = base + linksPerGpu * g + 4 * r;
      bw[at] = GBps(nicGBps); kind[at] = k('host-nic');
      bw[at + 1] = GBps(nicGBps); kind[at + 1] = k('nic-host');
      bw[at + 2] = GBps(nicLineGBps); kind[at + 2] = k('nic-leaf'); lat[at + 2] = cableLatency;
      bw[at + 3] = GBps(nicLineGBps); kind[at + 3] = k('leaf-nic'); lat[at + 3] = cableLatency;
    }
  }
  // Every leaf's trunk is a full leaf's: its down ports × line rate ÷ R, however many nodes are plugged in. R is a
  // property of the switch's port split (leafPorts ports, downPorts of them down), and a leaf's uplink ports are
  // cabled to the spines when the fabric is built, whatever later fills its down ports: a last leaf holding one node
  // keeps every uplink (its own traffic is then less oversubscribed than R, never more). Nodes fill leaves in order,
  // as fat trees are cabled. Sizing the trunk by the nodes attached gave a one-node last leaf 1/51 of a trunk at 4:1,
  // and a collective on one node more ran 3–11× slower (51 → 52 nodes at 4:1, 120 → 121 at 16:1, on the 64-port leaf
  // then used for every fabric; QA 2026-11-29).
  const trunk = GBps(((railOptimised ? nodesPerLeaf : nodesPerLeaf * nics) * nicLineGBps) / oversubscription);
  for (let leaf = 0; leaf < leaves; leaf++) {
    const at = nodes * linksPerNode + 2 * leaf;
    bw[at] = trunk; kind[at] = k('leaf-spine'); lat[at] = cableLatency;
    bw[at + 1] = trunk; kind[at + 1] = k('spine-leaf'); lat[at + 1] = cableLatency;
  }
  return {
    fabric, nodes, gpusPerNode: g, nicsPerNode: nics, railOptimised, oversubscription, leafPorts, nodesPerLeaf, leaves,
    linksPerNode, linksPerGpu, peerSlot, linkCount, linkBandwidth: bw, linkLatency: lat, linkKind: kind,
  };
}

/** The graph as data: its counts, and its links grouped by kind, bandwidth and latency (SI units). */
export interface TopologySummary {
  readonly nodes: number;
  readonly gpusPerNode: number;
  readonly nicsPerNode: number;
  readonly leaves: number;
  readonly railOptimised: boolean;
  /** Nodes one leaf switch holds (its capacity; the last leaf may hold fewer). */
  readonly nodesPerLeaf: number;
  readonly oversubscription: number;
  readonly linkCount: number;
  readonly links: readonly { readonly kind: string; readonly count: number; readonly bandwidthBytesPerSecond: number; readonly latencySeconds: number }[];
}

/**
 * A link figure as its specs give it: 12 significant digits, which drop the binary residue of summing unit
 * constructors' products (a 0.2475 µs hop is 2.4749999999999996e-7 s) and nothing a datasheet states.
 */
const stated = (x: number): number => Number(x.toPrecision(12));

export function summariseTopology(t: TopologyGraph): TopologySummary {
  const groups = new Map<string, { kind: string; count: number; bandwidthBytesPerSecond: number; latencySeconds: number }>();
  for (let l = 0; l < t.linkCount; l++) {
    const kind = LINK_KINDS[t.linkKind[l] ?? 0]!;
    const bandwidthBytesPerSecond = stated(t.linkBandwidth[l] ?? 0);
    const latencySeconds = stated(t.linkLatency[l] ?? 0);
    const key = `${kind}|${bandwidthBytesPerSecond}|${latencySeconds}`;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { kind, count: 1, bandwidthBytesPerSecond, latencySeconds });
  }
  return {
    nodes: t.nodes, gpusPerNode: t.gpusPerNode, nicsPerNode: t.nicsPerNode, leaves: t.leaves, railOptimised: t.railOptimised,
    nodesPerLeaf: t.nodesPerLeaf, oversubscription: t.oversubscription, linkCount: t.linkCount, links: [...groups.values()],
  };
}

/** "1 leaf switch", "16 leaf switches" (countOf's plural adds only "s"). */
const switches = (n: number): string => `${n.toLocaleString('en-US')} leaf switch${n === 1 ? '' : 'es'}`;

/**
 * The graph as printable lines: counts, and one line per link kind with its bandwidth and latency. On an NVLink-only
 * fabric (GB200 NVL72) the graph's unit is a whole NVLink domain (the 72-GPU rack, `fabric.gpusPerNode`), not the
 * system's node (a 4-GPU compute tray), and the lines call it that: a job's "2 nodes × 4" and the graph's "1 node × 72"
 * read as two meanings of one word. `gpusInUse`, when the job uses fewer GPUs than the graph holds (two trays of a
 * rack), says how many. The switching line names the leaf's ports, from which its capacity follows.
 */
export function describeTopology(t: TopologyGraph, options: { readonly gpusInUse?: number } = {}): string[] {
  const unit = t.fabric.networkKind === 'nvlink' ? 'NVLink domain' : 'node';
  const gpus = t.nodes * t.gpusPerNode;
  const inUse = options.gpusInUse !== undefined && options.gpusInUse < gpus ? `, ${options.gpusInUse.toLocaleString('en-US')} of them in this job` : '';
  const lines = [
    `${countOf(t.nodes, unit)} × ${countOf(t.gpusPerNode, 'GPU')} = ${countOf(gpus, 'GPU')}${inUse}; ${countOf(t.nicsPerNode, 'NIC')} per ${unit}; `
      + `${switches(t.leaves)}, ${t.railOptimised ? 'rail-optimised' : 'not rail-optimised'}, `
      + `leaf capacity ${countOf(t.nodesPerLeaf, unit)}, oversubscription ${t.oversubscription}:1; ${t.linkCount.toLocaleString('en-US')} directed links`,
  ];
  const inside = !gpusJoinedByNvlink(t.fabric)
    ? 'no NVSwitch or NVLink: every pair of GPUs through the host or a PCIe switch over their PCIe x16 links'
    : t.peerSlot
      ? 'no NVSwitch: GPUs joined pair by pair by their own NVLinks (a direct mesh), pairs without one through the host over PCIe'
      : `one NVSwitch vertex per ${unit} (its planes merged)`;
  // The leaf's radix, which sets its capacity, at the NICs' line rate (a split NDR port counts as its two NDR200 links).
  const ports = `of ${t.leafPorts} ports`;
  lines.push(t.railOptimised
    ? `switching: ${inside}; ${countOf(t.nicsPerNode, 'rail group')} of ${switches(t.leaves / t.nicsPerNode)} ${ports}, NIC r of every ${unit} on a leaf of rail r; one spine vertex (a non-blocking core: only the leaf trunks are modelled)`
    : `switching: ${inside}; ${switches(t.leaves)} ${ports}, each holding every NIC of its ${unit}s; one spine vertex (a non-blocking core: only the leaf trunks are modelled)`);
  for (const link of summariseTopology(t).links) {
    lines.push(`${link.count} × ${link.kind} ${toGBps(link.bandwidthBytesPerSecond).toFixed(1)} GB/s ${(link.latencySeconds / us(1)).toFixed(2)} µs`);
  }
  return lines;
}
