import { modelNameOf } from '../model-of.ts';
import type { AskParameters, ComparedModel, ParsedQuestion } from '../question.ts';
import { restated } from './compared-gpus.ts';

/**
 * A question comparing models ("how long to train 7B vs 13B on 64 H100", "llama3-8b or llama3-70b on 2T tokens"): the
 * question asked of each model, each planned on its own (its own defaults: a preset's published tokens, its batch), set
 * side by side as GPUs compared are (compared-gpus.ts' sideBySide). QA found the first model planned and the others
 * dropped unsaid.
 */

/** The facts with the model given in place of the question's. */
function withModel(stated: AskParameters, m: ComparedModel): AskParameters {
  const { model: _model, customModel: _custom, ...rest } = stated;
  return { ...rest, ...(m.model !== undefined && { model: m.model }), ...(m.customModel !== undefined && { customModel: m.customModel }) };
}

/** The question asked of each model, the first's as asked (its readings kept), with each model's name; undefined for a question of one model. */
export function comparedModelsOf(q: ParsedQuestion): { names: string[]; questions: ParsedQuestion[] } | undefined {
  const { comparedModels: others, ...stated } = q.stated;
  if (others === undefined) return undefined;
  const { comparedModels: _parameters, ...parameters } = q.parameters;
  const first: ParsedQuestion = { ...q, stated, parameters };
  const rest = others.map((m): ParsedQuestion => {
    const asked = restated(q, withModel(stated, m));
    // How its words were read ("13B taken as Llama 2 13B"), said first as the first model's reading is.
    return m.reading === undefined ? asked : { ...asked, defaults: [{ field: m.model === undefined ? 'customModel' : 'model', value: m.model ?? 'custom', text: m.reading }, ...asked.defaults] };
  });
  const questions = [first, ...rest];
  return { names: questions.map((x) => modelNameOf(x.parameters)), questions };
}
