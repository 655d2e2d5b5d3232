import { DAYS_PER_MONTH } from '../lexicon/quantities.ts';
import { countOf } from '@trainplan/units';
import { formatDays } from '../format.ts';

/** A unit a time question asks its answer in besides days ("how many weeks", "how long in months"). */
export type AskedTimeUnit = 'hour' | 'week' | 'month';

const ASKED_UNIT = /\bhow many (hours|weeks|months)\b|\bhow long\b.*\bin (hours|weeks|months)\s*[?.!]?\s*$/;

/** The unit a (lower-case) question asks a time in, when not days: "how many weeks to train …" → 'week'. */
export function askedTimeUnit(text: string): AskedTimeUnit | undefined {
  const m = ASKED_UNIT.exec(text.toLowerCase());
  const unit = m?.[1] ?? m?.[2];
  return unit === undefined ? undefined : (unit.replace(/s$/, '') as AskedTimeUnit);
}

/** Days in that unit, to a tenth (whole hours): "7.0 weeks", "1.6 months", "1,169 hours". */
function inUnit(days: number, unit: AskedTimeUnit): string {
  if (unit === 'hour') return countOf(Math.round(days * 24), 'hour');
  const count = days / (unit === 'week' ? 7 : DAYS_PER_MONTH);
  const digits = count >= 100 ? count.toLocaleString('en-US', { maximumFractionDigits: 0 }) : count.toFixed(1);
  // A month is DAYS_PER_MONTH days, as a deadline in months is read (deadline.ts): said, as a month has no one length.
  return `${digits} ${unit}s${unit === 'month' ? ` of ${DAYS_PER_MONTH} days` : ''}`;
}

/**
 * A time to train as the question asks it: "48.7 days (7.0 weeks)" for "how many weeks", "48.7 days (1.6 months of 30 days)"
 * for "how many months"; formatDays' "48.7 days" (with years past two) for any other question.
 */
export function daysAsAsked(days: number, unit: AskedTimeUnit | undefined): string {
  if (unit === undefined) return formatDays(days);
  const dayText = countOf(Number(days.toFixed(days >= 100 ? 0 : 1)), 'day');
  return `${dayText} (${inUnit(days, unit)})`;
}
