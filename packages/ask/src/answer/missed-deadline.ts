import type { NodesResponseJson } from '@trainplan/protocol';
import { gpuById } from '@trainplan/presets';
import { countOf, toDays } from '@trainplan/units';
import { TOKENS_COUNT } from '../classify.ts';
import { DEFAULT_GPU, gpusPerNodeOf, withDefaults } from '../defaults.ts';
import { compactCount, formatDays, nodesGpus } from '../format.ts';
import { modelFactsOf } from '../model-of.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';
import { TRAINING_FLOPS_PER_PARAMETER_TOKEN } from './chinchilla-size.ts';

/**
 * "Train llama3-70b on 2T tokens in 1 day on 8 H100": a deadline the named cluster cannot meet. The answer was "3 nodes …
 * 1,126 days" with the miss at its end, if at all (QA: the reader wants first that 1 day cannot be met on 8 GPUs, and what
 * would meet it). The miss leads the headline, with the fewest nodes that meet the deadline from the same nodes search a
 * "how many nodes" question runs; where that search finds none, the fewest GPUs that could at 100% MFU, a bound no plan beats.
 */

/** The days the answer's plan takes (a nodes answer's, an estimate's time to train); undefined when it has no plan. */
function daysOf(a: Answer): number | undefined {
  if (!a.ok || typeof a.data !== 'object' || a.data === null) return undefined;
  const d = a.data as { days?: unknown; timeToTrain?: { days?: unknown } };
  const days = d.days ?? d.timeToTrain?.days;
  return typeof days === 'number' ? days : undefined;
}

/** The question asked as "how many nodes …": the cluster named dropped, its other facts kept. */
function nodesQuestionOf(q: ParsedQuestion): ParsedQuestion {
  const { nodes: _nodes, gpus: _gpus, racks: _racks, ...stated } = q.stated;
  const { parameters, defaults } = withDefaults('nodes', stated);
  return { ...q, intent: 'nodes', stated, parameters, defaults: defaults.filter((d) => d.field !== 'nodes' && d.field !== 'gpus') };
}


/**
 * The fewest GPUs (in whole nodes) that could train the tokens in `seconds` at 100% MFU, the GPU's dense peak at the plan's
 * precision: no plan does better, so fewer certainly miss. Undefined where the model's size or the GPU's peak is unknown.
 */
export function fewestAtPeak(p: AskParameters, seconds: number): { nodes: number; gpus: number } | undefined {
  const facts = modelFactsOf(p);
  const gpu = gpuById(p.gpu ?? DEFAULT_GPU);
  const peak = p.precision === 'fp8' ? gpu?.peakFlops.fp8 : gpu?.peakFlops.bf16 ?? gpu?.peakFlops.fp16;
  if (facts === undefined || peak === undefined || p.tokens === undefined || !(seconds > 0)) return undefined;
  const perNode = gpusPerNodeOf(p);
  const nodes = Math.ceil((TRAINING_FLOPS_PER_PARAMETER_TOKEN * facts.parameters * p.tokens) / (peak * seconds) / perNode);
  return { nodes, gpus: nodes * perNode };
}

/**
 * The answer to a time question on a named cluster with a deadline, led by the miss where the cluster cannot meet it:
 * "the 1 day asked cannot be met on the 8 GPUs named; it takes 3,970 nodes (31,760 GPUs) …. On the 8 GPUs named: …".
 * `nodesAnswer` answers a nodes question (search-answer.ts' answerNodesOrTime). The answer as it was when the cluster meets
 * the deadline, no deadline or cluster was stated, the question was refused, or it asks the tokens trained in a time.
 */
export function withMissedDeadline(q: ParsedQuestion, a: Answer, nodesAnswer: (n: ParsedQuestion) => Answer): Answer {
  const { deadlineSeconds, nodes, gpus } = q.stated;
  if (q.intent !== 'time' || deadlineSeconds === undefined || (nodes === undefined && gpus === undefined)) return a;
  if (a.kind !== 'answer' || TOKENS_COUNT.test(q.text.toLowerCase())) return a;
  const deadline = toDays(deadlineSeconds);
  const days = daysOf(a);
  if (a.ok && (days === undefined || days <= deadline)) return a;
  const named = `the ${nodes !== undefined ? countOf(nodes, 'node') : countOf(gpus ?? 0, 'GPU')} named`;
  const needed = nodesAnswer(nodesQuestionOf(q)).data as NodesResponseJson | undefined;
  const bound = needed?.ok === true ? undefined : fewestAtPeak(q.parameters, deadlineSeconds);
  const takes = needed?.ok === true && needed.mode === 'fewest-nodes'
    ? `it takes ${nodesGpus(needed)}, the fewest the nodes search finds to meet it (${formatDays(needed.days)}, ${compactCount(needed.gpuHours)} GPU-hours)`
    : bound !== undefined ? `no cluster the nodes search tries meets it, and even at 100% MFU it would take at least ${nodesGpus(bound)}`
      : 'no cluster the nodes search tries meets it';
  // "No: Llama 3 70B on H100 SXM5 80GB: …" (a "can I" question's verdict first): the miss after the subject.
  const [, verdict = '', subject = '', rest = ''] = /^((?:Yes|No): )?([^:]*): (.*)$/s.exec(a.headline) ?? [];
  const lead = `${verdict}${subject}: the ${formatDays(deadline)} asked cannot be met on ${named}; ${takes}`;
  return {
    ...a,
    headline: `${lead}. On ${named}: ${rest}`,
    notes: [`The figures are for ${named}; ask "how many nodes …" with the deadline for the plan that meets it.`, ...a.notes],
  };
}
