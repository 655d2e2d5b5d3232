export type { ModelPreset } from './model-preset.ts';
export { MEGATRON_DEFAULT_DROPOUT } from './model-preset.ts';
export { MODELS, MODEL_IDS, modelById } from './models.ts';
export type { GpuId, NetworkId, SystemId } from '@trainplan/hardware';
export {
  GPUS, GPU_IDS, gpuById, NETWORKS, NETWORK_IDS, networkById, SYSTEMS, SYSTEM_IDS, systemById, defaultSystemForGpu,
} from '@trainplan/hardware';
