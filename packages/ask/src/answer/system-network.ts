import { nvlinkBandwidthPerDirection, type Citation, type FabricKind, type GpuSpec, type IntraNodeKind, type NetworkSpec, type SystemSpec } from '@trainplan/hardware';
import { defaultSystemForGpu, NETWORK_SOURCES, NETWORKS, networkById, SYSTEM_SOURCES, systemById } from '@trainplan/presets';
import { formatGrouped, formatSeconds, Gbps, toGBps } from '@trainplan/units';
import type { AnswerFigure } from './answer-types.ts';

/**
 * "What network does a DGX H100 have", "inter-node bandwidth per node on dgx-a100-80gb", "is there SHARP on the H100
 * system": a node's links as the hardware catalogue holds them (packages/hardware systems.ts, networks.ts), read through
 * its lookups so that a system or fabric added there is answered with no edit here. Between nodes: NICs × line rate, one
 * direction (a NIC carries its line rate each way at once), the fabric's kind, its small-message latency, and whether its
 * switches reduce in the network (SHARP, which NCCL reaches through CollNet). Within the node: NVLink a GPU one way, over
 * NVSwitch or a mesh, and whether the NVSwitch reduces (NVLink SHARP, NVLS).
 */

/** A node and the network between nodes of it: the system's own, or one the question named. */
export interface NodeNetwork {
  readonly system: SystemSpec;
  readonly network: NetworkSpec;
  /** How the node or its network was read where the question did not name them ("H100's usual node taken: …"). */
  readonly readings: readonly string[];
}

/** The node of a GPU: the system named, else the GPU's usual one (said); the network named, else the system's. */
export function nodeNetworkOf(gpu: GpuSpec, systemId: string | undefined, networkId: string | undefined): NodeNetwork | undefined {
  const named = systemById(systemId ?? '');
  const system = named ?? defaultSystemForGpu(gpu.id);
  if (system === undefined) return undefined;
  const network = networkById(networkId ?? '') ?? networkById(system.network);
  if (network === undefined) return undefined;
  const readings = [
    ...(named === undefined ? [`the ${gpu.name.replace(/^NVIDIA\s+/, '')}'s usual node taken: ${system.name} (${system.id})`] : []),
    ...(network.id !== system.network ? [`the network named, ${network.id}, taken in place of the node's own ${system.network}`] : []),
  ];
  return { system, network, readings };
}

/** A fabric's kind in words; one the catalogue adds later is said by its id until named here. */
const FABRIC_NAMES: Readonly<Partial<Record<FabricKind, string>>> = {
  infiniband: 'InfiniBand', roce: 'RoCE (Ethernet)', ethernet: 'Ethernet', omnipath: 'Omni-Path', nvlink: 'NVLink',
};
const fabricName = (kind: FabricKind): string => FABRIC_NAMES[kind] ?? kind;

const gbpsText = (r: number): string => `${formatGrouped(toGBps(r))} GB/s`;
/** Line rates as NICs are sold: bits a second (Gbps(1) is one Gb/s in the catalogue's bytes a second). */
const gbitText = (r: number): string => `${formatGrouped(r / Gbps(1))} Gb/s`;

/** The NICs between nodes: "8 × 400 Gb/s InfiniBand NICs, 400 GB/s (3,200 Gb/s) a node per direction (50 GB/s a NIC)". */
function betweenNodes(n: NetworkSpec): string {
  const perNode = n.nicsPerNode * n.nicBandwidth;
  // GB200 NVL72: the NVLink domain spans nodes (trays); the NICs carry what leaves it.
  const fabric = n.nvlinkDomainGpus === undefined ? ` ${fabricName(n.kind)}` : '';
  const where = n.nvlinkDomainGpus === undefined ? 'between nodes' : `beyond its ${n.nvlinkDomainGpus}-GPU NVLink domain`;
  return `${where} ${n.nicsPerNode} × ${gbitText(n.nicBandwidth)}${fabric} NICs, ${gbpsText(perNode)} (${gbitText(perNode)}) a node per direction `
    + `(${gbpsText(n.nicBandwidth)} a NIC), latency about ${formatSeconds(n.latency)} one way`;
}

/** Whether the network reduces in its switches, in words. */
const sharpText = (n: NetworkSpec): string => (n.inNetworkReduction
  ? 'SHARP in-network reduction available (NCCL uses it through CollNet, off unless enabled: NCCL_COLLNET_ENABLE=1)'
  : `no SHARP in-network reduction (${n.id}'s switches do not reduce)`);

/** How a node's GPUs are wired, in words; a kind the catalogue adds later is said by its id until named here. */
const INTRA_NODE_NAMES: Readonly<Partial<Record<IntraNodeKind, string>>> = {
  nvswitch: 'NVSwitch',
  'nvlink-hybrid-cube-mesh': 'an NVLink hybrid cube-mesh (no NVSwitch: each GPU links to some peers only)',
  'nvlink-full-mesh': 'an NVLink full mesh (no NVSwitch: each GPU linked directly to every other)',
  pcie: 'PCIe only (no NVLink between the GPUs)',
};
export const intraNodeName = (kind: IntraNodeKind): string => INTRA_NODE_NAMES[kind] ?? kind;
/** Whether the node's GPUs reach each other over NVLink (a PCIe node's do not, whatever links the GPU has). */
export const usesNvlink = (s: SystemSpec): boolean => s.intraNode !== 'pcie';

/** Within the node: NVSwitch, a mesh or PCIe; NVLink a GPU one way where it is the path; NVLink SHARP. */
function withinNode(s: SystemSpec, g: GpuSpec, n: NetworkSpec): string {
  const domain = n.nvlinkDomainGpus === undefined ? '' : `, one NVLink domain of ${n.nvlinkDomainGpus} GPUs across ${s.gpusPerNode}-GPU nodes`;
  const nvlink = usesNvlink(s) ? `, NVLink ${gbpsText(nvlinkBandwidthPerDirection(g))} a GPU per direction` : '';
  return `within the node ${intraNodeName(s.intraNode)}${domain}${nvlink}${s.nvlinkSharp ? ', with NVLink SHARP (NVLS)' : ', no NVLink SHARP'}`;
}

/** The node's links in one sentence; SHARP first where the question asked of it. */
export function networkText(node: NodeNetwork, g: GpuSpec, sharpFirst: boolean): string {
  const { system: s, network: n } = node;
  const parts = sharpFirst ? [sharpText(n), betweenNodes(n), withinNode(s, g, n)] : [betweenNodes(n), sharpText(n), withinNode(s, g, n)];
  return parts.join('; ');
}

/** The node's links, labelled; `label` adds the GPU's name where GPUs are compared. */
export function networkFigures(node: NodeNetwork, label: (text: string) => string): AnswerFigure[] {
  const { system: s, network: n } = node;
  const perNode = n.nicsPerNode * n.nicBandwidth;
  return [
    { label: label('Node'), value: `${s.id}: ${s.name}` },
    { label: label('Network between nodes'), value: `${n.id}: ${n.name}` },
    { label: label('Fabric'), value: fabricName(n.kind) },
    { label: label('NICs per node'), value: `${n.nicsPerNode} × ${gbitText(n.nicBandwidth)} (${gbpsText(n.nicBandwidth)} each, per direction)` },
    { label: label('Between nodes, per node per direction'), value: `${gbpsText(perNode)} (${gbitText(perNode)})` },
    { label: label('Network latency (one way)'), value: formatSeconds(n.latency) },
    { label: label('SHARP (in-network reduction)'), value: n.inNetworkReduction ? 'yes (NCCL CollNet, opt-in: NCCL_COLLNET_ENABLE=1)' : 'no' },
    { label: label('Within the node'), value: `${intraNodeName(s.intraNode)}, ${s.gpusPerNode} GPUs${n.nvlinkDomainGpus === undefined ? '' : ` (NVLink domain of ${n.nvlinkDomainGpus})`}` },
    { label: label('NVLink SHARP (NVLS)'), value: s.nvlinkSharp ? 'yes' : 'no' },
  ];
}

/** A catalogue's citation by id, where it holds one (a preset added later without one is left unsaid). */
const citationOf = (sources: Readonly<Record<string, Citation>>, id: string): Citation | undefined => (Object.hasOwn(sources, id) ? sources[id] : undefined);
const citationText = (c: Citation): string => `${c.title}${c.url === undefined ? '' : ` (${c.url})`}${c.note === undefined ? '' : `. ${c.note}`}`;

/** What the figures mean, how SHARP is reached, and where they come from. */
export function networkNotes(node: NodeNetwork): string[] {
  const { system: s, network: n } = node;
  const withSharp = Object.values(NETWORKS).filter((x) => x.inNetworkReduction).map((x) => x.id);
  const network = citationOf(NETWORK_SOURCES, n.id);
  const system = citationOf(SYSTEM_SOURCES, s.id);
  return [
    'Between nodes: line rates, per direction (a NIC carries its rate each way at once); NCCL\'s measured bus bandwidth is below them. '
      + 'Latency is one way, NIC to NIC through three switch hops, from vendors\' upper bounds: treat it as ±50%.',
    n.inNetworkReduction
      ? `SHARP reaches NCCL only through CollNet, which NCCL leaves off (NCCL_COLLNET_ENABLE=0, and it needs the SHARP plugin): plans here assume it off. Ask e.g. "all-reduce 1 GiB on 4 ${s.id} nodes with SHARP" to cost a collective with it.`
      : `SHARP needs switches that reduce in the network (InfiniBand SHARPv2 or later); the networks here with it: ${withSharp.join(', ')}.`,
    ...(network === undefined ? [] : [`Source (network): ${citationText(network)}`]),
    ...(system === undefined ? [] : [`Source (node): ${citationText(system)}`]),
  ];
}
