import { runSearch, type SearchPlanJson, type SearchResponseJson } from '@trainplan/protocol';
import { countOf, formatBytes, formatSeconds } from '@trainplan/units';
import { gpusPerNodeOf } from '../defaults.ts';
import { compactCount, formatDays, moneyText } from '../format.ts';
import { modelInputOf } from '../model-of.ts';
import type { ParsedQuestion } from '../question.ts';
import type { Answer, AnswerOptions, PublicUrl } from './answer-types.ts';
import { askedMetric, leadWithAsked, withAskedFigure } from './asked-metric.ts';
import { budgetClause, planVerdict } from './budget-verdict.ts';
import { deadlineVerdict } from './deadline-verdict.ts';
import { mfuText, planWords } from './describe-estimate.ts';
import { refusalWords } from './issue-words.ts';
import { failure, planAnswer, spendOf, subjectOf } from './plan-answer.ts';
import { constraintsOf, machineOf, trainingOf } from './search-request.ts';
import { memoryFractionNote, searchSettingsOf } from './search-switches.ts';
import { statedDataNote } from './stated-data-note.ts';
import { belowOneProblem } from './whole-counts.ts';
import { zeroDataConstraints, zeroLayoutNote } from './zero-data.ts';

/**
 * "Best config", and memory or estimate questions that state no layout (searchesLayout): runSearch on
 * the question's cluster (whole nodes, or fewer GPUs than one node), the best plan with the runners-up
 * and why they lose. The headline answers what was asked: the best plan, whether the model fits there
 * and in how much memory, or its step time and MFU.
 */
export function answerBestConfiguration(q: ParsedQuestion, options: AnswerOptions, publicUrl: PublicUrl): Answer {
  const p = q.parameters;
  const cluster: { nodes: number } | { gpus: number } = p.nodes !== undefined ? { nodes: p.nodes } : { gpus: p.gpus ?? gpusPerNodeOf(p) };
  const size = 'nodes' in cluster ? countOf(cluster.nodes, 'node') : countOf(cluster.gpus, 'GPU');
  const { training: trained, assumptions } = trainingOf(p);
  const noData = belowOneProblem('data', p.data);
  if (noData !== undefined) return failure(q, publicUrl, 'invalid', `${subjectOf(p)} on ${size}: ${noData}`, undefined, { assumptions, data: undefined });
  const training = { ...trained, ...(p.tokens !== undefined && { tokens: p.tokens }) };
  const request = {
    model: modelInputOf(p), cluster: { ...machineOf(p), ...cluster }, training, top: 3, constraints: constraintsOf(p), ...searchSettingsOf(p),
    ...(p.pricePerGpuHour !== undefined && { pricePerGpuHour: p.pricePerGpuHour }),
  };
  const searchOptions = options.candidateBudget === undefined ? {} : { candidateBudget: options.candidateBudget };
  // A ZeRO stage or FSDP asked: layouts that shard over data parallelism first (zero-data.ts); all layouts if none of those runs.
  const gpus = 'gpus' in cluster ? cluster.gpus : cluster.nodes * gpusPerNodeOf(p);
  const sharded = zeroDataConstraints(p, gpus, gpusPerNodeOf(p));
  const shardedResult = sharded === undefined ? undefined : runSearch({ ...request, constraints: { ...request.constraints, ...sharded } }, searchOptions);
  const result: SearchResponseJson = shardedResult?.ok === true ? shardedResult : runSearch(request, searchOptions);
  const zeroNote = sharded === undefined ? [] : [zeroLayoutNote(p, gpus, shardedResult?.ok === true, result.ok ? result.best.estimate.resolved : undefined)];
  if (!result.ok) {
    // Out of memory is "does not fit"; a cluster no split divides (no nearestMiss) runs nothing for another reason.
    const fit = q.intent === 'memory' && result.reason === 'no-feasible-configuration' && result.nearestMiss !== undefined ? 'does not fit for training: ' : '';
    return failure(q, publicUrl, result.reason, `${subjectOf(p)} on ${size}: ${fit}${refusalWords(result)}`, result.closest, { assumptions, data: result, notes: [...memoryFractionNote(p), ...zeroNote] });
  }
  const best: SearchPlanJson = result.best;
  const e = best.estimate;
  // ", $8.98M" after "for 15.0T tokens", not a second " for".
  const cost = best.cost === undefined ? '' : `, ${moneyText(best.cost, p.currency)}`;
  const days = best.days === undefined ? '' : `, ${formatDays(best.days)} for ${compactCount(p.tokens ?? 0)} tokens${cost}`;
  const step = `${formatSeconds(e.stepTimeSeconds)} per step, ${mfuText(e, ' MFU')}`;
  // An estimate question heads with what it asks ("tokens per second": tokens/s; "hfu": HFU), the step time and MFU after.
  const metric = askedMetric(q.text);
  const headline = q.intent === 'memory'
    ? `${subjectOf(p)} × ${size}: fits for training, ${formatBytes(e.memory.totalBytes)} per GPU of ${formatBytes(e.memory.capacityBytes)} with the fastest plan that fits: ${planWords(e)} (${step})`
    : q.intent === 'estimate'
      ? `${subjectOf(p)} × ${size}: ${leadWithAsked(e, metric)} with the fastest plan found: ${planWords(e)}`
      : `${planVerdict(q, best)}Best for ${subjectOf(p)} × ${size}: ${planWords(e)} (${step}${days})${budgetClause(q.stated, p, best)}`
        + deadlineVerdict(q.stated, best.days ?? 0, p.tokens ?? 0);
  const notes = [
    ...memoryFractionNote(p),
    ...zeroNote,
    ...statedDataNote(p.data, e.resolved.gpus, e.resolved.data),
    // The search's fewerNodes: fewer nodes whose best plan steps faster at the same batch (protocol fewer-nodes-json.ts), said
    // as the CLI's search says it (QA: 416 of 448 A100 nodes step in 66.5 s, 2.5% faster, and the bot never said so).
    ...(result.fewerNodes === undefined ? [] : [`Fewer nodes run faster: ${result.fewerNodes.why}.`]),
    `${compactCount(result.candidatesEvaluated)} of ${compactCount(result.spaceSize)} candidates settled, ${result.fullEstimates} fully estimated${result.budgetExhausted ? ' (budget reached: the best found so far)' : ''}.`,
    ...result.alternatives.slice(0, 3).map((a) => `Runner-up ${a.why}`),
  ];
  const answered = planAnswer(q, publicUrl, best, spendOf(best), headline, { assumptions, notes, data: result });
  return q.intent === 'estimate' ? { ...answered, figures: withAskedFigure(answered.figures, e, metric) } : answered;
}
