import type { NodesResponseJson } from '@trainplan/protocol';
import { formatFlops, formatPercent } from '@trainplan/units';
import { clusterGpusOf } from '../cluster-of.ts';
import { customModelOfSize } from '../custom-model.ts';
import { CHINCHILLA_TOKENS_PER_PARAMETER } from '../defaults.ts';
import { compactCount, flopText } from '../format.ts';
import type { FlopBudget } from '../lexicon/flop-budget.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';
import { computeOptimalSize, sixNdFlops } from './chinchilla-size.ts';
import { restatedKeepingReadings } from './compared-gpus.ts';
import { COMPARED, LLAMA3_STYLE, refusal, withArticle } from './compute-optimal.ts';
import { gpuName } from './describe-estimate.ts';
import { apart, planModelFlops } from './plan-flops.ts';

/**
 * "What can I train with 5.76e23 FLOPs on H100": a compute given, so the compute-optimal size is read from it directly,
 * N = √(C/120) and D = 20·N (chinchilla-size.ts; Hoffmann et al. 2022, Table 3, trained 67B on 1.5T tokens for 5.76e23
 * FLOPs, the closed form gives 69B on 1.39T), with no plan needed to find C. Then the Llama 3-style decoder nearest N is
 * planned on those D tokens on the GPU named, the cheapest plan (its GPU-hours, nodes and days, as a "cheapest" question
 * answers them), or the cluster named's time, so that what C costs is said. Its model FLOPs are more than C: MFU counts
 * attention over the sequence, which 6ND leaves out (plan-flops.ts).
 */

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

/** The headline less the subject before its first colon ("Cheapest for … on H100 SXM5 80GB: "). */
const afterSubject = (headline: string): string => headline.replace(/^[^:]*:\s*/, '');

/** The answer; `answerOn` answers a question of time or cheapest as search-answer.ts does. */
export function answerFlopBudget(q: ParsedQuestion, budget: FlopBudget, answerOn: (q: ParsedQuestion) => Answer): Answer {
  if (q.problems.length > 0) return refusal(q, q.problems);
  const perParameter = q.stated.tokensPerParameter ?? CHINCHILLA_TOKENS_PER_PARAMETER;
  const size = computeOptimalSize(budget.flops, perParameter);
  const custom = customModelOfSize(size.parameters, compactCount(size.parameters), LLAMA3_STYLE, q.stated.seqLength);
  if (!custom.ok) return refusal(q, [custom.problem]);
  const { tokensPerParameter: _ratio, ...rest } = q.stated;
  const stated = Object.fromEntries(Object.entries(rest).filter(([k]) => !COMPARED.includes(k as keyof AskParameters))) as AskParameters;
  // Whole tokens: the plan counts them in whole optimizer steps anyway.
  const tokens = Math.round(size.tokens);
  // A cluster named is planned (its time to train D); else the cheapest cluster, the GPU-hours C costs at the least.
  const named = clusterGpusOf(stated) !== undefined;
  const plan = answerOn(restatedKeepingReadings(q, { ...stated, customModel: custom.model, tokens }, named ? 'time' : 'cheapest'));
  const data = plan.data as NodesResponseJson | undefined;
  const closedForm = `N = √(C / (6 × ${perParameter})) = ${compactCount(size.parameters)}, D = ${perParameter}·N = ${compactCount(size.tokens)}`
    + `${perParameter === CHINCHILLA_TOKENS_PER_PARAMETER ? ': Chinchilla\'s compute-optimal ratio (Hoffmann et al. 2022, arXiv:2203.15556, Table 3: 67B on 1.5T tokens for 5.76e23 FLOPs)' : ', the ratio asked'}; `
    + 'C = 6·N·D (Kaplan et al. 2020).';
  if (!plan.ok || data === undefined || !data.ok) return { ...plan, notes: [`For ${flopText(budget.flops)} FLOPs: ${closedForm}`, ...plan.notes] };
  return answerOf(q, { budget, perParameter, size, reading: custom.reading, plan, data, named, closedForm });
}

/** What the answer is built of: the compute, its closed-form size, and the plan of the model nearest it. */
interface Planned {
  budget: FlopBudget;
  perParameter: number;
  size: { parameters: number; tokens: number };
  reading: string;
  plan: Answer;
  data: NodesOk;
  named: boolean;
  closedForm: string;
}

function answerOf(q: ParsedQuestion, { budget, perParameter, size, reading, plan, data, named, closedForm }: Planned): Answer {
  const e = data.configuration.estimate;
  const parameters = e.parameters;
  const chinchilla = perParameter === CHINCHILLA_TOKENS_PER_PARAMETER;
  const gpu = gpuName(e.resolved.gpu);
  // The model planned and the tokens planned, which every figure is of; the closed form's N said in the notes beside it.
  const headline = `About ${withArticle(compactCount(parameters))} ${LLAMA3_STYLE.style} model on ${compactCount(data.tokens)} tokens for ${flopText(budget.flops)} FLOPs `
    + `(${perParameter} tokens per parameter${chinchilla ? ', Chinchilla' : ', as asked'}); ${named ? 'on' : 'cheapest on'} ${gpu}: ${afterSubject(plan.headline)}`;
  const sixNd = sixNdFlops(parameters, data.tokens);
  const model = planModelFlops(data);
  const notes = [
    `For ${flopText(budget.flops)} FLOPs: ${closedForm}`,
    `Planned: the ${LLAMA3_STYLE.style} decoder nearest N, ${compactCount(parameters)} parameters (${formatPercent(apart(size.parameters, parameters))} from N), `
      + `on the ${compactCount(data.tokens)} tokens: 6 × ${compactCount(parameters)} × ${compactCount(data.tokens)} = ${flopText(sixNd)} FLOPs.`,
    `The plan's model FLOPs are ${flopText(model.flops)} (${compactCount(data.gpuHours)} GPU-hours × ${formatFlops(model.peak)} peak × ${formatPercent(e.mfu)} MFU), `
      + `about ${formatPercent(model.flops / sixNd - 1, 0)} more than 6ND: MFU also counts attention over the sequence, as Megatron does, which 6ND leaves out; `
      + `the GPU-hours are what this model on these tokens costs${named ? ' on the cluster named' : ' at the least'}.`,
    ...(COMPARED.some((k) => q.stated[k] !== undefined) ? ['Only the first of the things compared is answered: the size is one compute\'s on one GPU; ask again for the others.'] : []),
  ];
  return { ...plan, headline, assumptions: [reading, ...plan.assumptions], notes: [...notes, ...plan.notes] };
}
