export type { ModelPreset, PresetTokenizer } from './model-preset.ts';
export { MEGATRON_DEFAULT_DROPOUT } from './model-preset.ts';
export type { ModelId } from './models.ts';
export { MODELS, MODEL_IDS, MODEL_SOURCES, modelById } from './models.ts';
export type { GpuId, NetworkId, SystemId } from '@trainplan/hardware';
export {
  GPUS, GPU_IDS, GPU_SOURCES, gpuById, NETWORKS, NETWORK_IDS, NETWORK_SOURCES, networkById, SYSTEMS, SYSTEM_IDS, SYSTEM_SOURCES,
  systemById, defaultSystemForGpu,
} from '@trainplan/hardware';
export { PRESET_LISTS, type PresetKind } from './preset-json.ts';
// The figures in the units a preset's summary and `trainplan presets` show them in, one unit down a list.
export { capitalised, gbpsText, latencyText, tflopsText, wattsText } from './preset-figures.ts';
