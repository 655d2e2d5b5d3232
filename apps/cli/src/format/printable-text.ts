/**
 * Characters a terminal acts on rather than shows: the C0 and C1 controls and DEL (a line break, ESC starting a colour or
 * cursor sequence), the Unicode line and paragraph separators, and the bidirectional embeddings, overrides and isolates that
 * reorder what follows them ("Trojan Source", Boucher and Anderson 2021, arXiv:2111.00169).
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text the input chose (a model's name, an unknown preset id) made safe to print: each such character written as JSON
 * writes it ("\n", "\u001b"), so a name cannot break a report's lines or recolour the terminal (QA: a model named
 * "<b>x</b>\n\u001b[31mred" split the header and turned the report red).
 */
export const printable = (text: string): string =>
  text.replace(UNPRINTABLE, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
