import { modelById } from '@trainplan/presets';
import { layoutsProblem } from '../compared-layouts.ts';
import { SHAPE_AS_MODEL_OBJECT } from '../custom-model.ts';
import { FLOP_BUDGET_NOT_READ } from '../lexicon/flop-budget.ts';
import { asksWhatBudgetTrains, modelSizeNotAnswered } from '../lexicon/model-size-asked.ts';
import type { ParsedQuestion } from '../question.ts';
import { BARE_OFFLOAD_WHY, bareOffload, outOfScope } from '../scope.ts';
import { asTyped } from './as-typed.ts';
import type { Plan, Reads } from './reads.ts';
import type { ParseState } from './state.ts';

/** The problem of a question that plans no model it names: the one a GPU's own figures are asked with (answer/gpu-facts.ts). */
export const NAME_A_MODEL = `name a model: a preset id such as gpt3-175b or llama3-70b, or a size such as 175B, ${SHAPE_AS_MODEL_OBJECT}`;

/** A number with a minus sign of its own, not a hyphen inside a name or a range ("llama3-70b", "tp-8", "2-3 weeks"). */
const NEGATIVE = /(?:^|[\s(=:,])(-\d+(?:\.\d+)?(?:[kmbt]\b)?)/;

/**
 * The parsed question, with what only the whole question shows: offloading that names nothing (said not read), a question
 * out of scope (declined with a pointer, the rest of its problems unsaid), layouts compared where its intent cannot, no
 * model named, a FLOP budget not read, an unknown model, a negative number. Runs last: a number refused already is never
 * said negative again.
 */
export function finalProblems(st: ParseState, read: Reads, { intent, facts, parameters, defaults }: Plan): ParsedQuestion {
  const { s, text, normal, problems, notRead } = st;
  const { models: { model }, settings: { flopBudget, spare, spareRefused } } = read;
  // "with offloading", naming nothing moved off the GPU: said not read, the plan the one in GPU memory (scope.ts).
  const offload = bareOffload(normal);
  if (offload !== undefined) notRead.push({ phrase: `"${asTyped(text, offload)}"`, why: BARE_OFFLOAD_WHY });
  // Serving, fine-tuning and hyperparameter questions are declined with a pointer, not planned as training.
  const declined = outOfScope(normal, s.text, intent);
  if (declined !== undefined) {
    return { text, intent, parameters, stated: facts, defaults, problems: [declined.problem], outOfScope: declined.pointer === undefined ? [] : [declined.pointer], notRead };
  }
  const layouts = layoutsProblem(intent, facts.layouts);
  if (layouts !== undefined) problems.push(layouts);
  // "How big a model can we train on …", "the largest model that fits on one H100": a size asked, no plan here, said as such
  // (QA: "2M gpu hours" was read as a 2M-parameter model and refused as too small; worded as no other question, "how big a
  // model can we train on 10T tokens with 256 H100" got "I didn't understand"). Asked of a budget with no token count
  // ("what can I train for $1M at $2/GPU-hour"): the compute-optimal size is the answer (answer/compute-optimal.ts).
  const sizeRefused = modelSizeNotAnswered(normal, intent);
  if ((intent !== 'help' || sizeRefused !== undefined) && intent !== 'collective' && intent !== 'rate' && parameters.model === undefined && parameters.customModel === undefined && model?.unknownSize === undefined && model?.unmodelled === undefined) {
    if (!asksWhatBudgetTrains(normal, intent, facts)) problems.push(sizeRefused ?? NAME_A_MODEL);
  }
  if (flopBudget !== undefined && !asksWhatBudgetTrains(normal, intent, facts)) notRead.push({ phrase: `"${flopBudget.written}"`, why: FLOP_BUDGET_NOT_READ });
  if (parameters.model !== undefined && modelById(parameters.model) === undefined) problems.push(`unknown model ${parameters.model}`);
  // "-2T tokens", "-64 h100": no count, size or time is below 0, and the patterns read the digits alone. Said unless a
  // reader refused the number already ("a -30B model", "mfu of -0.2").
  const negative = NEGATIVE.exec(normal);
  const written = negative?.[1];
  const number = written?.replace(/\s/g, '').replace(/[a-z]+$/, '');
  // A price refused as below 0 names it with its currency ("-$2" of "-2 usd per gpu-hour"): said already.
  if (written !== undefined && number !== undefined && !problems.some((p) => p.replace(/(-)[$€£]/g, '$1').includes(number))) {
    // As typed ("-2T"), not as normalised ("-2t").
    problems.unshift(`"${asTyped(text, written)}" is negative: tokens, GPUs, nodes, sizes and times count up from 0`);
  }
  return { text, intent, parameters, stated: facts, defaults, problems, notRead, ...(spare !== undefined && spareRefused === undefined && { spareNodes: spare }) };
}
