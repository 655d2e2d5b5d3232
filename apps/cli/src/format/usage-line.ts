/** The width the help keeps: every line but an example command (which is pasted whole) fits in it. */
export const HELP_WIDTH = 100;

/**
 * The synopsis's words, split only at spaces outside brackets, so `[--objective A|B]` and
 * `(--nodes N | --gpus N)` never break across lines.
 */
function groups(synopsis: string): string[] {
  const words: string[] = [];
  let depth = 0;
  let word = '';
  for (const ch of synopsis) {
    if (ch === ' ' && depth === 0) {
      if (word !== '') words.push(word);
      word = '';
      continue;
    }
    if (ch === '[' || ch === '(') depth += 1;
    if (ch === ']' || ch === ')') depth = Math.max(0, depth - 1);
    word += ch;
  }
  if (word !== '') words.push(word);
  return words;
}

/**
 * `Usage: trainplan <command> …` filled to `width` columns, each further line hung under the first
 * option (after `trainplan <command> `). The one-line synopsis stays as it is for usage errors.
 */
export function usageLine(synopsis: string, width: number = HELP_WIDTH): string {
  const [program = '', command = '', ...rest] = groups(synopsis);
  const head = `Usage: ${program} ${command}`;
  const indent = ' '.repeat(head.length + 1);
  const lines = [head];
  for (const word of rest) {
    const last = lines[lines.length - 1]!;
    // A word longer than a line still follows the head: a line never starts with nothing on it.
    if (last !== head && last.length + 1 + word.length > width) lines.push(indent + word);
    else lines[lines.length - 1] = `${last} ${word}`;
  }
  return lines.join('\n');
}
