import { GBps, type BytesPerSecond } from '@trainplan/units';
import type { Citation, GpuSpec, NvlinkGeneration, NvlinkGenerationId } from './types.ts';

/**
 * NVLink generations, per link and per direction. How many links a GPU has is a property of the
 * GPU (`GpuSpec.nvlinkCount`): V100 6, A100 12, H100/H200 18, B200/GB200 18. Every generation cites
 * its whitepaper or product page in NVLINK_SOURCES below (keyed by id, so the compiler demands one per
 * generation), not on the spec the planner computes with.
 */
export const NVLINKS: Readonly<Record<NvlinkGenerationId, NvlinkGeneration>> = {
  nvlink2: {
    id: 'nvlink2',
    name: 'NVLink 2.0 (Volta)',
    bandwidthPerLinkPerDirection: GBps(25),
  },
  nvlink3: {
    id: 'nvlink3',
    name: 'NVLink 3.0 (Ampere)',
    bandwidthPerLinkPerDirection: GBps(25),
  },
  nvlink4: {
    id: 'nvlink4',
    name: 'NVLink 4.0 (Hopper)',
    bandwidthPerLinkPerDirection: GBps(25),
  },
  nvlink5: {
    id: 'nvlink5',
    name: 'NVLink 5.0 (Blackwell)',
    bandwidthPerLinkPerDirection: GBps(50),
  },
};

/**
 * Each NVLink generation's source and the figures taken from it, by id: one per generation, which the Record type
 * demands. Built in a pure-annotated call so that a bundle that never reads it (the widget) drops it whole,
 * whatever its entries are made of (esbuild keeps an unused object literal that spreads another).
 */
export const NVLINK_SOURCES = /* @__PURE__ */ ((): Readonly<Record<NvlinkGenerationId, Citation>> => ({
  nvlink2: {
    title: 'NVIDIA Tesla V100 GPU Architecture whitepaper (WP-08608-001)',
    url: 'https://images.nvidia.com/content/volta-architecture/pdf/volta-architecture-whitepaper.pdf',
    note: 'NVLink section: 6 links of 25 GB/s per direction, 300 GB/s total bidirectional per GPU.',
  },
  nvlink3: {
    title: 'NVIDIA A100 Tensor Core GPU Architecture whitepaper',
    url: 'https://images.nvidia.com/aem-dam/en-zz/Solutions/data-center/nvidia-ampere-architecture-whitepaper.pdf',
    note: '12 links of 25 GB/s per direction (4 lanes × 50 Gb/s): 300 GB/s per direction, 600 GB/s total.',
  },
  nvlink4: {
    title: 'NVIDIA H100 Tensor Core GPU Architecture whitepaper',
    url: 'https://resources.nvidia.com/en-us-tensor-core/gtc22-whitepaper-hopper',
    note: '18 links of 25 GB/s per direction (2 lanes × 100 Gb/s PAM4): 450 GB/s per direction, 900 GB/s total.',
  },
  nvlink5: {
    title: 'NVIDIA NVLink and NVLink Switch product page',
    url: 'https://www.nvidia.com/en-us/data-center/nvlink/',
    note: 'Fifth generation: 18 links, 1.8 TB/s total per GPU, i.e. 50 GB/s per link per direction.',
  },
}))();

/** Aggregate NVLink bandwidth of one GPU in one direction: links × per-link rate. */
export function nvlinkBandwidthPerDirection(gpu: Pick<GpuSpec, 'nvlink' | 'nvlinkCount'>): BytesPerSecond {
  return gpu.nvlinkCount * NVLINKS[gpu.nvlink].bandwidthPerLinkPerDirection;
}
