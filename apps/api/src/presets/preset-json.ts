/** The preset catalogue as JSON (@trainplan/presets preset-json.ts), held to the schemas the API documents it with. */
import { PRESET_LISTS as LISTS, type PresetKind } from '@trainplan/presets';
import type { GpuPresetJson, ModelPresetJson, NetworkPresetJson, SystemPresetJson } from './preset-schemas.ts';

/** Each catalogue, typed by its documented schema: the compiler holds the shared JSON to what the OpenAPI document says. */
export const PRESET_LISTS: {
  readonly gpus: readonly GpuPresetJson[]; readonly systems: readonly SystemPresetJson[];
  readonly networks: readonly NetworkPresetJson[]; readonly models: readonly ModelPresetJson[];
} = LISTS;

export type { PresetKind };
export const PRESET_KINDS = Object.keys(PRESET_LISTS) as PresetKind[];
