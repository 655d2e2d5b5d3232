import { runEstimate, type EstimateJson } from '@trainplan/protocol';
import { formatBytes, formatPercent, formatSeconds } from '@trainplan/units';
import { compactCount, nodesGpus } from '../format.ts';
import { modelNameOf, modelShapeOf } from '../model-of.ts';
import type { ParsedQuestion } from '../question.ts';
import { scenarioOf, widgetLink } from '../scenario.ts';
import type { Answer, PublicUrl } from './answer-types.ts';
import {
  describeConfiguration, describeInfeasible, estimateNumbers, gpuName,
} from './describe-estimate.ts';
import { budgetNotes } from './budget-note.ts';
import { fittingHeadline, fittingLayout, fittingNote, noFittingNote } from './fitting-layout.ts';
import { failureKind, issuesWords } from './issue-words.ts';
import { costFigures, estimateSpend, forCost } from './cost.ts';
import { deadlineVerdict } from './deadline-verdict.ts';
import { askedMetric, leadWithAsked, withAskedFigure } from './asked-metric.ts';
import { askedTimeUnit, daysAsAsked } from './time-as-asked.ts';
import { tokensInTime } from './tokens-in-time.ts';
import { listOf, statedMfuNote, statedMfuUnused } from './stated-mfu.ts';
import { figuresFor, memoryPartsFigure } from './memory-parts.ts';
import { indivisibleRemedy } from './layout-remedy.ts';
import { splitMemoryText } from './split-memory.ts';

/**
 * Memory and estimate questions (and time with a stated layout): the stated configuration (defaults filled) through the contract's
 * runEstimate. The headline is memory per GPU or step time and MFU, as asked.
 */
export function answerFixedConfiguration(q: ParsedQuestion, publicUrl: PublicUrl): Answer {
  const p = q.parameters;
  const scenario = scenarioOf(p);
  const result = runEstimate(scenario) as EstimateJson;
  const base = {
    intent: q.intent,
    question: q.text,
    assumptions: q.defaults.map((d) => d.text),
    scenario,
    ...widgetLink(scenario, publicUrl, p),
    examples: [],
    data: result,
  };
  const subject = `${modelNameOf(p)} on ${gpuName(p.gpu ?? '')}`;
  if (!result.ok) {
    // Out of memory: the smallest layout that fits, as the closest (its figures say so), after what was asked.
    const search = result.reason === 'out-of-memory' ? fittingLayout(q, result) : undefined;
    const fit = search !== undefined && 'fit' in search ? search.fit : undefined;
    const layers = modelShapeOf(p)?.layers;
    // A memory question sees what fills the GPU as asked (the protocol's most loaded GPU), then the closest that fits.
    const asked = q.intent === 'memory' && result.memory !== undefined ? [memoryPartsFigure(result.memory, 'as asked')] : [];
    const closest = fit === undefined ? [] : figuresFor(q.intent, fit.estimate);
    // A layout that does not divide the GPUs: the fix, as the other refusals give one ("TP can be at most 8 on 8 GPUs").
    const remedy = indivisibleRemedy(result.issues, p, q.stated);
    const headline = `${subject}: ${describeInfeasible(result)}${remedy === undefined ? '' : `; ${remedy}`}${fit === undefined ? '' : `; ${fittingHeadline(fit, p)}`}`;
    return {
      ...base, kind: failureKind(result.reason), ok: false,
      headline,
      ...(fit !== undefined && { configuration: `closest that fits, not what was asked: ${describeConfiguration(fit.estimate)}` }),
      figures: [...asked, ...closest.map((f) => ({ ...f, label: `${f.label} (closest)` }))],
      notes: [
        // Issues the headline has not said already.
        ...issuesWords(result.issues ?? []).filter((w) => !headline.includes(w)),
        ...(fit === undefined || layers === undefined ? [] : [fittingNote(fit, p, layers)]),
        // The closest plan's own warnings, as an estimate of it gives them (QA: a plan at 98.4% of HBM and its causal MFU
        // went unsaid beside its figures).
        ...(fit === undefined ? [] : fit.estimate.warnings.map((w) => `The closest plan: ${w}`)),
        ...(search === undefined || 'fit' in search ? [] : noFittingNote(search, p)),
        ...listOf(statedMfuUnused(p)),
      ],
    };
  }
  // runEstimate has no price: its GPU-hours are costed here, at the question's.
  const spend = estimateSpend(p, result.timeToTrain?.gpuHours);
  // An estimate question heads with what it asks ("tokens per second": tokens/s; "hfu": HFU), the step time and MFU after.
  const metric = q.intent === 'estimate' ? askedMetric(q.text) : 'step';
  // A layout the defaults took (TP 8 over a node): the split said, and one GPU's whole need beside it.
  const split = q.intent === 'memory' ? splitMemoryText(q, result) : undefined;
  const headline = q.intent === 'memory'
    ? `${subject}: ${formatBytes(result.memory.totalBytes)} per GPU of ${formatBytes(result.memory.capacityBytes)}${split ?? ` (${result.memory.fits ? 'fits' : 'does not fit'} for training)`}`
    : q.intent === 'time' && result.timeToTrain !== undefined
      ? tokensInTime(q, result.timeToTrain.days, { text: nodesGpus(result.resolved), gpus: result.resolved.gpus }, subject) ?? `${subject}: ${daysAsAsked(result.timeToTrain.days, askedTimeUnit(q.text))} to train ${compactCount(result.timeToTrain.tokens)} tokens on ${nodesGpus(result.resolved)}${forCost(p, spend?.cost)}${deadlineVerdict(q.stated, result.timeToTrain.days, result.timeToTrain.tokens)}`
      : metric === 'step' ? `${subject}: ${describeStep(result.stepTimeSeconds, result.mfu)}` : `${subject}: ${leadWithAsked(result, metric)}`;
  return {
    ...base,
    kind: 'answer',
    ok: true,
    headline,
    configuration: describeConfiguration(result),
    figures: withAskedFigure([...figuresFor(q.intent, result), ...costFigures(p, spend)], result, metric),
    ...estimateNumbers(result),
    notes: [...result.warnings, ...budgetNotes(p, spend), ...listOf(statedMfuNote(p, result))],
  };
}

function describeStep(stepTimeSeconds: number, mfu: number): string {
  return `${formatSeconds(stepTimeSeconds)} per step at ${formatPercent(mfu)} MFU`;
}
