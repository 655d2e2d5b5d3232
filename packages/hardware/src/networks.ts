import { Gbps, ns, us } from '@trainplan/units';
import { MINIPACK2, OMNI_PATH_EDGE_100_48, QUANTUM_2_QM9700, QUANTUM_QM8700, SWITCH_IB_2_SB7800 } from './leaf-switches.ts';
import type { Citation, NetworkSpec } from './types.ts';

/**
 * Inter-node fabrics as one node sees them. Latency is one-way NIC → switches → NIC for a small
 * message: the adapter's quoted latency plus three switch hops (leaf → spine → leaf, the usual path
 * in a rail-optimised fat tree). Vendors quote these as upper bounds; treat them as ±50%.
 * Every fabric cites its source, and which figures it took from it, in NETWORK_SOURCES below (keyed
 * by id, so the compiler demands one per fabric), not on the spec the planner computes with. Each names
 * its leaf switch, whose ports (leaf-switches.ts) the emulator's fat tree splits between nodes and spines.
 */
export const NETWORK_IDS = [
  'edr-ib-4x', 'hdr-ib-4x', 'hdr-ib-8x', 'ndr200-ib-4x', 'ndr-ib-4x', 'ndr-ib-8x', 'omnipath-4x', 'roce-400g-8x', 'nvl72',
] as const;
export type NetworkId = (typeof NETWORK_IDS)[number];

const SWITCH_HOPS = 3;
// ConnectX-5/6 product briefs: "sub 600 ns" adapter latency; ConnectX-7 assumed the same.
const CONNECTX_LATENCY = us(0.6);
// Switch-IB 2 (EDR) datasheet: 90 ns port-to-port; Quantum QM8700 (HDR): 130 ns.
const EDR_SWITCH_LATENCY = ns(90);
const HDR_SWITCH_LATENCY = ns(130);
const NDR_LATENCY = CONNECTX_LATENCY + SWITCH_HOPS * HDR_SWITCH_LATENCY; // Quantum-2 assumed no slower than Quantum

const SPECS: Readonly<Record<NetworkId, NetworkSpec>> = {
  'edr-ib-4x': {
    id: 'edr-ib-4x',
    name: '4 × EDR InfiniBand 100 Gb/s (DGX-1)',
    kind: 'infiniband',
    nicsPerNode: 4,
    nicBandwidth: Gbps(100),
    latency: CONNECTX_LATENCY + SWITCH_HOPS * EDR_SWITCH_LATENCY,
    // Switch-IB 2 has SHARPv1 (small messages only); NCCL's CollNet needs SHARPv2 (Quantum, HDR).
    inNetworkReduction: false,
    leafSwitch: SWITCH_IB_2_SB7800,
  },
  'hdr-ib-4x': {
    id: 'hdr-ib-4x',
    name: '4 × HDR InfiniBand 200 Gb/s (8-GPU PCIe server, one NIC per two GPUs)',
    kind: 'infiniband',
    nicsPerNode: 4,
    nicBandwidth: Gbps(200),
    latency: CONNECTX_LATENCY + SWITCH_HOPS * HDR_SWITCH_LATENCY,
    inNetworkReduction: true,
    leafSwitch: QUANTUM_QM8700,
  },
  'hdr-ib-8x': {
    id: 'hdr-ib-8x',
    name: '8 × HDR InfiniBand 200 Gb/s (DGX A100, Selene, Azure NDm A100 v4)',
    kind: 'infiniband',
    nicsPerNode: 8,
    nicBandwidth: Gbps(200),
    latency: CONNECTX_LATENCY + SWITCH_HOPS * HDR_SWITCH_LATENCY,
    inNetworkReduction: true,
    leafSwitch: QUANTUM_QM8700,
  },
  'ndr200-ib-4x': {
    id: 'ndr200-ib-4x',
    name: '4 × NDR200 InfiniBand 200 Gb/s (JUPITER Booster: one ConnectX-7 per GH200)',
    kind: 'infiniband',
    nicsPerNode: 4,
    // NDR200: an NDR port run on two lanes, 200 Gb/s, not NDR's 400.
    nicBandwidth: Gbps(200),
    latency: NDR_LATENCY,
    inNetworkReduction: true,
    leafSwitch: QUANTUM_2_QM9700,
  },
  'ndr-ib-4x': {
    id: 'ndr-ib-4x',
    name: '4 × NDR InfiniBand 400 Gb/s (8-GPU PCIe Gen5 server, one NIC per two GPUs)',
    kind: 'infiniband',
    nicsPerNode: 4,
    nicBandwidth: Gbps(400),
    latency: NDR_LATENCY,
    inNetworkReduction: true,
    leafSwitch: QUANTUM_2_QM9700,
  },
  'ndr-ib-8x': {
    id: 'ndr-ib-8x',
    name: '8 × NDR InfiniBand 400 Gb/s (DGX H100/H200/B200)',
    kind: 'infiniband',
    nicsPerNode: 8,
    nicBandwidth: Gbps(400),
    latency: NDR_LATENCY,
    inNetworkReduction: true,
    leafSwitch: QUANTUM_2_QM9700,
  },
  'omnipath-4x': {
    id: 'omnipath-4x',
    name: '4 × Omni-Path 100 Gb/s (Jean Zay, BLOOM)',
    kind: 'omnipath',
    nicsPerNode: 4,
    nicBandwidth: Gbps(100),
    latency: us(1),
    inNetworkReduction: false,
    leafSwitch: OMNI_PATH_EDGE_100_48,
  },
  'roce-400g-8x': {
    id: 'roce-400g-8x',
    name: '8 × RoCE 400 Gb/s (Meta Llama 3 cluster)',
    kind: 'roce',
    nicsPerNode: 8,
    nicBandwidth: Gbps(400),
    latency: us(2),
    inNetworkReduction: false,
    leafSwitch: MINIPACK2,
  },
  nvl72: {
    id: 'nvl72',
    name: 'GB200 NVL72 (72-GPU NVLink 5 domain, 400 Gb/s per GPU beyond the rack)',
    kind: 'nvlink',
    nicsPerNode: 4,
    nicBandwidth: Gbps(400),
    latency: NDR_LATENCY,
    // Beyond the rack the DGX SuperPOD GB200 compute fabric is Quantum-2 NDR InfiniBand (SHARP).
    inNetworkReduction: true,
    leafSwitch: QUANTUM_2_QM9700,
    nvlinkDomainGpus: 72,
  },
};

/**
 * Each fabric's source and the figures taken from it, by id: one per fabric, which the Record type demands.
 * Built in a pure-annotated call so that a bundle that never reads it (the widget) drops it whole,
 * whatever its entries are made of (esbuild keeps an unused object literal that spreads another).
 */
export const NETWORK_SOURCES = /* @__PURE__ */ ((): Readonly<Record<NetworkId, Citation>> => ({
  'edr-ib-4x': {
    title: 'NVIDIA DGX-1 With Tesla V100 System Architecture whitepaper (WP-08437-002)',
    url: 'https://images.nvidia.com/content/pdf/dgx1-v100-system-architecture-whitepaper.pdf',
    note: 'Four 100 Gb/s EDR InfiniBand ports per DGX-1; NVIDIA/nccl-tests#29: "DGX-1 can get 48 GB/s because we have 4 IB adapters". '
      + 'Leaf: Mellanox SB7800 (Switch-IB 2), 36 × EDR 100 Gb/s ports (SB7800 datasheet).',
  },
  'hdr-ib-4x': {
    title: 'NVIDIA ConnectX-6 VPI adapter (HDR 200 Gb/s, PCIe Gen4 x16); NVIDIA Quantum QM8700 HDR switch datasheet',
    url: 'https://www.nvidia.com/en-us/networking/infiniband-adapters/',
    note: 'One single-port ConnectX-6 HDR 200 Gb/s NIC per two GPUs, four per 8-GPU PCIe server: an '
      + 'assumption (the cited servers take NICs in their PCIe slots and state no count); a Gen4 x16 slot carries one HDR port '
      + 'at line rate. Latency as hdr-ib-8x. Leaf: Quantum QM8700/QM8790, 40 × HDR 200 Gb/s ports (QM87xx user manual).',
  },
  'hdr-ib-8x': {
    title: 'NVIDIA DGX A100 User Guide; NVIDIA Quantum QM8700 HDR switch datasheet',
    url: 'https://docs.nvidia.com/dgx/dgxa100-user-guide/introduction-to-dgxa100.html',
    note: 'Eight single-port ConnectX-6 HDR 200 Gb/s compute NICs per DGX A100 (storage NICs not counted); '
      + 'Quantum switches support SHARPv2. Narayanan et al. 2021 Sec. 5: Selene uses the same 8 × HDR per node. Leaf: Quantum '
      + 'QM8700/QM8790, 40 × HDR 200 Gb/s ports (QM87xx user manual); the DGX A100 SuperPOD puts 20 nodes on a leaf.',
  },
  'ndr200-ib-4x': {
    title: 'JSC, JUPITER configuration (Booster node design, network design)',
    url: 'https://apps.fz-juelich.de/jsc/hps/jupiter/configuration.html',
    note: 'Each Booster node: "Network: 4× InfiniBand NDR200 (Connect-X7)", one per GH200; NVIDIA Quantum InfiniBand NDR '
      + 'switches in a Dragonfly+ topology (each group a non-blocking fat tree, adaptive routing), modelled as the usual '
      + 'fat tree. Quantum-2 switches can reduce in the network (SHARP); whether JUPITER enables it is not stated. Latency '
      + 'as ndr-ib-8x. Leaf: Quantum-2 QM9700, 64 × NDR 400 Gb/s ports, 128 NDR200 links on splitter cables (QM97xx user '
      + 'manual); the leaf model is not stated: the Quantum-2 fixed switch assumed.',
  },
  'ndr-ib-4x': {
    title: 'NVIDIA ConnectX-7 adapter (NDR 400 Gb/s, PCIe Gen5 x16); NVIDIA Quantum-2 switches',
    url: 'https://www.nvidia.com/en-us/networking/infiniband-adapters/',
    note: 'One ConnectX-7 NDR 400 Gb/s NIC per two GPUs, four per 8-GPU PCIe Gen5 server: an assumption '
      + '(the cited server states no count); a Gen5 x16 slot carries one NDR port at line rate. Latency as ndr-ib-8x. '
      + 'Leaf: Quantum-2 QM9700/QM9790, 64 × NDR 400 Gb/s ports (QM97xx user manual).',
  },
  'ndr-ib-8x': {
    title: 'NVIDIA DGX H100 User Guide',
    url: 'https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html',
    note: 'Eight ConnectX-7 400 Gb/s NDR compute ports per DGX H100 (OSFP cages), Quantum-2 switches with SHARPv3; '
      + 'NVIDIA/nccl-tests#290: 46–48 GB/s achievable per NIC. Latency not published for Quantum-2: HDR figures assumed. '
      + 'Leaf: Quantum-2 QM9700/QM9790, 32 twin-port OSFP cages = 64 × NDR 400 Gb/s ports (QM97xx user manual); the DGX '
      + 'H100 SuperPOD puts 32 nodes on a leaf.',
  },
  'omnipath-4x': {
    title: 'BigScience 2022, BLOOM (arXiv:2211.05100); bigscience tr11-176B-ml README',
    url: 'https://arxiv.org/abs/2211.05100',
    note: 'Jean Zay A100 nodes: 4 Omni-Path 100 Gb/s links per node in an enhanced 8-D hypercube (not a fat tree: not '
      + 'modelled), dedicated NCCL subnet. Latency: Intel quotes '
      + '≈1 µs end-to-end MPI latency for Omni-Path 100 (100–110 ns per switch); assumed. Leaf: Omni-Path Edge Switch 100 '
      + 'Series, 48 × 100 Gb/s ports (Intel; Jean Zay\'s edge switch model not stated, the 48-port one assumed).',
  },
  'roce-400g-8x': {
    title: 'Dubey et al. 2024, The Llama 3 Herd of Models (arXiv:2407.21783)',
    url: 'https://arxiv.org/abs/2407.21783',
    note: 'Sec. 3.3.1: RoCE fabric, 400 Gb/s per GPU, 8 GPUs per Grand Teton server. Latency is not published; '
      + '2 µs assumed for Ethernet (deep-buffer spine switches add more than InfiniBand switches). Leaf: the Minipack2 '
      + 'top-of-rack switch (Sec. 3.3.1), one Tomahawk 4 of 25.6 Tb/s: at most 64 × 400 GbE ports (the capacity ÷ 400 Gb/s). '
      + 'Meta cables only 2 servers to a ToR, which the rail-optimised fat tree here does not model.',
  },
  nvl72: {
    title: 'NVIDIA DGX SuperPOD with DGX GB200 Systems, Reference Architecture',
    url: 'https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-gb200/latest/',
    note: 'A node is one compute tray: 2 Grace CPUs + 4 Blackwell GPUs with 4 ConnectX-7 400 Gb/s NICs, one per GPU; '
      + '18 trays share one NVLink 5 switch domain of 72 GPUs. Latency and bandwidth here are for traffic leaving the rack. '
      + 'Leaf beyond the rack: Quantum-2 QM9700, 64 × NDR 400 Gb/s ports (QM97xx user manual).',
  },
}))();

export const NETWORKS: Readonly<Record<string, NetworkSpec>> = SPECS;

/** The fabric with this id, or `undefined` for an unknown id. */
export function networkById(id: string): NetworkSpec | undefined {
  return Object.hasOwn(NETWORKS, id) ? NETWORKS[id] : undefined;
}
