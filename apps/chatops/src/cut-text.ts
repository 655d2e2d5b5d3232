import { clipText } from '@trainplan/ask';

/**
 * Cutting text to a platform's length limit without losing a word in the middle: a cut mid-word ("…the fewest GP…")
 * reads as a typo and hides that anything is missing. Lengths are UTF-16 code units (String.length), which are never
 * fewer than the characters Slack and Discord count, so a text within a limit so counted is within theirs.
 */

/** The index where `text` may be cut to keep at most `room` code units: after the last whole word, else a whole code point. */
function wordEnd(text: string, room: number): number {
  if (room <= 0) return 0;
  // The last space or line break at or before the room: the text before it is whole words (and whole entities,
  // such as Slack's "&amp;", which hold no space).
  const breakAt = Math.max(text.lastIndexOf(' ', room), text.lastIndexOf('\n', room));
  if (breakAt > 0) return text.slice(0, breakAt).trimEnd().length;
  // One unbroken word longer than the room (a URL): cut between whole code points, never halving a surrogate pair
  // (The Unicode Standard, §3.8, D71: U+D800–U+DBFF is a pair's first half).
  const code = text.charCodeAt(room - 1);
  return code >= 0xd800 && code <= 0xdbff ? room - 1 : room;
}

/**
 * `text` within `max` code units: whole if it fits, else cut after its last whole word that leaves room for
 * `notice` (e.g. "… (cut to Discord's limit)"), which then ends it, so the reader knows more was there.
 */
export function cutAtWord(text: string, max: number, notice: string): string {
  if (text.length <= max) return text;
  if (notice.length >= max) return clipText(notice, max);
  return `${text.slice(0, wordEnd(text, max - notice.length))}${notice}`;
}

/**
 * `text` split where it would be cut to `max` code units with an ellipsis: the head (whole words and "…", within
 * `max`) and the rest, which the caller carries elsewhere (Discord's title into the description), or undefined when
 * it fits whole.
 */
export function splitAtWord(text: string, max: number): { head: string; rest: string | undefined } {
  if (text.length <= max) return { head: text, rest: undefined };
  const end = wordEnd(text, max - 1);
  return { head: `${text.slice(0, end)}…`, rest: text.slice(end).trimStart() };
}
