import { runEstimate, type EstimateJson } from '@trainplan/protocol';
import { countOf, formatBytes, formatPercent, formatSeconds } from '@trainplan/units';
import { compactCount, formatDays } from '../format.ts';
import { modelNameOf } from '../model-of.ts';
import type { ParsedQuestion } from '../question.ts';
import { scenarioOf, widgetLink } from '../scenario.ts';
import type { Answer, PublicUrl } from './answer-types.ts';
import {
  describeConfiguration, describeInfeasible, estimateFigures, estimateNumbers, gpuName,
} from './describe-estimate.ts';
import { budgetNotes } from './budget-note.ts';
import { costFigures, estimateSpend, forCost } from './cost.ts';
import { listOf, statedMfuNote, statedMfuUnused } from './stated-mfu.ts';

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
    ...widgetLink(scenario, publicUrl),
    examples: [],
    data: result,
  };
  const subject = `${modelNameOf(p)} on ${gpuName(p.gpu ?? '')}`;
  if (!result.ok) {
    return { ...base, ok: false, headline: `${subject}: ${describeInfeasible(result)}`, figures: [], notes: [...(result.issues ?? []).map((i) => `${i.path}: ${i.message}`), ...listOf(statedMfuUnused(p))] };
  }
  // runEstimate has no price: its GPU-hours are costed here, at the question's.
  const spend = estimateSpend(p, result.timeToTrain?.gpuHours);
  const headline = q.intent === 'memory'
    ? `${subject}: ${formatBytes(result.memory.totalBytes)} per GPU of ${formatBytes(result.memory.capacityBytes)} (${result.memory.fits ? 'fits' : 'does not fit'})`
    : q.intent === 'time' && result.timeToTrain !== undefined
      ? `${subject}: ${formatDays(result.timeToTrain.days)} to train ${compactCount(result.timeToTrain.tokens)} tokens on ${countOf(result.resolved.nodes, 'node')}${forCost(p, spend?.cost)}`
      : `${subject}: ${describeStep(result.stepTimeSeconds, result.mfu)}`;
  return {
    ...base,
    ok: true,
    headline,
    configuration: describeConfiguration(result),
    figures: [...estimateFigures(result), ...costFigures(p, spend)],
    ...estimateNumbers(result),
    notes: [...result.warnings, ...budgetNotes(p, spend), ...listOf(statedMfuNote(p, result))],
  };
}

function describeStep(stepTimeSeconds: number, mfu: number): string {
  return `${formatSeconds(stepTimeSeconds)} per step at ${formatPercent(mfu)} MFU`;
}
