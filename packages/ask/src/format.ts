import { daysToYears, formatCount } from '@trainplan/units';

/** Days as chat writes them: "30 days", "8.2 days", "1 day". */
export const formatDays = (days: number): string => {
  const rounded = Number(days.toFixed(days >= 100 ? 0 : 1));
  // Two years and more also in years: "2791 days (7.6 years)" reads at a glance.
  const years = days >= 730 ? ` (${daysToYears(days).toFixed(1)} years)` : '';
  return `${rounded} day${rounded === 1 ? '' : 's'}${years}`;
};

/** A count as chat writes it: "300B", "2T", "15.6T", "1.2M" (units' formatCount without the space). */
export const compactCount = (count: number): string => formatCount(count).replace(/\s+/g, '');
