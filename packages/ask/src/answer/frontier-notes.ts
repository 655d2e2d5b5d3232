import type { FrontierSizeJson, NodesOkJson, NodesSizeJson } from '@trainplan/protocol';
import { countOf, formatPercentChange } from '@trainplan/units';
import { compactCount, formatDays, moneyText, nodesGpus, YEARS_SAID_DAYS } from '../format.ts';
import { DAYS_PER_YEAR } from '../lexicon/quantities.ts';
import type { AskParameters } from '../question.ts';
import { pricingTermClause } from './pricing-term.ts';
import { searchEdgeNote } from './search-edge.ts';

/**
 * "Cheapest" answers from runNodes's time–cost frontier: the cheapest size (fewest GPU-hours) is the
 * answer; the notes show what going faster costs, at a few Pareto sizes a planner would weigh.
 */

/** Deadlines a plan is usually held to (a quarter, a month): the first Pareto size under each is shown. */
const FRONTIER_MILESTONE_DAYS: readonly number[] = [90, 30];
/** Faster sizes shown at most (with the fastest). */
const MAX_SHOWN = 3;

/** "+4.7%", "+366%": the extra GPU-hours over the cheapest. */
const extra = (gpuHours: number, cheapest: number): string => formatPercentChange(gpuHours / cheapest - 1);

/** A runNodes size as the answers say it, in parts a note or a headline joins its own way. */
export interface SizeParts {
  /** "8 nodes (64 GPUs)" */
  cluster: string;
  /** "372 days" */
  days: string;
  /** "572k GPU-hours ($1.14M, +4.7%)": its cost when priced, and its extra over the cheapest when given. */
  spend: string;
}

export function sizeParts(p: NodesSizeJson, q: AskParameters, cheapestGpuHours?: number): SizeParts {
  const { cost } = p;
  const more = cheapestGpuHours === undefined ? [] : [extra(p.gpuHours, cheapestGpuHours)];
  const money = [...(cost === undefined ? [] : [moneyText(cost, q.currency)]), ...more];
  return { cluster: nodesGpus(p), days: formatDays(p.days), spend: `${compactCount(p.gpuHours)} GPU-hours${money.length > 0 ? ` (${money.join(', ')})` : ''}` };
}

/** "8 nodes (64 GPUs): 372 days for 572k GPU-hours ($1.14M)": a runNodes size's time and price, its cost when priced. */
export function sizeText(p: NodesSizeJson, q: AskParameters, cheapestGpuHours?: number): string {
  const { cluster, days, spend } = sizeParts(p, q, cheapestGpuHours);
  return `${cluster}: ${days} for ${spend}`;
}

/**
 * The Pareto sizes faster than the cheapest worth showing: the first under each milestone the cheapest
 * misses, then the fastest; the next faster size when that leaves fewer than two.
 */
export function shownSizes(a: NodesOkJson): FrontierSizeJson[] {
  const faster = (a.frontier ?? []).filter((p) => p.pareto && p.nodes > a.nodes).sort((x, y) => x.nodes - y.nodes);
  const picks = FRONTIER_MILESTONE_DAYS.filter((d) => a.days > d).map((d) => faster.find((p) => p.days <= d));
  if (a.fastest !== undefined && a.fastest.nodes !== a.nodes) picks.push(faster.find((p) => p.nodes === a.fastest?.nodes) ?? a.fastest);
  const shown = [...new Set(picks.filter((p): p is FrontierSizeJson => p !== undefined))];
  if (shown.length < 2 && faster[0] !== undefined && !shown.includes(faster[0])) shown.unshift(faster[0]);
  return shown.sort((x, y) => x.nodes - y.nodes).slice(-MAX_SHOWN);
}

/**
 * The faster Pareto size a cheapest plan of over a year is weighed against: the first within the first milestone (a
 * quarter), else within a year, else the fastest; undefined within a year, or where none is faster.
 */
export function fasterThanAYear(a: NodesOkJson): FrontierSizeJson | undefined {
  if (a.days <= DAYS_PER_YEAR) return undefined;
  const faster = (a.frontier ?? []).filter((p) => p.pareto && p.nodes > a.nodes).sort((x, y) => x.nodes - y.nodes);
  const within = (days: number): FrontierSizeJson | undefined => faster.find((p) => p.days <= days);
  const shown = within(FRONTIER_MILESTONE_DAYS[0] ?? DAYS_PER_YEAR) ?? within(DAYS_PER_YEAR) ?? a.fastest;
  return shown === undefined || shown.nodes === a.nodes ? undefined : shown;
}

/**
 * A cheapest size's days past a year, said so beside them: "402 days (over a year)"; from two years formatDays says
 * the years itself ("3,021 days (8.3 years)").
 */
export const yearLongDays = (days: number): string =>
  `${formatDays(days)}${days > DAYS_PER_YEAR && days < YEARS_SAID_DAYS ? ' (over a year)' : ''}`;

/**
 * A cheapest plan that takes over a year is seldom one to run (the model is stale, the hardware a generation old): its
 * headline names a faster Pareto size beside it, so the trade-off reads at once and not only in the notes. The first
 * faster size within the first milestone (a quarter), else within a year, else the fastest; undefined within a year.
 * `days` are the cheapest size's, said as over a year; `faster` the faster size, each figure after the size it is of:
 * "7 nodes (56 GPUs), 402 days (over a year), …; faster: 36 nodes (288 GPUs) train it in 80.8 days for …". A bare
 * "over a year: 36 nodes … 80.8 days" read as if the 36 nodes took over a year (QA).
 */
export function overAYear(a: NodesOkJson, q: AskParameters): { days: string; faster: string } | undefined {
  const shown = fasterThanAYear(a);
  if (shown === undefined) return undefined;
  const { cluster, days, spend } = sizeParts(shown, q, a.gpuHours);
  return { days: yearLongDays(a.days), faster: `faster: ${cluster} train${shown.nodes === 1 ? 's' : ''} it in ${days} for ${spend}` };
}

/**
 * The notes of a cheapest answer: how it was chosen, the trade-off at the sizes shownSizes picks, then
 * runNodes's larger-batch hint for the fastest size (its message), how to ask for a deadline and, unpriced, for a cost in money,
 * with a pricing term the question (`question`, as typed) names said to price nothing (pricing-term.ts).
 */
export function frontierNotes(a: NodesOkJson, q: AskParameters, question = ''): string[] {
  const searched = a.frontier?.length ?? a.searches;
  const shown = shownSizes(a);
  const fastest = a.fastest?.nodes;
  return [
    `The fewest GPU-hours of ${countOf(searched, 'cluster size')} that run (the smallest that fits, then doubling while training gets faster); a faster cluster spends more GPU-hours as its MFU falls.`,
    ...shown.map((p) => `${p.nodes === fastest ? 'The fastest, ' : 'Faster: '}${sizeText(p, q, a.gpuHours)}.`),
    ...(shown.length === 0 ? ['No larger cluster trains it faster: the cheapest is also the fastest.'] : []),
    ...(a.largerBatch === undefined ? [] : [a.largerBatch.message]),
    // After the hint that qualifies the fastest: that no larger size was searched.
    ...searchEdgeNote(a.note),
    'Give a deadline ("in 60 days") for the fewest nodes that meet it.',
    ...(q.pricePerGpuHour === undefined ? [`Give a price ("at $2/GPU-hour") for the cost in money: GPU-hours × the price per GPU-hour.${pricingTermClause(question)}`] : []),
  ];
}
