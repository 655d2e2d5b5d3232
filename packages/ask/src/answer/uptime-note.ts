import { formatShare } from '@trainplan/units';
import type { AskParameters } from '../question.ts';
import { compactCount, formatDays } from '../format.ts';

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
  // The figures are the plan's estimate, its ideal time; the headline, the cost and the budget are the protocol's wall clock.
  const hours = spent.gpuHours === undefined ? '' : ` and ${compactCount(spent.gpuHours)} GPU-hours`;
  return {
    assumptions: [],
    notes: [`At ${formatShare(u)} uptime, as asked: ${formatDays(spent.days)}${hours} on the wall clock, of which ${formatDays(spent.days * u)} training (the time to train figure) `
      + `and ${formatDays(spent.days * (1 - u))} lost to restarts, failures and checkpoint stalls.`],
  };
}
