import { modelById } from '@trainplan/presets';
import { compactCount } from '../format.ts';
import { sizeOrShape } from '../custom-model.ts';
import { nearPresetNote } from '../lexicon/preset-size-readings.ts';
import { takeServedModel, takeSpeculative } from '../lexicon/speculative.ts';
import { expertParallelProblem, takeExpertParallel } from '../lexicon/unmodelled-moe.ts';
import { takeVisionLanguage } from '../lexicon/unmodelled-architectures.ts';
import { takeBareTokens } from '../lexicon/bare-tokens.ts';
import { takeOtherModels } from '../lexicon/compared-models.ts';
import { notKnownModel } from '../lexicon/unmodelled-models.ts';
import { asTyped } from './as-typed.ts';
import type { ParseState } from './state.ts';

/** The models a question names, read first: the draft and the model served, the models compared, a bare token count. */
export type ModelsNamed = ReturnType<typeof readModels>;

/**
 * The models named, before anything else is read: a model's size is never a count or a budget, and a draft's name never
 * the model to serve. A model no preset has is shaped later (models-compared.ts), once a sequence length is read.
 */
export function readModels(st: ParseState) {
  const { s, text, normal, stated, problems } = st;
  // Speculative decoding first: a draft's name ("llama 3.2 1b as the draft", "a 1B draft model") is never the model to serve.
  const speculative = takeSpeculative(s);
  const served = takeServedModel(s, speculative);
  // "with 7B active parameters" stated apart from the model's size: the same model's, never read again (lexicon/models.ts).
  if (served.model?.active !== undefined) s.blank(served.model.active.span);
  // "train llava with llama3-8b", "llama3-8b as a multimodal model": the preset planned as its text decoder, said, never
  // "llava" a second model said not compared (lexicon/unmodelled-architectures.ts).
  const vision = served.model?.model === undefined ? undefined : takeVisionLanguage(s, modelById(served.model.model)?.shape.name ?? served.model.model);
  // "7B vs 13B", "llama3-8b or llama3-70b": the other models named, the first written planned first (lexicon/compared-models.ts).
  // Not beside a draft: a speculative question names two models, the draft and the one served.
  const otherModels = served.model === undefined || speculative.speculative === true || served.draftWritten !== undefined ? undefined
    : takeOtherModels(s, served.model, served.modelWritten ?? '');
  const model = otherModels?.first ?? served.model;
  // DeepMind's Chinchilla named with no model nor size beside it ("train chinchilla on 512 H100"), not its budget's word
  // ("chinchilla-optimal", budget-read.ts): named back as GPT-4 is (QA: the generic "name a model", as if none was named).
  if (model === undefined && s.take(/\bchinchilla\b(?![\s-]*(?:optimal|scaling|laws?|rule|ratio|point|tokens?|budget|style|like)\b)/) !== undefined) {
    problems.push(notKnownModel('Chinchilla'));
  }
  // "train a 7b on 300b": the second size, no comparing word before it, the tokens trained on (lexicon/bare-tokens.ts).
  const bare = otherModels === undefined || model === undefined ? undefined : takeBareTokens(s, normal, model, otherModels.unjoined);
  // A size no preset has ("a 30B model", "llama 30b") is planned as a decoder of that size in its family's style, said so.
  if (model !== undefined) {
    if (model.model !== undefined) stated.model = model.model;
    else if (model.unmodelled !== undefined) problems.push(model.unmodelled);
    else if (model.unknownSize !== undefined && model.unknownSize <= 0) problems.push(`a model size must be positive, got ${compactCount(model.unknownSize)} parameters`);
    else if (model.unknownSize !== undefined && model.shapeFamily === undefined) {
      problems.push(`no ${model.family ?? 'preset'} preset has about ${model.askedSize ?? compactCount(model.unknownSize)} parameters (${sizeOrShape(model.askedSize ?? compactCount(model.unknownSize))})${nearPresetNote(model.family, model.nearPreset)}`);
    }
  }
  // "with 8-way expert parallelism", "EP=8": an MoE's, declined as one (lexicon/unmodelled-moe.ts), its count never a cluster
  // size. Said once where the model named is declined already (as an MoE, or another model no preset has).
  const expertParallel = takeExpertParallel(s, text);
  if (expertParallel !== undefined && model?.unmodelled === undefined) problems.push(expertParallelProblem(asTyped(text, expertParallel)));
  return { speculative, served, vision, otherModels, model, bare };
}
