export type {
  Citation, GpuGeneration, Precision, GpuSpec, NvlinkGenerationId, NvlinkGeneration, IntraNodeKind, FabricKind,
  NetworkSpec, SwitchPorts, SystemSpec,
} from './types.ts';
export { NVLINKS, NVLINK_SOURCES, nvlinkBandwidthPerDirection } from './nvlink.ts';
export { nvlinkPeerLinks, type NvlinkNode } from './nvlink-mesh.ts';
export type { GpuId } from './gpus.ts';
export { GPUS, GPU_IDS, GPU_SOURCES, gpuById, isGpuId } from './gpus.ts';
export type { NetworkId } from './networks.ts';
export { NETWORKS, NETWORK_IDS, NETWORK_SOURCES, networkById } from './networks.ts';
export type { SystemId } from './systems.ts';
export { SYSTEMS, SYSTEM_IDS, SYSTEM_SOURCES, systemById, defaultSystemForGpu } from './systems.ts';
