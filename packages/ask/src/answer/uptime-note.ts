import { formatShare, toDays } from '@trainplan/units';
import type { AskParameters } from '../question.ts';
import { compactCount, formatDays } from '../format.ts';
import type { AnswerFigure } from './answer-types.ts';

/**
 * What uptime a nodes-search answer's days and GPU-hours assume, said as the CLI's `trainplan nodes` says it (apps/cli
 * nodes-uptime.ts uptimeLine): at 100%, that no restarts or failures are counted and how to count them; at an uptime
 * asked, the days training and the days lost beside them (the protocol's days are the ideal days over the uptime, so
 * days × u train and days × (1 − u) are lost). Meta's figure: "higher than 90% effective training time" for Llama 3 405B
 * (Dubey et al. 2024, arXiv:2407.21783, §3.3.4). Nothing where the answer names no time.
 */
export function uptimeSaid(p: AskParameters, spent: { days: number; gpuHours?: number } | undefined): { assumptions: string[]; notes: string[] } {
  if (spent === undefined) return { assumptions: [], notes: [] };
  if (p.uptime === undefined) return { assumptions: ['at 100% uptime: no restarts or failures counted (say "at 90% uptime" for Meta\'s Llama 3 figure)'], notes: [] };
  const u = p.uptime;
  if (u === 1) return { assumptions: [], notes: ['At 100% uptime, as asked: no restarts or failures counted.'] };
  // Every figure is the protocol's wall clock (wallClockFigures puts the time to train on it too), as the CLI's nodes says it.
  const hours = spent.gpuHours === undefined ? '' : ` and ${compactCount(spent.gpuHours)} GPU-hours`;
  return {
    assumptions: [],
    notes: [`At ${formatShare(u)} uptime, as asked: ${formatDays(spent.days)}${hours} on the wall clock, of which ${formatDays(spent.days * u)} training `
      + `and ${formatDays(spent.days * (1 - u))} lost to restarts, failures and checkpoint stalls.`],
  };
}

/**
 * An answer's figures with the time to train on the wall clock at the uptime asked: the estimate's own figure is the ideal
 * time (the configuration's estimate stays at full uptime, protocol nodes-response-schema.ts), while the headline, the cost
 * and the budget are the protocol's wall-clock days and GPU-hours. QA: the headline said 29.7 days and the figure 26.7 days
 * · 600k GPU-hours for one plan at 90% uptime, where the CLI's nodes says 29.7 days · 666,714 GPU-hours. `spent` is the
 * protocol's days and GPU-hours for the plan shown; unchanged at no uptime asked or with no time.
 */
export function wallClockFigures(figures: readonly AnswerFigure[], p: AskParameters, spent: { days?: number | undefined; gpuHours?: number | undefined; tokens?: number | undefined } | undefined): AnswerFigure[] {
  const u = p.uptime;
  if (u === undefined || u === 1 || spent?.days === undefined || spent.gpuHours === undefined || spent.tokens === undefined) return [...figures];
  const { days, gpuHours, tokens } = spent;
  const value = `${formatDays(days)} for ${compactCount(tokens)} tokens · ${compactCount(gpuHours)} GPU-hours, on the wall clock at ${formatShare(u)} uptime (${formatDays(days * u)} of it training)`;
  return figures.map((f) => (f.label === 'Time to train' ? { ...f, value } : f));
}

/**
 * Beside a widget link of a plan on the wall clock at an uptime below 100%: the widget has no uptime (apps/widget), so it
 * plans the scenario linked at full uptime, its days and GPU-hours the ideal ones (days × u, GPU-hours × u of the
 * protocol's wall-clock figures), and its own search for the deadline carried (&days=) sizes the cluster at full uptime,
 * fewer nodes than the answer's. QA: 513 nodes at 90% uptime in 59 days, where the link showed 53.1 days and 5.23M
 * GPU-hours, and a widget search 459 nodes. Nothing where no link is given, no uptime below 1 asked, or no time planned.
 */
export function widgetUptimeNote(
  p: AskParameters, linked: boolean, spent: { days?: number | undefined; gpuHours?: number | undefined } | undefined, sized = true,
): string[] {
  const u = p.uptime;
  if (!linked || u === undefined || u >= 1 || spent?.days === undefined) return [];
  const hours = spent.gpuHours === undefined ? '' : ` and ${compactCount(spent.gpuHours * u)} GPU-hours`;
  // A size the deadline's search found (`sized`): the widget's own search for that deadline may find fewer nodes.
  const search = p.deadlineSeconds === undefined || !sized ? ''
    : `, and a search there for the deadline (${formatDays(toDays(p.deadlineSeconds))}) sizes the cluster at full uptime, so it may take fewer nodes than here`;
  return [`The widget link plans at full uptime (the widget has no uptime setting): ${formatDays(spent.days * u)}${hours} there, the ideal; `
    + `the figures here are on the wall clock at ${formatShare(u)} uptime${search}.`];
}
