import type { NotRead, ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';

/** One phrase not read, as the answer says it: 'Not read: "at 700W per GPU" (power is not modelled: …)', 'Not read: the network "…" (…)'. */
export const notReadNote = (n: NotRead): string => `${n.heading ?? 'Not read'}: ${n.phrase} (${n.why}).`;

/**
 * The answer with what the question said and no plan read said first among its notes: a reader sees that "at 700W" or
 * "over 200Gbps ethernet" did not shape the numbers, rather than take them as planned with it.
 */
export function withNotRead(q: ParsedQuestion, a: Answer): Answer {
  const notes = (q.notRead ?? []).map(notReadNote).filter((n) => !a.notes.includes(n));
  return notes.length === 0 ? a : { ...a, notes: [...notes, ...a.notes] };
}
