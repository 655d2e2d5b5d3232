import { BLOOM_MODELS } from './bloom.ts';
import { GPT3_MODELS } from './gpt3.ts';
import { LLAMA_MODELS } from './llama.ts';
import { MEGATRON_MODELS } from './megatron.ts';
import type { ModelPreset } from './model-preset.ts';
import { NEMOTRON_MODELS } from './nemotron.ts';

const ALL: readonly ModelPreset[] = [...GPT3_MODELS, ...MEGATRON_MODELS, ...BLOOM_MODELS, ...LLAMA_MODELS, ...NEMOTRON_MODELS];

/** Published models under their preset ids (the scenario contract's `model`). */
export const MODELS: Readonly<Record<string, ModelPreset>> = Object.fromEntries(ALL.map((m) => [m.id, m]));

export const MODEL_IDS: readonly string[] = ALL.map((m) => m.id);

/** The model with this id, or `undefined` for an unknown id. */
export function modelById(id: string): ModelPreset | undefined {
  return Object.hasOwn(MODELS, id) ? MODELS[id] : undefined;
}
