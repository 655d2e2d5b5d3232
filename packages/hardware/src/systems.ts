import type { GpuId } from './gpus.ts';
import type { NetworkId } from './networks.ts';
import type { Citation, SystemSpec } from './types.ts';

/**
 * Published nodes: which GPU, how many, how they are wired inside, and the fabric between nodes. Every
 * system cites its source, and which figures it took from it, in SYSTEM_SOURCES below (keyed by id, so
 * the compiler demands one per system), not on the spec the planner computes with.
 */
export const SYSTEM_IDS = [
  'dgx-1-v100', 'dgx-a100-40gb', 'dgx-a100-80gb', 'azure-ndm-a100-v4', 'jean-zay-a100', 'a100-80gb-pcie-8x',
  'dgx-h100', 'h100-pcie-8x', 'dgx-h200', 'gh200-quad', 'dgx-b200', 'gb200-nvl72',
] as const;
export type SystemId = (typeof SYSTEM_IDS)[number];

/** A SystemSpec whose gpu and network ids are checked against the catalogues at compile time. */
type KnownSystem = SystemSpec & { readonly gpu: GpuId; readonly network: NetworkId };

const DGX_A100_USER_GUIDE = {
  title: 'NVIDIA DGX A100 User Guide',
  url: 'https://docs.nvidia.com/dgx/dgxa100-user-guide/introduction-to-dgxa100.html',
};

// NVSwitch gen 3 (Hopper) and later reduce inside the switch (NVLS); gen 2 (A100) and the V100 mesh do not.
const SPECS: Readonly<Record<SystemId, KnownSystem>> = {
  'dgx-1-v100': {
    id: 'dgx-1-v100',
    name: 'NVIDIA DGX-1 (8 × V100 SXM2 32GB)',
    gpu: 'v100-32gb',
    gpusPerNode: 8,
    intraNode: 'nvlink-hybrid-cube-mesh',
    nvlinkSharp: false,
    network: 'edr-ib-4x',
  },
  'dgx-a100-40gb': {
    id: 'dgx-a100-40gb',
    name: 'NVIDIA DGX A100 (8 × A100 SXM4 40GB)',
    gpu: 'a100-40gb',
    gpusPerNode: 8,
    intraNode: 'nvswitch',
    nvlinkSharp: false,
    network: 'hdr-ib-8x',
  },
  'dgx-a100-80gb': {
    id: 'dgx-a100-80gb',
    name: 'NVIDIA DGX A100 640GB (Selene)',
    gpu: 'a100-80gb',
    gpusPerNode: 8,
    intraNode: 'nvswitch',
    nvlinkSharp: false,
    network: 'hdr-ib-8x',
  },
  'azure-ndm-a100-v4': {
    id: 'azure-ndm-a100-v4',
    name: 'Azure NDm A100 v4 (8 × A100 SXM4 80GB)',
    gpu: 'a100-80gb',
    gpusPerNode: 8,
    intraNode: 'nvswitch',
    nvlinkSharp: false,
    network: 'hdr-ib-8x',
  },
  'jean-zay-a100': {
    id: 'jean-zay-a100',
    name: 'Jean Zay A100 partition (8 × A100 SXM4 80GB), BLOOM',
    gpu: 'a100-80gb',
    gpusPerNode: 8,
    intraNode: 'nvswitch',
    nvlinkSharp: false,
    network: 'omnipath-4x',
  },
  // PCIe cards in a server: no NVSwitch, so no NVLink SHARP; every GPU-to-GPU path is PCIe (the 2-GPU bridge is not modelled).
  'a100-80gb-pcie-8x': {
    id: 'a100-80gb-pcie-8x',
    name: '8 × A100 80GB PCIe server (PCIe Gen4, no NVSwitch)',
    gpu: 'a100-80gb-pcie',
    gpusPerNode: 8,
    intraNode: 'pcie',
    nvlinkSharp: false,
    network: 'hdr-ib-4x',
  },
  'dgx-h100': {
    id: 'dgx-h100',
    name: 'NVIDIA DGX H100 (8 × H100 SXM5 80GB)',
    gpu: 'h100-sxm',
    gpusPerNode: 8,
    intraNode: 'nvswitch',
    nvlinkSharp: true,
    network: 'ndr-ib-8x',
  },
  'h100-pcie-8x': {
    id: 'h100-pcie-8x',
    name: '8 × H100 PCIe server (PCIe Gen5, no NVSwitch)',
    gpu: 'h100-pcie',
    gpusPerNode: 8,
    intraNode: 'pcie',
    nvlinkSharp: false,
    network: 'ndr-ib-4x',
  },
  'dgx-h200': {
    id: 'dgx-h200',
    name: 'NVIDIA DGX H200 (8 × H200 141GB)',
    gpu: 'h200',
    gpusPerNode: 8,
    intraNode: 'nvswitch',
    nvlinkSharp: true,
    network: 'ndr-ib-8x',
  },
  // No NVSwitch: the four GPUs are joined pair by pair, 6 of each one's 18 NVLinks to each other GPU; so no NVLink SHARP.
  'gh200-quad': {
    id: 'gh200-quad',
    name: '4 × GH200 node (JUPITER Booster; NVLink full mesh, no NVSwitch)',
    gpu: 'gh200',
    gpusPerNode: 4,
    intraNode: 'nvlink-full-mesh',
    nvlinkSharp: false,
    network: 'ndr200-ib-4x',
  },
  'dgx-b200': {
    id: 'dgx-b200',
    name: 'NVIDIA DGX B200 (8 × B200)',
    gpu: 'b200',
    gpusPerNode: 8,
    intraNode: 'nvswitch',
    nvlinkSharp: true,
    network: 'ndr-ib-8x',
  },
  'gb200-nvl72': {
    id: 'gb200-nvl72',
    name: 'NVIDIA GB200 NVL72 (compute tray of 4 GPUs in a 72-GPU NVLink domain)',
    gpu: 'gb200',
    // A node is a compute tray (one OS image): 4 GPUs. The 72-GPU NVLink domain is the network's.
    gpusPerNode: 4,
    intraNode: 'nvswitch',
    nvlinkSharp: true,
    network: 'nvl72',
  },
};

/**
 * Each system's source and the figures taken from it, by id: one per system, which the Record type demands.
 * Built in a pure-annotated call so that a bundle that never reads it (the widget) drops it whole,
 * whatever its entries are made of (esbuild keeps an unused object literal that spreads another).
 */
export const SYSTEM_SOURCES = /* @__PURE__ */ ((): Readonly<Record<SystemId, Citation>> => ({
  'dgx-1-v100': {
    title: 'NVIDIA DGX-1 With Tesla V100 System Architecture whitepaper (WP-08437-002)',
    url: 'https://images.nvidia.com/content/pdf/dgx1-v100-system-architecture-whitepaper.pdf',
    note: 'Eight V100 in an NVLink hybrid cube-mesh (no NVSwitch), four EDR InfiniBand ports.',
  },
  'dgx-a100-40gb': { ...DGX_A100_USER_GUIDE, note: 'DGX A100 320GB: 8 × A100 40GB, 6 NVSwitches, 8 × HDR 200 Gb/s compute NICs.' },
  'dgx-a100-80gb': {
    ...DGX_A100_USER_GUIDE,
    note: 'DGX A100 640GB: 8 × A100 80GB, 6 NVSwitches, 8 × HDR 200 Gb/s compute NICs; Selene is built of these '
      + '(Narayanan et al. 2021, arXiv:2104.04473, Sec. 5).',
  },
  'azure-ndm-a100-v4': {
    title: 'Microsoft Azure, NDm A100 v4-series documentation',
    url: 'https://learn.microsoft.com/en-us/azure/virtual-machines/ndm-a100-v4-series',
    note: '8 × A100 80GB SXM with NVLink 3.0 (NVSwitch), 8 × 200 Gb/s HDR InfiniBand per VM.',
  },
  'jean-zay-a100': {
    title: 'BigScience 2022, BLOOM (arXiv:2211.05100); IDRIS Jean Zay hardware documentation',
    url: 'http://www.idris.fr/eng/jean-zay/cpu/jean-zay-cpu-hw-eng.html',
    note: 'BLOOM trained on 48 nodes of 8 × A100 80GB with 4 Omni-Path 100 Gb/s links per node. NVSwitch assumed '
      + '(HGX A100 8-GPU board); the tr11 README only says "NVLink".',
  },
  'a100-80gb-pcie-8x': {
    title: 'Lenovo ThinkSystem SR670 V2 User Guide (8-DW GPU Model)',
    url: 'https://pubs.lenovo.com/sr670-v2/',
    note: 'A 3U two-socket Xeon server whose 8-DW GPU Model takes eight double-wide PCIe Gen4 GPUs (A100 80GB PCIe) on a GPU '
      + 'distribution board: no NVSwitch, GPUs reach each other over PCIe. Compute NICs (4 × HDR, one per two GPUs) are an '
      + 'assumption: the guide states none.',
  },
  'dgx-h100': {
    title: 'NVIDIA DGX H100 User Guide',
    url: 'https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html',
    note: '8 × H100 SXM5, 4 third-generation NVSwitches (NVLink SHARP), 8 × ConnectX-7 400 Gb/s compute ports.',
  },
  'h100-pcie-8x': {
    title: 'Lenovo ThinkSystem SR675 V3 User Guide (8-DW GPU Model, switched GPU distribution board)',
    url: 'https://pubs.lenovo.com/sr675-v3/internal_connectors_gpu_distribution_board',
    note: 'A two-socket EPYC server whose 8-DW GPU Model takes eight double-wide PCIe Gen5 GPUs (H100 PCIe) on two switched GPU '
      + 'distribution boards (PCIe switches, four GPU slots each): no NVSwitch, GPUs reach each other over PCIe. Compute NICs '
      + '(4 × NDR, one per two GPUs: two on each board\'s switches) are an assumption: the guide states none.',
  },
  'dgx-h200': {
    title: 'NVIDIA DGX H200 product page',
    url: 'https://www.nvidia.com/en-us/data-center/dgx-h200/',
    note: 'Same chassis as DGX H100 with H200 GPUs: 4 NVSwitches, 8 × ConnectX-7 400 Gb/s.',
  },
  'gh200-quad': {
    title: 'JSC, JUPITER configuration (Booster node design)',
    url: 'https://apps.fz-juelich.de/jsc/hps/jupiter/configuration.html',
    note: 'A JUPITER Booster node (BullSequana XH3515): 4 × GH200, "NVLink 4 GPU-to-GPU links, 300 GB/s between pairs of '
      + 'GPUs (150 GB/s per direction)" — each pair joined directly, no NVSwitch: 150 / 25 = 6 links per pair, 3 × 6 = '
      + 'all 18 of a GPU\'s links; 4 × NDR200 ConnectX-7 per node. Alps (CSCS, HPE Cray EX) and Isambard-AI build quad '
      + 'GH200 nodes the same way inside the node, with other networks.',
  },
  'dgx-b200': {
    title: 'NVIDIA DGX B200 User Guide',
    url: 'https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html',
    note: '8 × B200 on two NVLink 5 switch chips (1.8 TB/s per GPU), 8 × ConnectX-7 400 Gb/s compute ports.',
  },
  'gb200-nvl72': {
    title: 'NVIDIA DGX SuperPOD with DGX GB200 Systems, Reference Architecture',
    url: 'https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-gb200/latest/',
    note: '18 compute trays × (2 Grace + 4 Blackwell) per rack, 9 NVLink switch trays; 4 ConnectX-7 400 Gb/s per tray.',
  },
}))();

export const SYSTEMS: Readonly<Record<string, SystemSpec>> = SPECS;

/** The system with this id, or `undefined` for an unknown id. */
export function systemById(id: string): SystemSpec | undefined {
  return Object.hasOwn(SYSTEMS, id) ? SYSTEMS[id] : undefined;
}

const DEFAULT_SYSTEM: Readonly<Record<GpuId, KnownSystem>> = {
  'v100-32gb': SPECS['dgx-1-v100'],
  'a100-40gb': SPECS['dgx-a100-40gb'],
  'a100-80gb': SPECS['dgx-a100-80gb'],
  'a100-80gb-pcie': SPECS['a100-80gb-pcie-8x'],
  'h100-sxm': SPECS['dgx-h100'],
  'h100-pcie': SPECS['h100-pcie-8x'],
  h200: SPECS['dgx-h200'],
  gh200: SPECS['gh200-quad'],
  b200: SPECS['dgx-b200'],
  gb200: SPECS['gb200-nvl72'],
};

/** The usual DGX-class system of a GPU, an 8-GPU PCIe server for a PCIe card, a JUPITER Booster node for the GH200 (the scenario contract's default for `cluster.network`). */
export function defaultSystemForGpu(gpuId: GpuId): SystemSpec;
export function defaultSystemForGpu(gpuId: string): SystemSpec | undefined;
export function defaultSystemForGpu(gpuId: string): SystemSpec | undefined {
  return Object.hasOwn(DEFAULT_SYSTEM, gpuId) ? DEFAULT_SYSTEM[gpuId as GpuId] : undefined;
}
