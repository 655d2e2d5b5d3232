import { readDate, takeDate } from '../lexicon/dates.ts';
import { findUnreadTime, takeNamedSpan } from '../lexicon/named-spans.ts';
import { takeDeadline } from '../lexicon/quantities.ts';
import { asTyped } from './as-typed.ts';
import type { ParseState } from './state.ts';

/** The words a reader blanked out of `before` ("in 30 days"), as they stood there: `after` is `before` with them blanked. */
function blankedOf(before: string, after: string): string {
  let start = 0;
  while (start < before.length && before[start] === after[start]) start += 1;
  let end = before.length;
  while (end > start && before[end - 1] === after[end - 1]) end -= 1;
  return before.slice(start, end).trim().replace(/\s+/g, ' ');
}

/** The deadline written: a length, or a date read against today; each written but not read kept to say so. */
export type DeadlineRead = ReturnType<typeof readDeadline>;

/** The deadline, read after the training budget and before the layouts. */
export function readDeadline(st: ParseState) {
  const { s, text, options, stated, problems, notRead } = st;
  // "Within a fortnight", "over the weekend" before the units: "a quarter" is never left to a default 30 days.
  const beforeLength = s.text;
  const length = takeNamedSpan(s) ?? takeDeadline(s);
  // "by 31 december", "by end of month": the days to the date from the caller's today (lexicon/dates.ts); without today,
  // or a date written 1/2/2027 (month or day first?), read only to say it was not understood, never guessed as a length.
  // Beside a length ("in 30 days by 31 december"), the length is planned and the date said as a second deadline.
  const lengthWritten = length === undefined ? undefined : blankedOf(beforeLength, s.text);
  const secondDate = lengthWritten === undefined ? undefined : takeDate(s);
  if (secondDate !== undefined) {
    notRead.push({ phrase: `"${asTyped(text, secondDate.phrase)}"`, why: `a second deadline; "${asTyped(text, lengthWritten ?? '')}" is planned, say one` });
  }
  const date = length === undefined ? takeDate(s) : undefined;
  const dated = date === undefined || options.today === undefined ? undefined : readDate(date, options.today, asTyped(text, date.phrase));
  if (dated !== undefined && 'problem' in dated) problems.push(dated.problem);
  const deadline = length ?? (dated?.ok === true ? dated.deadline : undefined);
  const dateDeadline = date !== undefined && (dated === undefined || 'unread' in dated) ? asTyped(text, date.phrase) : undefined;
  const unreadTime = deadline === undefined && date === undefined ? findUnreadTime(s.text) : undefined;
  stated.deadlineSeconds = deadline?.seconds;
  return { date, dated, deadline, dateDeadline, unreadTime };
}
