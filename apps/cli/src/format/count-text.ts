/** A count grouped by thousands ("12,288"), as the reports write node and GPU counts, batches and ranks. */
export const grouped = (n: number): string => n.toLocaleString('en-US');

/** A count of a noun, grouped and pluralised: "1 node", "1,536 nodes" (units' countOf, grouped). */
export const countText = (n: number, noun: string): string => `${grouped(n)} ${noun}${n === 1 ? '' : 's'}`;

/** A large count with its scale letter against the figure ("8.07B", "172k", "72"): units' formatCountCompact. */
export { formatCountCompact as compactCount } from '@trainplan/units';
