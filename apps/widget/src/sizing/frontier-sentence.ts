import { daysText, type FrontierSizeJson, type NodesOkJson } from '@trainplan/protocol';
import { countOf, formatCount, formatPercent } from '@trainplan/units';

/** How many more GPU-hours than the cheapest: "+6%". */
const extra = (s: FrontierSizeJson, cheapestGpuHours: number): string => `+${formatPercent(s.gpuHours / cheapestGpuHours - 1, 0)}`;

/**
 * The time–cost curve in one sentence: the cheapest size with its days and GPU-hours, then the reader's own
 * node count (when it is on the curve and neither end) and the fastest, each with its days and how many
 * more GPU-hours than the cheapest it takes:
 * "Cheapest: 16 nodes, 155.0 days, 477 k GPU-hours; 128 nodes: 20.5 days for +6%; fastest: 8192 nodes, 1.2 days for +287%."
 * Days as the CLI says them (protocol's daysText): a size that trains within a day in hours ("11.0 hours", not "0.458 days").
 */
export function frontierSentence(answer: NodesOkJson, currentNodes: number): string {
  const base = answer.gpuHours;
  const parts = [`Cheapest: ${countOf(answer.nodes, 'node')}, ${daysText(answer.days)}, ${formatCount(base)} GPU-hours`];
  const fastest = answer.fastest;
  const current = answer.frontier?.find((s) => s.nodes === currentNodes);
  if (current && current.nodes !== answer.nodes && current.nodes !== fastest?.nodes) {
    parts.push(`${countOf(current.nodes, 'node')}: ${daysText(current.days)} for ${extra(current, base)}`);
  }
  if (fastest && fastest.nodes !== answer.nodes) {
    parts.push(`fastest: ${countOf(fastest.nodes, 'node')}, ${daysText(fastest.days)} for ${extra(fastest, base)}`);
  }
  return `${parts.join('; ')}.`;
}
