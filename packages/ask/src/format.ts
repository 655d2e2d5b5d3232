import { nvlinkDomainsText } from '@trainplan/protocol';
import { countOf, formatCountCompact, formatCountExact, formatDuration, formatFixedGrouped } from '@trainplan/units';
import { DAYS_PER_YEAR } from './lexicon/quantities.ts';

/** "7.22e24": a FLOP count as papers write one, to three figures. */
export const flopText = (flops: number): string => flops.toExponential(2).replace('e+', 'e');

/** From two years, days are also said in years: "2,791 days (7.6 years)" reads at a glance; a year of DAYS_PER_YEAR, as questions are read. */
export const YEARS_SAID_DAYS = 730;

/**
 * Days as chat writes them: "30 days", "8.2 days", "1 day", "3,140.1 days (8.6 years)"; under a day, hours or minutes
 * ("9.6 hours", "26 minutes"), never "0 days". The words are units' formatDuration's, as the CLI and the widget say a time to
 * train, figure and all (QA: 23.95 days read "23.9 days" here, toFixed's rounding, where the CLI said "24.0 days"; 3,140.06
 * "3,140 days" beside the CLI's "3,140.1 days"), less a ".0" chat does not write ("30 days" for "30.0 days": the same
 * number). From two years the same days are also said in years, to one decimal as the days are.
 */
export const formatDays = (days: number): string => {
  const said = formatDuration(days * 86_400);
  if (!said.endsWith(' days')) return said;
  const figure = said.slice(0, -' days'.length).replace(/\.0$/, '');
  const years = days >= YEARS_SAID_DAYS ? ` (${formatFixedGrouped(days / DAYS_PER_YEAR, 1)} years)` : '';
  return `${figure === '1' ? '1 day' : `${figure} days`}${years}`;
};

/** "8 nodes (64 GPUs)", "1 node (1 GPU)", "2,048 nodes (16,384 GPUs)": a cluster as the answers' headlines count it. */
export const nodesGpus = (c: { nodes: number; gpus: number; nvlinkDomains?: { count: number; gpusEach: number; gpusUsedEach?: number } }): string =>
  `${countOf(c.nodes, 'node')} (${countOf(c.gpus, 'GPU')}${c.nvlinkDomains ? ` in ${nvlinkDomainsText(c.gpus, c.nvlinkDomains)}` : ''})`;

/** Words asking a count of racks: "how many GB200 NVL72 racks", "number of racks", "racks do I need". */
const ASKS_RACKS = /\bhow many\b[^?]*\bracks\b|\bnumber of racks\b|\bracks\s+(?:do|would|will|are|should)\s+(?:i|we|you)?\s*need/;

/**
 * A cluster as a racks question counts it, racks first: "68 racks (1,216 nodes of 4 GPUs, 4,864 GPUs; the last rack holding
 * 40)" (QA: "how many gb200 nvl72 racks …" led with the nodes, the racks in brackets). A rack is one NVLink domain (a GB200
 * NVL72 rack: 18 trays of 4 GPUs, 72 GPUs on one NVLink switch), so the racks are the search's nvlinkDomains: ⌈GPUs / 72⌉,
 * the last one partly filled where the GPUs are no multiple of 72. nodesGpus where the question asks no racks, or the
 * node is its own NVLink domain (an H100 node), whose racks no preset models.
 */
export function clusterAsAsked(c: { nodes: number; gpus: number; nvlinkDomains?: { count: number; gpusEach: number; gpusUsedEach?: number } }, text: string): string {
  const domains = c.nvlinkDomains;
  if (domains === undefined || !ASKS_RACKS.test(text.toLowerCase())) return nodesGpus(c);
  const last = c.gpus - (domains.count - 1) * domains.gpusEach;
  // Placed in equal segments (the planner's placedDomainGpus: 128 GPUs as 2 × 64), every rack holds as many.
  const partly = domains.gpusUsedEach !== undefined ? `; ${domains.gpusUsedEach} in each rack`
    : last === domains.gpusEach ? '' : domains.count === 1 ? `; the rack holding ${last}` : `; the last rack holding ${last}`;
  return `${countOf(domains.count, 'rack')} (${countOf(c.nodes, 'node')} of ${c.gpus / c.nodes} GPUs, ${countOf(c.gpus, 'GPU')}${partly})`;
}

/** A count as chat writes it: "300B", "2T", "15.6T", "1.2M" (units' formatCountCompact). */
export const compactCount = (count: number): string => formatCountCompact(count);

/** "$1.14M", "€952k", "480" with no currency given: an amount of money the plan spends, to three figures. */
export const moneyText = (amount: number, currency: string | undefined): string => `${currency ?? ''}${compactCount(amount)}`;

/** "$1M", "€500k", "$1.005M": a budget in money as stated, every digit (units' formatCountExact). */
export const statedMoney = (amount: number, currency: string | undefined): string => `${currency ?? ''}${formatCountExact(amount)}`;
