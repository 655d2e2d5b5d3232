import { modelById } from '@trainplan/presets';
import type { NodesResponseJson } from '@trainplan/protocol';
import { formatFlops, formatPercent, hours } from '@trainplan/units';
import { customModelOfSize, llamaStyle } from '../custom-model.ts';
import { CHINCHILLA_TOKENS_PER_PARAMETER, DEFAULT_GPU } from '../defaults.ts';
import { compactCount, flopText, formatDays, nodesGpus } from '../format.ts';
import { asksWhatBudgetTrains } from '../lexicon/model-size-asked.ts';
import { normalize } from '../parse.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';
import { computeOptimalSize, sixNdFlops, type ComputeOptimalSize } from './chinchilla-size.ts';
import { restatedKeepingReadings } from './compared-gpus.ts';
import { gpuName } from './describe-estimate.ts';
import { answerHelp } from './help-answer.ts';
import { plannedRow, presetQuestion, presetRow, presetsNear } from './presets-near-size.ts';
import { answerTokensBoughtOnLadder, type TokensBought } from './tokens-bought-ladder.ts';
import { needsBudget, trainingBudgetOf, type TrainingBudget } from './training-budget.ts';
import { apart, peakOf, planModelFlops } from './plan-flops.ts';

/**
 * "What can I train for $1M on H100 at $2/GPU-hour", "what's the biggest model I can train with 500k H100 GPU-hours", "what
 * can I train on 256 H100 in 30 days": the compute-optimal model the budget trains (chinchilla-size.ts: N = √(C/120), D =
 * 20·N), C being what the planner says the budget buys, never a constant MFU. A Llama 3-style decoder of N is planned on
 * the budget (tokens-bought-ladder.ts: the tokens its best plan buys, the cluster size chosen on a ladder of sizes rather
 * than the whole time–cost curve, which took 2–8 s a plan); its C = 6 · its parameters × those tokens gives the next N,
 * planned again until the size stops moving. Then the Llama 3 presets near N on the same budget, each over- or
 * under-trained against the ratio.
 */

/** The shape sized: Llama 3's rows (Dubey et al. 2024), 3.2's 1B below 8B (its text models are 3.1 8B's architecture, lexicon/models.ts). */
export const LLAMA3_STYLE = llamaStyle('Llama 3', ['llama3-', 'llama3.1-', 'llama3.2-']);

/**
 * The first size's MFU, a seed only (every figure said is of a plan): Llama 3 405B's 38–43% BF16 MFU on 8K–16K H100
 * (Dubey et al. 2024, Table 4), whose middle is taken.
 */
const SEED_MFU = 0.4;
/** Sizes that agree within this are one (the plan's MFU moves slowly with N, so one or two plans settle it). */
const CONVERGED = 0.03;
/** Plans at most: each a search of cluster sizes where no cluster is named (tokens-bought-ladder.ts: 0.1–1 s each). */
const MAX_PLANS = 3;

/** Fields of a comparison, which one size answers for the first of alone. */
export const COMPARED: readonly (keyof AskParameters)[] = ['comparedGpus', 'comparedSizes', 'comparedModels', 'comparedPrecisions', 'layouts'];

/** Whether the question asks what a budget trains (lexicon/model-size-asked.ts), and is not declined as out of scope. */
export const asksComputeOptimal = (q: ParsedQuestion): boolean =>
  q.outOfScope === undefined && asksWhatBudgetTrains(normalize(q.text), q.intent, q.stated);

/**
 * "an 82B", "a 27B": the article the size is read with. Eight, eighty, eight hundred … open with a vowel, so any size led
 * by an 8; eleven and eighteen only as whole numbers ("11.5B", not "110B": one hundred ten).
 */
export const withArticle = (size: string): string => `${/^(?:8|1[18](?:\D|$))/.test(size) ? 'an' : 'a'} ${size}`;

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

/** One size planned: the model, its plan on the budget, and the size its compute gives next. */
interface Step {
  reading: string;
  plan: Answer;
  data: NodesOk;
  parameters: number;
  next: ComputeOptimalSize;
}

/**
 * The answer. `answerOn` answers a question of nodes, time or cheapest as search-answer.ts does. Refused, as this question,
 * where the budget is not known (money with no price, a cluster with no time) or the question has problems of its own.
 * `tokensBought`: how each plan's tokens are bought, the ladder's (tests pass tokens-bought.ts's whole curve to compare).
 */
export function answerComputeOptimal(q: ParsedQuestion, answerOn: (q: ParsedQuestion) => Answer, tokensBought: TokensBought = answerTokensBoughtOnLadder): Answer {
  const budget = trainingBudgetOf(q.stated);
  // The question's own problems first: a money budget with no price is one, and says what to give.
  if (q.problems.length > 0) return refusal(q, q.problems);
  if (budget === undefined) return refusal(q, [needsBudget(q.stated)]);
  const perParameter = q.stated.tokensPerParameter ?? CHINCHILLA_TOKENS_PER_PARAMETER;
  const stated = Object.fromEntries(Object.entries(q.stated).filter(([k]) => !COMPARED.includes(k as keyof AskParameters))) as AskParameters;
  const gpu = stated.gpu ?? DEFAULT_GPU;
  const seed = computeOptimalSize(hours(budget.gpuHours) * peakOf(gpu, stated.precision) * SEED_MFU, perParameter);
  const steps: Step[] = [];
  let size = seed.parameters;
  for (;;) {
    const custom = customModelOfSize(size, compactCount(size), LLAMA3_STYLE, stated.seqLength);
    if (!custom.ok) return refusal(q, [custom.problem]);
    const plan = tokensBought(restatedKeepingReadings(q, { ...stated, customModel: custom.model, ...budget.facts }, 'time'), answerOn);
    const data = plan.data as NodesResponseJson | undefined;
    if (!plan.ok || data === undefined || !data.ok) return plan;
    const parameters = data.configuration.estimate.parameters;
    const next = computeOptimalSize(sixNdFlops(parameters, data.tokens), perParameter);
    steps.push({ reading: custom.reading, plan, data, parameters, next });
    if (Math.abs(next.parameters / parameters - 1) <= CONVERGED || steps.length >= MAX_PLANS) break;
    size = next.parameters;
  }
  const last = steps[steps.length - 1]!;
  const rows = presetsNear(LLAMA3_STYLE, last.next.parameters).map((preset) => {
    const bought = (cluster: { nodes?: number }): Answer =>
      tokensBought(restatedKeepingReadings(q, { ...presetQuestion({ ...q, stated }, preset), ...cluster, ...budget.facts }, 'time'), answerOn);
    if (budget.named) return presetRow(preset, bought({}), perParameter);
    // The same nodes first (one search, comparable MFU); a preset that fits none of them (405B on 12 nodes) on its own
    // cluster, said, rather than no row.
    const same = bought({ nodes: last.data.nodes });
    return plannedRow(same) ? presetRow(preset, same, perParameter) : presetRow(preset, bought({}), perParameter, true);
  });
  return answerOf(q, budget, perParameter, steps, rows);
}

/** The answer from the sizes planned and the presets' rows. */
function answerOf(q: ParsedQuestion, budget: TrainingBudget, perParameter: number, steps: readonly Step[], rows: readonly string[]): Answer {
  const { plan, data, parameters, next, reading } = steps[steps.length - 1]!;
  const e = data.configuration.estimate;
  const chinchilla = perParameter === CHINCHILLA_TOKENS_PER_PARAMETER;
  const cluster = nodesGpus(data);
  // The model planned and the tokens its plan buys, which every figure is of (QA: the closed form's N and D were said, a
  // size and a token count no figure is of); C = 6 × those.
  const headline = `About ${withArticle(compactCount(parameters))} ${LLAMA3_STYLE.style} model on ${compactCount(data.tokens)} tokens `
    + `(${perParameter} tokens per parameter${chinchilla ? ', Chinchilla' : ', as asked'}): C = ${flopText(next.flops)} FLOPs at ${formatPercent(e.mfu)} MFU on ${cluster} in ${formatDays(data.days)}`;
  const model = planModelFlops(data);
  const moved = apart(next.parameters, parameters);
  const sizes = steps.map((s) => compactCount(s.parameters)).join(' → ');
  const llama8b = modelById('llama3-8b');
  const notes = [
    `The budget: ${budget.words} of ${gpuName(e.resolved.gpu)}.`,
    `C = 6·N·D (Kaplan et al. 2020): 6 × ${compactCount(parameters)} parameters × the ${compactCount(data.tokens)} tokens the best plan buys = ${flopText(next.flops)} FLOPs. `
      + `The plan's model FLOPs are ${flopText(model.flops)} (${compactCount(data.gpuHours)} GPU-hours × ${formatFlops(model.peak)} peak × ${formatPercent(e.mfu)} MFU): `
      + `MFU also counts attention over the sequence, as Megatron does, which 6ND leaves out; sized on those, ${perParameter}·N tokens would cost about ${formatPercent(model.flops / next.flops - 1, 0)} more than the budget.`,
    `N = √(C / (6 × ${perParameter})) = ${compactCount(next.parameters)}, ${formatPercent(moved)} from the ${compactCount(parameters)} planned; `
      + `D = ${perParameter}·N = ${compactCount(next.tokens)}, ${formatPercent(apart(next.tokens, data.tokens))} from the ${compactCount(data.tokens)} its plan buys`
      + `${chinchilla ? ': Chinchilla\'s compute-optimal ratio (Hoffmann et al. 2022, arXiv:2203.15556, Table 3: 1B on 20.2B tokens, 67B on 1.5T)' : ', the ratio asked'}. `
      + `Sizes planned: ${sizes} (the first from a ${formatPercent(SEED_MFU, 0)} MFU seed, each next from the one before's C): `
      + `${moved <= CONVERGED ? `converged within ${formatPercent(CONVERGED, 0)}` : `not converged within ${formatPercent(CONVERGED, 0)} after ${steps.length} plans`}.`,
    `The same budget on Llama 3 presets near that size, each its best plan on ${budget.named ? 'the cluster asked' : `the same ${cluster}; another size of cluster may suit a preset better (ask "how many tokens can I train llama3-70b on …" for its own)`}:`,
    ...rows,
    ...(llama8b?.defaultTrainingTokens === undefined ? [] : [
      `${llama8b.shape.name} trained on ${compactCount(llama8b.defaultTrainingTokens)} tokens (about ${Math.round(llama8b.defaultTrainingTokens / llama8b.publishedParameters).toLocaleString('en-US')} a parameter), `
        + 'far past compute-optimal on purpose: a smaller model trained longer is cheaper to serve (Dubey et al. 2024).',
    ]),
    ...(COMPARED.some((k) => q.stated[k] !== undefined) ? ['Only the first of the things compared is answered: the size is one budget\'s on one GPU; ask again for the others.'] : []),
  ];
  return { ...plan, headline, assumptions: [reading, ...plan.assumptions], notes: [...notes, ...plan.notes] };
}

/** The question refused as this question: what it needs to be sized. */
export function refusal(q: ParsedQuestion, problems: readonly string[]): Answer {
  return { ...answerHelp(q, problems), headline: `I could not size the compute-optimal model a budget trains: ${problems.join('; ')}.` };
}
