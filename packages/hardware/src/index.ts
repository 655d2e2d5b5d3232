export type {
  Citation, GpuGeneration, Precision, GpuSpec, NvlinkGenerationId, NvlinkGeneration, IntraNodeKind, FabricKind,
  NetworkSpec, SystemSpec,
} from './types.ts';
export { NVLINKS, nvlinkBandwidthPerDirection } from './nvlink.ts';
export { nvlinkPeerLinks } from './nvlink-mesh.ts';
export type { GpuId } from './gpus.ts';
export { GPUS, GPU_IDS, gpuById, isGpuId } from './gpus.ts';
export type { NetworkId } from './networks.ts';
export { NETWORKS, NETWORK_IDS, networkById } from './networks.ts';
export type { SystemId } from './systems.ts';
export { SYSTEMS, SYSTEM_IDS, systemById, defaultSystemForGpu } from './systems.ts';
