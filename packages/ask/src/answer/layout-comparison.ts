import { runEstimate, type EstimateJson, type EstimateOk } from '@trainplan/protocol';
import { countOf, formatBytes, formatPercentChange, formatSeconds } from '@trainplan/units';
import { withLayout } from '../compared-layouts.ts';
import { clusterGpusOf, withDefaults } from '../defaults.ts';
import { compactCount, moneyText } from '../format.ts';
import { LAYOUT_FIELDS } from '../lexicon/layouts.ts';
import { modelNameOf } from '../model-of.ts';
import type { AskParameters, Layout, ParsedQuestion } from '../question.ts';
import { scenarioOf, widgetLink } from '../scenario.ts';
import type { Answer, AnswerFigure, PublicUrl } from './answer-types.ts';
import { askedMetric, leadWithAsked } from './asked-metric.ts';
import { estimateSpend, forCost } from './cost.ts';
import { mfuText, describeConfiguration, describeInfeasible, estimateNumbers, gpuName } from './describe-estimate.ts';
import { fitCompared, type LayoutQuestion } from './compared-fit.ts';
import { answerHelp } from './help-answer.ts';
import { failureKind } from './issue-words.ts';
import { indivisibleRemedy } from './layout-remedy.ts';
import { listOf, statedMfuNote } from './stated-mfu.ts';
import { askedTimeUnit, daysAsAsked } from './time-as-asked.ts';
import { countProblems } from './whole-counts.ts';

/**
 * "What's faster for gpt3 175b on 128 a100 nodes: tp 8 pp 8 or tp 4 pp 16": each layout the question states
 * (compared-layouts.ts) through the contract's runEstimate, on the same GPUs at the same global batch (defaults.ts takes
 * both for all of them), and the answer says which wins and by how much: step time and MFU, the time to train for a
 * "how long" question, memory per GPU for a memory question. Never the first layout alone, the others dropped.
 */

interface Planned {
  label: string;
  parameters: AskParameters;
  result: EstimateJson;
  /** Its layout's question: the layout's own facts and defaults. */
  question: LayoutQuestion;
  /** Where its PP was the fewest stages that fit, why (compared-fit.ts). */
  fitted?: string;
  /** Where it does not fit as asked, the fewest stages that would (compared-fit.ts). */
  hint?: string;
}

/** Short names of the sizes in a layout's label, in LAYOUT_FIELDS' order. */
const NAMES: Readonly<Record<(typeof LAYOUT_FIELDS)[number], string>> = {
  tensor: 'TP', pipeline: 'PP', context: 'CP', data: 'DP', virtualStages: 'VP', microBatchSize: 'micro-batch',
};

/** "TP 8 · PP 8": a layout by its TP and PP, and the other sizes any layout compared states ("· CP 2"). */
function labelOf(p: AskParameters, layouts: readonly Layout[]): string {
  const shown = LAYOUT_FIELDS.filter((f) => f === 'tensor' || f === 'pipeline' || layouts.some((l) => l[f] !== undefined));
  return shown.map((f) => `${NAMES[f]} ${p[f] ?? 1}`).join(' · ');
}

/** One layout through runEstimate; out of memory, at the fewest pipeline stages that fit where its PP was not asked (compared-fit.ts). */
function planOf(q: ParsedQuestion, x: LayoutQuestion, layouts: readonly Layout[]): Planned {
  const result = runEstimate(scenarioOf(x.parameters)) as EstimateJson;
  const fit = fitCompared(q, x, result);
  if (fit.kind === 'fitted') {
    const label = labelOf(fit.question.parameters, layouts);
    const recompute = fit.question.parameters.recompute === x.parameters.recompute ? '' : ` · ${fit.question.parameters.recompute} recompute`;
    return { label: `${label}${recompute}`, parameters: fit.question.parameters, result: fit.result, question: fit.question, fitted: fit.note };
  }
  return { label: labelOf(x.parameters, layouts), parameters: x.parameters, result, question: x, ...(fit.hint !== undefined && { hint: fit.hint }) };
}

/** What the comparison ranks by: memory per GPU for a memory question, else the step time (the time to train follows it, the batch being one). */
const rankOf = (intent: ParsedQuestion['intent'], e: EstimateOk): number => (intent === 'memory' ? e.memory.totalBytes : e.stepTimeSeconds);

/** One layout's figures on one line, what the question asks first. */
function figureOf(q: ParsedQuestion, x: Planned): AnswerFigure {
  const r = x.result;
  if (!r.ok) return { label: x.label, value: describeInfeasible(r) };
  const memory = `${formatBytes(r.memory.totalBytes)} per GPU of ${formatBytes(r.memory.capacityBytes)} (${r.memory.fits ? 'fits' : 'does not fit'})`;
  const step = `${formatSeconds(r.stepTimeSeconds)} per step · ${mfuText(r, ' MFU')}`;
  const days = r.timeToTrain === undefined ? [] : [`${daysAsAsked(r.timeToTrain.days, askedTimeUnit(q.text))} to train ${compactCount(r.timeToTrain.tokens)} tokens`];
  const cost = estimateSpend(x.parameters, r.timeToTrain?.gpuHours)?.cost;
  const money = cost === undefined ? [] : [moneyText(cost, x.parameters.currency)];
  const parts = q.intent === 'memory' ? [memory, step] : [...days, step, memory, `${compactCount(r.tokensPerSecond)} tokens/s`];
  return { label: x.label, value: [...parts, ...money].join(' · ') };
}

/** What the headline says of one layout: its memory, its time to train (and cost, when priced), or its step (the asked metric first). */
function leadOf(q: ParsedQuestion, x: Planned, e: EstimateOk): string {
  if (q.intent === 'memory') return `${formatBytes(e.memory.totalBytes)} per GPU of ${formatBytes(e.memory.capacityBytes)} (${e.memory.fits ? 'fits' : 'does not fit'} for training)`;
  if (q.intent === 'time' && e.timeToTrain !== undefined) {
    const cost = forCost(x.parameters, estimateSpend(x.parameters, e.timeToTrain.gpuHours)?.cost);
    return `${daysAsAsked(e.timeToTrain.days, askedTimeUnit(q.text))} to train ${compactCount(e.timeToTrain.tokens)} tokens${cost} (${formatSeconds(e.stepTimeSeconds)} per step, ${mfuText(e, ' MFU')})`;
  }
  return leadWithAsked(e, q.intent === 'estimate' ? askedMetric(q.text) : 'step');
}

/**
 * How far a layout is behind the winner: "2.5% slower", "37% more memory per GPU", "<0.1% slower" for a difference too small
 * to show, or "as fast" where there is none.
 */
function behind(intent: ParsedQuestion['intent'], e: EstimateOk, best: EstimateOk): string {
  const ratio = rankOf(intent, e) / rankOf(intent, best) - 1;
  // formatPercentChange's rounding, without its sign: the layout is behind, never ahead.
  const by = formatPercentChange(ratio).slice(1);
  if (by === '0.0%') return intent === 'memory' ? 'as much memory' : 'as fast';
  return intent === 'memory' ? `${by} more memory per GPU` : `${by} slower`;
}

/**
 * "is faster", "is the fastest", "needs less memory": what the winner is said to do among the `n` layouts that run;
 * "is the only one that runs" where the others do not (nothing to be faster than). A memory question compares the
 * memory of every layout, one that does not fit included, so it counts them all.
 */
const winsWord = (intent: ParsedQuestion['intent'], n: number): string =>
  n === 1 ? 'is the only one that runs'
    : intent === 'memory' ? `needs ${n === 2 ? 'less' : 'the least'} memory` : `is ${n === 2 ? 'faster' : 'the fastest'}`;

export function answerLayoutComparison(q: ParsedQuestion, publicUrl: PublicUrl): Answer {
  const layouts = q.stated.layouts ?? [];
  // Each layout's own question: the first is the question as parsed (its readings said), the others with their own defaults.
  const questions: LayoutQuestion[] = layouts.map((layout, i) => {
    const stated = withLayout(q.stated, layout);
    return i === 0 ? { stated, parameters: q.parameters, defaults: q.defaults } : { stated, ...withDefaults(q.intent, stated) };
  });
  const fractions = [...new Set(questions.flatMap((x) => countProblems(x.stated, q.intent)))];
  if (fractions.length > 0) return answerHelp(q, fractions);
  const planned = questions.map((x) => planOf(q, x, layouts));
  const runs = planned.flatMap((x) => (x.result.ok ? [{ ...x, e: x.result }] : []));
  const ranked = [...runs].sort((a, b) => rankOf(q.intent, a.e) - rankOf(q.intent, b.e));
  const best = ranked[0];
  const p = best?.parameters ?? q.parameters;
  const gpus = best?.e.resolved.gpus ?? clusterGpusOf(p);
  const subject = `${modelNameOf(p)} on ${gpuName(p.gpu ?? '')}${gpus === undefined ? '' : ` × ${countOf(gpus, 'GPU')}`}`;
  const assumptions = [...new Set(planned.flatMap((x) => x.question.defaults.map((d) => d.text)))];
  // A layout that runs nothing, with the fix where its sizes do not divide the GPUs, or the depth that fits where it is out of memory.
  const failed = (x: Planned): string => {
    if (x.result.ok) return '';
    const remedy = indivisibleRemedy(x.result.issues, x.parameters, x.question.stated) ?? x.hint;
    return `${x.label}: ${describeInfeasible(x.result)}${remedy === undefined ? '' : `; ${remedy}`}`;
  };
  const notRun = planned.filter((x) => !x.result.ok).map(failed);
  const base = {
    intent: q.intent, question: q.text, assumptions, examples: [], data: planned.map((x) => x.result),
    figures: planned.map((x) => figureOf(q, x)),
  };
  if (best === undefined) {
    const refused = planned.every((x) => !x.result.ok && failureKind(x.result.reason) === 'refusal');
    return { ...base, kind: refused ? 'refusal' : 'answer', ok: false, headline: `${subject}: none of the ${layouts.length} layouts runs: ${notRun.join('; ')}`, notes: [] };
  }
  const others = ranked.slice(1).map((x) => `${x.label}, ${behind(q.intent, x.e, best.e)}: ${leadOf(q, x, x.e)}`);
  const headline = `${subject}: ${best.label} ${winsWord(q.intent, q.intent === 'memory' ? layouts.length : runs.length)}: ${leadOf(q, best, best.e)}; ${[...others, ...notRun].join('; ')}`;
  const batches = new Set(runs.map((x) => x.e.resolved.globalBatchSize));
  const alike = batches.size === 1
    ? `Each layout on the same ${countOf(best.e.resolved.gpus, 'GPU')} at the same global batch of ${countOf(best.e.resolved.globalBatchSize, 'sequence')}; what the question does not set is assumed alike for all.`
    : `Each layout on the same ${countOf(best.e.resolved.gpus, 'GPU')}, at the global batch each one's data-parallel ranks divide.`;
  const scenario = scenarioOf(best.parameters);
  return {
    ...base, kind: 'answer', ok: true, headline,
    configuration: describeConfiguration(best.e),
    ...estimateNumbers(best.e),
    notes: [
      alike,
      ...planned.flatMap((x) => (x.fitted === undefined ? [] : [`${x.label}, ${x.fitted}`])),
      ...ranked.slice(1).map((x) => `${x.label} in full: ${describeConfiguration(x.e)}.`),
      ...new Set(runs.flatMap((x) => x.e.warnings)),
      ...listOf(statedMfuNote(best.parameters, best.e)),
    ],
    scenario,
    ...widgetLink(scenario, publicUrl, best.parameters),
  };
}
