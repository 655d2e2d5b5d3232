import type { EstimateOk, ScenarioInput } from '@trainplan/protocol';
import { modelNameOf } from '../model-of.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import { widgetLink } from '../scenario.ts';
import type { Answer, PublicUrl } from './answer-types.ts';
import { budgetNotes, type BudgetPlan } from './budget-note.ts';
import { costFigures, type Spend } from './cost.ts';
import { describeConfiguration, estimateNumbers, gpuName } from './describe-estimate.ts';
import { failureKind } from './issue-words.ts';
import { figuresFor } from './memory-parts.ts';
import { listOf, statedMfuNote, statedMfuUnused } from './stated-mfu.ts';
import { wallClockFigures, widgetUptimeNote } from './uptime-note.ts';

/** A search answer's plan, or its failure with the closest that works (search-answer.ts, best-configuration.ts), as an Answer. */

interface PlanView {
  scenario: ScenarioInput;
  estimate: EstimateOk;
}

/** What a runNodes size or runSearch plan spends: its GPU-hours and the protocol's cost of them (none without tokens). */
export const spendOf = (s: { gpuHours?: number; cost?: number }): Spend | undefined =>
  s.gpuHours === undefined ? undefined : { gpuHours: s.gpuHours, ...(s.cost !== undefined && { cost: s.cost }) };

/**
 * `spend`: the GPU-hours and cost the protocol returned with the plan. `extra.budgetPlan`: whose spend the
 * budget notes say, when not the plan answered (a cheapest answer's: its budget was no goal of the search).
 * `extra.wallClock`: the nodes search's days and GPU-hours for the plan, on the wall clock at the uptime asked: the time
 * to train figure and the stated MFU's days are said on it too (uptime-note.ts wallClockFigures).
 */
export function planAnswer(
  q: ParsedQuestion, publicUrl: PublicUrl, plan: PlanView, spend: Spend | undefined, headline: string,
  extra: { assumptions: string[]; notes: string[]; data: unknown; budgetPlan?: BudgetPlan; wallClock?: { days: number; gpuHours: number; tokens: number } },
): Answer {
  const uptime = extra.wallClock === undefined ? 1 : q.parameters.uptime ?? 1;
  return {
    intent: q.intent,
    kind: 'answer',
    ok: true,
    question: q.text,
    headline,
    configuration: describeConfiguration(plan.estimate),
    figures: [...wallClockFigures(figuresFor(q.intent, plan.estimate), q.parameters, extra.wallClock), ...costFigures(q.parameters, spend)],
    ...estimateNumbers(plan.estimate),
    assumptions: [...q.defaults.map((d) => d.text), ...extra.assumptions],
    notes: [
      ...plan.estimate.warnings, ...extra.notes, ...budgetNotes(q.parameters, spend, { plan: extra.budgetPlan ?? 'answered' }),
      ...listOf(statedMfuNote(q.parameters, plan.estimate, uptime)),
      // Last, next to the link: the widget plans it at full uptime (uptime-note.ts).
      ...widgetUptimeNote(q.parameters, publicUrl !== null, extra.wallClock),
    ],
    scenario: plan.scenario,
    ...widgetLink(plan.scenario, publicUrl, q.parameters),
    examples: [],
    data: extra.data,
  };
}

/** `reason`: the protocol's, which says whether the failure refuses the question or answers it (failureKind). */
export function failure(
  q: ParsedQuestion, publicUrl: PublicUrl, reason: string, headline: string,
  closest: { why: string; scenario?: ScenarioInput; estimate?: EstimateOk; days?: number; gpuHours?: number; cost?: number } | undefined,
  extra: { assumptions: string[]; data: unknown; notes?: string[]; wallClock?: boolean },
): Answer {
  const base: Answer = {
    intent: q.intent, kind: failureKind(reason), ok: false, question: q.text, headline, figures: [],
    assumptions: [...q.defaults.map((d) => d.text), ...extra.assumptions],
    // runNodes often gives its failure's message as the closest point's why: the headline says it already.
    notes: [
      ...listOf(statedMfuUnused(q.parameters)), ...(closest === undefined || headline.includes(closest.why) ? [] : [`Closest that works: ${closest.why}`]),
      ...(extra.notes ?? []),
      // The search's own message counts the budget bare ("cost 1,143,346"): the closest's standing, with its currency.
      ...budgetNotes(q.parameters, closest === undefined ? undefined : spendOf(closest), { plan: 'closest' }),
    ],
    examples: [], data: extra.data,
  };
  if (closest === undefined) return base;
  if (closest.scenario !== undefined && closest.estimate !== undefined) {
    // Its figures answer another question (another cluster or budget): every one says so, in chat too.
    return {
      ...base,
      configuration: `closest that works, not what was asked: ${describeConfiguration(closest.estimate)}`,
      // The nodes search's closest is on the wall clock at the uptime asked (extra.wallClock): its time to train figure too.
      figures: [
        ...(extra.wallClock === true ? wallClockFigures(figuresFor(q.intent, closest.estimate), q.parameters, { ...closest, tokens: closest.estimate.timeToTrain?.tokens })
          : figuresFor(q.intent, closest.estimate)),
        ...costFigures(q.parameters, spendOf(closest)),
      ].map((f) => ({ ...f, label: `${f.label} (closest)` })),
      scenario: closest.scenario,
      ...widgetLink(closest.scenario, publicUrl, q.parameters),
      ...(extra.wallClock === true && { notes: [...base.notes, ...widgetUptimeNote(q.parameters, publicUrl !== null, closest, false)] }),
    };
  }
  return base;
}

export const subjectOf = (p: AskParameters): string => `${modelNameOf(p)} on ${gpuName(p.gpu ?? '')}`;
