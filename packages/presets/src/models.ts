import type { Citation } from '@trainplan/hardware';
import { BLOOM_MODELS, BLOOM_SOURCES, type BloomModelId } from './bloom.ts';
import { GPT3_MODELS, GPT3_SOURCES, type Gpt3ModelId } from './gpt3.ts';
import { LLAMA_MODELS, LLAMA_SOURCES, type LlamaModelId } from './llama.ts';
import { MEGATRON_MODELS, MEGATRON_SOURCES, type MegatronModelId } from './megatron.ts';
import type { ModelPreset } from './model-preset.ts';
import { NEMOTRON_MODELS, NEMOTRON_SOURCES, type NemotronModelId } from './nemotron.ts';

/** A published model's preset id (the scenario contract's `model`). */
export type ModelId = Gpt3ModelId | MegatronModelId | BloomModelId | LlamaModelId | NemotronModelId;

const ALL: readonly (ModelPreset & { readonly id: ModelId })[] = [...GPT3_MODELS, ...MEGATRON_MODELS, ...BLOOM_MODELS, ...LLAMA_MODELS, ...NEMOTRON_MODELS];

/** Published models under their preset ids (the scenario contract's `model`). */
export const MODELS: Readonly<Record<string, ModelPreset>> = Object.fromEntries(ALL.map((m) => [m.id, m]));

export const MODEL_IDS: readonly ModelId[] = ALL.map((m) => m.id);

/**
 * Each model's paper, model card or technical report and the figures taken from it, by id: one per model, which the
 * Record type demands (each family's record beside its presets, merged). Built in a pure-annotated call so that a
 * bundle that never reads it (the widget) drops it whole.
 */
export const MODEL_SOURCES = /* @__PURE__ */ ((): Readonly<Record<ModelId, Citation>> => ({
  ...GPT3_SOURCES, ...MEGATRON_SOURCES, ...BLOOM_SOURCES, ...LLAMA_SOURCES, ...NEMOTRON_SOURCES,
}))();

/** The model with this id, or `undefined` for an unknown id. */
export function modelById(id: string): ModelPreset | undefined {
  return Object.hasOwn(MODELS, id) ? MODELS[id] : undefined;
}
