import { withShapeDefaults, type ModelShape } from '@trainplan/model';
import { modelById } from '@trainplan/presets';
import type { ModelObjectInput } from '@trainplan/protocol';
import type { AskParameters } from './question.ts';

/**
 * The question's model, whether a preset id or a size no preset has (a GPT-style decoder, custom-model.ts),
 * in the forms the answers need: the contract's `model`, a name, and the size budgets are taken from.
 */

/** The contract's `model`: the preset id, or the custom model's object; undefined when no model was given. */
export const modelInputOf = (p: AskParameters): string | ModelObjectInput | undefined => p.customModel?.shape ?? p.model;

/** "GPT-3 175B" for a preset, "GPT-style 30B" or "Llama-style 30B" for a custom size, the id itself for an unknown id. */
export function modelNameOf(p: AskParameters): string {
  if (p.customModel !== undefined) return p.customModel.shape.name ?? 'custom';
  if (p.model === undefined) return '';
  return modelById(p.model)?.shape.name ?? p.model;
}

/** What budgets are taken from: a size (published, or as asked), and the tokens the source trained on. */
export interface ModelFacts {
  name: string;
  parameters: number;
  /** Whether `parameters` is a published count (a preset's) rather than the size the question asked. */
  published: boolean;
  defaultTrainingTokens?: number;
  /** The global batch the source trained with, in sequences of the model's length (presets: publishedGlobalBatchSize). */
  publishedGlobalBatchSize?: number;
}

export function modelFactsOf(p: AskParameters): ModelFacts | undefined {
  if (p.customModel !== undefined) return { name: modelNameOf(p), parameters: p.customModel.askedParameters, published: false };
  const preset = p.model === undefined ? undefined : modelById(p.model);
  if (preset === undefined) return undefined;
  return {
    name: preset.shape.name,
    parameters: preset.publishedParameters,
    published: true,
    ...(preset.defaultTrainingTokens !== undefined && { defaultTrainingTokens: preset.defaultTrainingTokens }),
    ...(preset.publishedGlobalBatchSize !== undefined && { publishedGlobalBatchSize: preset.publishedGlobalBatchSize }),
  };
}

/** The model's own sequence length, when the model is known. */
export const modelSeqLengthOf = (p: AskParameters): number | undefined =>
  p.customModel?.shape.seqLength ?? (p.model === undefined ? undefined : modelById(p.model)?.shape.seqLength);

/**
 * The longest context the released model is specified for, where its preset records one longer than its training
 * sequence (@trainplan/presets contextWindowTokens: Llama 3.1's 131,072); undefined for any other model.
 */
export const modelContextWindowOf = (p: AskParameters): number | undefined =>
  (p.customModel !== undefined || p.model === undefined ? undefined : modelById(p.model)?.contextWindowTokens);

/** The model's whole shape (a custom one with the contract's defaults filled), when the model is known. */
export function modelShapeOf(p: AskParameters): ModelShape | undefined {
  if (p.customModel !== undefined) return withShapeDefaults(p.customModel.shape);
  return p.model === undefined ? undefined : modelById(p.model)?.shape;
}

/**
 * Whether tensor parallelism of `t` splits the model's heads, key/value groups and FFN evenly, as the planner's
 * checkPlan requires (Megatron-Core's attention.py divides the query groups by the TP size: GQA's 8 over TP 16 do not start).
 */
export const splitsOver = (shape: ModelShape, t: number): boolean =>
  shape.attentionHeads % t === 0 && shape.kvHeads % t === 0 && shape.ffnHiddenSize % t === 0;
