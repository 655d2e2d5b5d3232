import { GBps, GiB, KiB, MiB, TBps, TFLOPS } from '@trainplan/units';
import type { Citation, GpuSpec } from './types.ts';

/**
 * Published GPUs. Peaks are dense (no 2:4 sparsity) tensor-core rates; `fp32` is the non-tensor
 * rate. `hbmBytes` is the capacity nvidia-smi reports as `memory.total` (MiB): HBM stacks are
 * binary-sized, so "80GB" is 80 GiB less what the driver keeps. What CUDA lets an allocator have is a
 * little less again: PyTorch's `torch.cuda.get_device_properties(0).total_memory` read 85,017,493,504 B
 * (81,079 MiB) on an H100 SXM against nvidia-smi's 81,559 MiB, and 143,156 MiB on an H200 against
 * 143,771 MiB (test/validation/kernels/h100-sxm.json and h200.json, `memoryBytes`): 480 and 615 MiB less.
 * Every GPU cites its datasheet or whitepaper, and which figures it took from it, in GPU_SOURCES below
 * (keyed by id, so the compiler demands one per GPU), not on the spec the planner computes with.
 */
export const GPU_IDS = [
  'v100-32gb', 'a100-40gb', 'a100-80gb', 'a100-80gb-pcie', 'h100-sxm', 'h100-pcie', 'h200', 'gh200', 'b200', 'gb200',
] as const;
export type GpuId = (typeof GPU_IDS)[number];

const A100_DATASHEET = {
  title: 'NVIDIA A100 Tensor Core GPU datasheet',
  url: 'https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf',
};

// What both A100 SXM4 parts share (datasheet SXM columns; whitepaper: 108 SMs, 40 MB L2, 12 NVLink3 links).
const A100_SXM = {
  generation: 'ampere',
  peakFlops: { fp32: TFLOPS(19.5), tf32: TFLOPS(156), fp16: TFLOPS(312), bf16: TFLOPS(312) },
  smCount: 108,
  l2Bytes: MiB(40),
  nvlink: 'nvlink3',
  nvlinkCount: 12,
  tdpWatts: 400,
} as const;

// PCIe cards: no NVSwitch and no NVLink to the other GPUs of a server (nvlinkCount 0: every peer path is PCIe, intraNode
// 'pcie'). The optional NVLink bridge joins two cards only (A100 and H100 datasheets: "NVLink Bridge for 2 GPUs: 600GB/s"),
// which a per-GPU link count cannot say (the collectives would take it for a link to every GPU): it is not modelled. `nvlink`
// names the generation the bridge would use.
const NO_NVLINK_PEERS = { nvlinkCount: 0 } as const;

// H100 whitepaper V1.04 ("final GPU / memory clocks and final TFLOPS performance specs"), Table 1 "NVIDIA H100 Tensor
// Core GPU Performance Specs", H100 SXM5 column (Table 3, the A100/H100 comparison, repeats them): dense BF16/FP16 989.4,
// FP8 1978.9, TF32 494.7, FP32 66.9.
const HOPPER_PEAKS = {
  fp32: TFLOPS(66.9), tf32: TFLOPS(494.7), fp16: TFLOPS(989.4), bf16: TFLOPS(989.4), fp8: TFLOPS(1978.9),
} as const;

const SPECS: Readonly<Record<GpuId, GpuSpec>> = {
  'v100-32gb': {
    id: 'v100-32gb',
    name: 'NVIDIA V100 SXM2 32GB',
    generation: 'volta',
    peakFlops: { fp32: TFLOPS(15.7), fp16: TFLOPS(125) },
    hbmBytes: MiB(32510),
    hbmBandwidth: GBps(900),
    smCount: 80,
    l2Bytes: MiB(6),
    nvlink: 'nvlink2',
    nvlinkCount: 6,
    tdpWatts: 300,
  },
  'a100-40gb': {
    id: 'a100-40gb',
    name: 'NVIDIA A100 SXM4 40GB',
    ...A100_SXM,
    hbmBytes: MiB(40536),
    hbmBandwidth: GBps(1555),
  },
  'a100-80gb': {
    id: 'a100-80gb',
    name: 'NVIDIA A100 SXM4 80GB',
    ...A100_SXM,
    hbmBytes: GiB(80),
    hbmBandwidth: GBps(2039),
  },
  'a100-80gb-pcie': {
    id: 'a100-80gb-pcie',
    name: 'NVIDIA A100 80GB PCIe',
    generation: 'ampere',
    peakFlops: A100_SXM.peakFlops,
    hbmBytes: GiB(80),
    hbmBandwidth: GBps(1935),
    smCount: 108,
    l2Bytes: MiB(40),
    nvlink: 'nvlink3',
    ...NO_NVLINK_PEERS,
    tdpWatts: 300,
  },
  'h100-sxm': {
    id: 'h100-sxm',
    name: 'NVIDIA H100 SXM5 80GB',
    generation: 'hopper',
    peakFlops: HOPPER_PEAKS,
    hbmBytes: MiB(81559),
    hbmBandwidth: TBps(3.35),
    smCount: 132,
    l2Bytes: MiB(50),
    nvlink: 'nvlink4',
    nvlinkCount: 18,
    tdpWatts: 700,
  },
  'h100-pcie': {
    id: 'h100-pcie',
    name: 'NVIDIA H100 PCIe 80GB',
    generation: 'hopper',
    // Datasheet H100 PCIe column, sparse ÷ 2 (GPU_SOURCES): 1,513 → 756 BF16/FP16, 3,026 → 1,513 FP8, 756 → 378 TF32.
    peakFlops: { fp32: TFLOPS(51), tf32: TFLOPS(378), fp16: TFLOPS(756), bf16: TFLOPS(756), fp8: TFLOPS(1513) },
    hbmBytes: MiB(81559),
    hbmBandwidth: TBps(2),
    smCount: 114,
    l2Bytes: MiB(50),
    nvlink: 'nvlink4',
    ...NO_NVLINK_PEERS,
    tdpWatts: 350,
  },
  h200: {
    id: 'h200',
    name: 'NVIDIA H200 SXM 141GB',
    generation: 'hopper',
    peakFlops: HOPPER_PEAKS,
    hbmBytes: MiB(143771),
    hbmBandwidth: TBps(4.8),
    smCount: 132,
    // Measured, not the H100's 50 MiB: CUDA's L2 size as PyTorch reports it (torch.cuda.get_device_properties(0)
    // .L2_cache_size, test/validation/kernels/measure.py) was 62,914,560 B on the H200 of test/validation/kernels/h200.json.
    l2Bytes: MiB(60),
    nvlink: 'nvlink4',
    nvlinkCount: 18,
    tdpWatts: 700,
  },
  gh200: {
    id: 'gh200',
    name: 'NVIDIA GH200 Grace Hopper Superchip (96GB HBM3)',
    generation: 'hopper',
    // The Hopper GPU of the superchip has the H100 SXM5's 132 SMs, so its peaks (GPU_SOURCES).
    peakFlops: HOPPER_PEAKS,
    hbmBytes: MiB(97871),
    hbmBandwidth: TBps(4),
    smCount: 132,
    l2Bytes: MiB(50),
    nvlink: 'nvlink4',
    nvlinkCount: 18,
    // The whole superchip (Grace CPU, Hopper GPU and their memory) as JUPITER's booster nodes run it; see GPU_SOURCES.
    tdpWatts: 680,
  },
  b200: {
    id: 'b200',
    name: 'NVIDIA B200 (HGX B200)',
    generation: 'blackwell',
    peakFlops: { fp32: TFLOPS(75), tf32: TFLOPS(1125), fp16: TFLOPS(2250), bf16: TFLOPS(2250), fp8: TFLOPS(4500) },
    hbmBytes: MiB(183359),
    hbmBandwidth: TBps(7.7),
    smCount: 148,
    l2Bytes: KiB(129536),
    nvlink: 'nvlink5',
    nvlinkCount: 18,
    tdpWatts: 1000,
  },
  gb200: {
    id: 'gb200',
    name: 'NVIDIA GB200 (Blackwell GPU in GB200 NVL72)',
    generation: 'blackwell',
    peakFlops: { fp32: TFLOPS(80), tf32: TFLOPS(1250), fp16: TFLOPS(2500), bf16: TFLOPS(2500), fp8: TFLOPS(5000) },
    hbmBytes: MiB(189471),
    hbmBandwidth: TBps(8),
    smCount: 152,
    l2Bytes: KiB(129536),
    nvlink: 'nvlink5',
    nvlinkCount: 18,
    tdpWatts: 1200,
  },
};

/**
 * Each GPU's datasheet or whitepaper and the figures taken from it, by id: one per GPU, which the Record type demands.
 * Built in a pure-annotated call so that a bundle that never reads it (the widget) drops it whole,
 * whatever its entries are made of (esbuild keeps an unused object literal that spreads another).
 */
export const GPU_SOURCES = /* @__PURE__ */ ((): Readonly<Record<GpuId, Citation>> => ({
  'v100-32gb': {
    title: 'NVIDIA Tesla V100 GPU Accelerator datasheet; Volta architecture whitepaper',
    url: 'https://images.nvidia.com/content/technologies/volta/pdf/volta-v100-datasheet-update-us-1165301-r5.pdf',
    note: 'V100 SXM2 column: Tensor 125 TFLOPS (FP16 only: no BF16/TF32), FP32 15.7, 32 GB HBM2 at 900 GB/s, 300 W. '
      + 'Whitepaper: 80 SMs, 6144 KB L2. Capacity: nvidia-smi reports 32510 MiB.',
  },
  'a100-40gb': {
    ...A100_DATASHEET,
    note: 'A100 40GB SXM column: BF16/FP16 312, TF32 156, FP32 19.5 TFLOPS (dense; the starred figures are sparse), '
      + '40 GB HBM2 at 1,555 GB/s, 400 W. Whitepaper: 108 SMs, 40 MB L2. Capacity: nvidia-smi reports 40536 MiB (memory.total on '
      + 'A100-SXM4-40GB nodes, e.g. PC2 Noctua 2\'s A100 40GB page; CUDA deviceQuery 42,405,855,232 bytes), not the round 40 GiB.',
  },
  'a100-80gb': {
    ...A100_DATASHEET,
    note: 'A100 80GB SXM column: BF16/FP16 312, TF32 156, FP32 19.5 TFLOPS (dense), 80 GB HBM2e at 2,039 GB/s, 400 W. '
      + 'Capacity: nvidia-smi reports 81920 MiB = 80 GiB.',
  },
  'a100-80gb-pcie': {
    ...A100_DATASHEET,
    note: 'A100 80GB PCIe column: BF16/FP16 312, TF32 156, FP32 19.5 TFLOPS (dense; the starred figures are sparse), 80 GB HBM2e '
      + 'at 1,935 GB/s, 300 W, PCIe Gen4 64 GB/s (32 each way), "NVIDIA NVLink Bridge for 2 GPUs: 600GB/s" (not modelled: '
      + 'nvlinkCount 0). Whitepaper: 108 SMs, 40 MB L2, as the SXM part. Capacity: nvidia-smi reports 81920 MiB = 80 GiB, '
      + 'with a 300 W cap.',
  },
  'h100-sxm': {
    title: 'NVIDIA H100 Tensor Core GPU Architecture whitepaper; NVIDIA H100 datasheet',
    url: 'https://resources.nvidia.com/en-us-tensor-core/gtc22-whitepaper-hopper',
    note: 'Whitepaper V1.04 (final TFLOPS), Table 1 "NVIDIA H100 Tensor Core GPU Performance Specs", H100 SXM5 dense figures, '
      + 'repeated in its Table 3 (datasheet rounds to 989/1,979 and quotes sparse rates); '
      + '132 SMs, 50 MB L2. Datasheet: 80 GB HBM3 at 3.35 TB/s, up to 700 W. Capacity: nvidia-smi reports 81559 MiB (≈79.6 GiB).',
  },
  'h100-pcie': {
    title: 'NVIDIA H100 Tensor Core GPU datasheet; NVIDIA H100 PCIe GPU product brief (PB-11133-001)',
    url: 'https://www.nvidia.com/en-us/data-center/h100/',
    note: 'Datasheet H100 PCIe column, with sparsity: BF16/FP16 1,513, FP8 3,026, TF32 756 TFLOPS, halved here to 756 (1,513 / 2 '
      + '= 756.5, rounded as the whitepaper\'s dense figure and 114 SMs × 4,096 FLOP/clk × 1,620 MHz = 756.4 give it), 1,513 and '
      + '378; FP32 51; 80 GB HBM2e at 2 TB/s; 300–350 W (the product brief: a 350 W maximum TDP, PCI Express Gen5 card); NVLink '
      + 'bridge 600 GB/s for 2 GPUs (not modelled: nvlinkCount 0). 114 SMs and 50 MB L2 (NVIDIA LaunchPad H100 PCIe page). '
      + 'Capacity: nvidia-smi reports 81559 MiB, with a 350 W cap.',
  },
  h200: {
    title: 'NVIDIA H200 Tensor Core GPU datasheet',
    url: 'https://www.nvidia.com/en-us/data-center/h200/',
    note: 'H200 SXM column: same GH100 compute as H100 SXM (1,979 BF16 / 3,958 FP8 TFLOPS with sparsity, halved here), '
      + '141 GB HBM3e at 4.8 TB/s, up to 700 W. Capacity: nvidia-smi reports 143771 MiB (≈140.4 GiB).',
  },
  gh200: {
    title: 'JSC, JUPITER configuration (Booster node design); NVIDIA H100 Tensor Core GPU Architecture whitepaper',
    url: 'https://apps.fz-juelich.de/jsc/hps/jupiter/configuration.html',
    note: 'JSC, per GH200 of a JUPITER Booster node: Hopper GPU with 132 SMs, 96 GB HBM3 at 4 TB/s, "TDP: 680 W (for full '
      + 'GH200 superchip)" — CPU, GPU and memory; NVIDIA configures the module between 450 and 1,000 W, and JUPITER\'s login '
      + 'nodes run 900 W: tdpWatts is the 680 W of the booster, a different power setting is a different node. NVLink 4: '
      + '18 links (pairs of the quad node: 150 GB/s per direction, 6 × 25). Peaks: the H100 whitepaper\'s dense SXM5 column '
      + '(989.4 BF16/FP16, 1,978.9 FP8, 494.7 TF32, 66.9 FP32), the same 132 SMs; NVIDIA\'s GH200 datasheet (989 / 1,979 '
      + 'dense, 1,979 / 3,958 with sparsity) was not consulted here. L2: the whitepaper\'s 50 MB for the 132-SM part, '
      + 'not measured on a GH200 (an H200 reports 60 MiB). Capacity: nvidia-smi reports 97871 MiB on GH200 96GB parts '
      + '(both the 120 GB and 480 GB LPDDR5X SKUs).',
  },
  b200: {
    title: 'NVIDIA HGX B200 specifications (HGX platform page)',
    url: 'https://www.nvidia.com/en-us/data-center/hgx/',
    note: 'HGX B200 per-GPU column, sparse ÷ 2: FP8 9 PF → 4,500, BF16 4.5 PF → 2,250, TF32 2.2 PF → 1,125 (2.25 as the page '
      + 'rounds it: TF32 runs at half the 16-bit rate on every tensor-core generation, and its earlier 8-GPU total said 18 PF), '
      + 'FP32 75 TFLOPS; 180 GB HBM3e per GPU (192 GB physical) at 7.7 TB/s (62 TB/s for 8; earlier versions of the page said '
      + '64 TB/s, 8 TB/s a GPU; a 7,680-bit bus at 3,996 MHz gives 7.67 TB/s, pytorch/ao#4002); 1,000 W. '
      + 'Capacity: nvidia-smi reports 183359 MiB (≈179 GiB). 148 SMs and 129536 KiB L2 are what CUDA reports; not in the datasheet.',
  },
  gb200: {
    title: 'NVIDIA GB200 NVL72 specifications',
    url: 'https://www.nvidia.com/en-us/data-center/gb200-nvl72/',
    note: 'NVL72 rack totals ÷ 72, sparse ÷ 2: FP8 720 PF → 5,000, BF16 360 PF → 2,500, TF32 180 PF → 1,250, '
      + 'FP32 5,760 TF → 80 TFLOPS; 13.4 TB HBM3e → 186 GB per GPU (192 GB physical), 576 TB/s → 8 TB/s. '
      + 'Capacity: nvidia-smi reports 189471 MiB (≈185 GiB) and a 1,200 W power cap. 152 SMs as CUDA reports; '
      + 'L2 assumed equal to B200 (not published).',
  },
}))();

export const GPUS: Readonly<Record<string, GpuSpec>> = SPECS;

/** The GPU with this id, or `undefined` for an unknown id. */
export function gpuById(id: string): GpuSpec | undefined {
  return Object.hasOwn(GPUS, id) ? GPUS[id] : undefined;
}

export function isGpuId(id: string): id is GpuId {
  return Object.hasOwn(SPECS, id);
}
