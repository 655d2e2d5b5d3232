import { nvlinkDomainsText } from '@trainplan/protocol';
import { countOf, daysToYears, formatCount, formatCountExact, formatDuration } from '@trainplan/units';

/** Days as chat writes them: "30 days", "8.2 days", "1 day"; under a day, hours or minutes ("9.6 hours", "26 minutes"), never "0 days". */
export const formatDays = (days: number): string => {
  if (days < 0.95) return formatDuration(days * 86_400);
  const rounded = Number(days.toFixed(days >= 100 ? 0 : 1));
  // Two years and more also in years: "2,791 days (7.6 years)" reads at a glance.
  const years = days >= 730 ? ` (${daysToYears(days).toFixed(1)} years)` : '';
  return `${countOf(rounded, 'day')}${years}`;
};

/** "8 nodes (64 GPUs)", "1 node (1 GPU)", "2,048 nodes (16,384 GPUs)": a cluster as the answers' headlines count it. */
export const nodesGpus = (c: { nodes: number; gpus: number; nvlinkDomains?: { count: number; gpusEach: number } }): string =>
  `${countOf(c.nodes, 'node')} (${countOf(c.gpus, 'GPU')}${c.nvlinkDomains ? ` in ${nvlinkDomainsText(c.gpus, c.nvlinkDomains)}` : ''})`;

/** A count as chat writes it: "300B", "2T", "15.6T", "1.2M" (units' formatCount without the space). */
export const compactCount = (count: number): string => formatCount(count).replace(/\s+/g, '');

/** "$1.14M", "€952k", "480" with no currency given: an amount of money the plan spends, to three figures. */
export const moneyText = (amount: number, currency: string | undefined): string => `${currency ?? ''}${compactCount(amount)}`;

/** "$1M", "€500k", "$1.005M": a budget in money as stated, every digit (units' formatCountExact). */
export const statedMoney = (amount: number, currency: string | undefined): string => `${currency ?? ''}${formatCountExact(amount)}`;
