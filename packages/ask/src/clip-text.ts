/**
 * `text` cut to at most `max` UTF-16 code units (JavaScript's length, never fewer than the characters a platform's
 * limit counts), an ellipsis marking the cut. The cut falls between whole code points, never inside a surrogate pair:
 * half a pair is an isolated surrogate, ill-formed UTF-16 (The Unicode Standard, §3.8 "Surrogates" and §3.9 "Unicode
 * Encoding Forms"), which JSON carries as "\ud83d" and clients draw as U+FFFD. A grapheme of several code points (a
 * flag, a family emoji) may still be cut between them.
 */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  if (isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** A high (leading) surrogate, U+D800–U+DBFF: the first half of a pair (The Unicode Standard, §3.8, D71). */
const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
