/**
 * The optimal-string-alignment distance (Levenshtein with adjacent transpositions, each one edit):
 * "modle" is one edit from "model", as "global-bach" is from "global-batch". Damerau 1964; the
 * same measure commander.js suggests unknown options by (lib/suggestSimilar.js).
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** At most this many edits, and fewer than half the typed word's letters, so a short slip is not matched to anything at all. */
const MAX_EDITS = 2;

/**
 * The known name a typed one most likely meant: the only name the typed one begins (`--global` →
 * `--global-batch`), else the nearest within MAX_EDITS (case and `_` for `-` ignored); undefined when
 * none is near, or when two are equally near (the message cannot say which).
 */
export function nearest(typed: string, known: readonly string[]): string | undefined {
  const all = nearestAll(typed, known);
  return all.length === 1 ? all[0] : undefined;
}

/**
 * Every known name as near as the nearest, in the order given: the names the typed one begins, else
 * those the fewest edits away (nearest's rules); one for a clear slip, several when they tie
 * ("llama3-405b" is two edits from both llama3-70b and llama3.1-405b), none when nothing is near.
 */
export function nearestAll(typed: string, known: readonly string[]): string[] {
  const word = typed.toLowerCase().replaceAll('_', '-');
  // A name the typed one begins is meant before one a slip away: "h100" is h100-sxm, not h200.
  const prefixed = word.length >= 3 ? known.filter((name) => name.startsWith(word) && name !== word) : [];
  if (prefixed.length > 0) return prefixed;
  const scored = known.map((name) => ({ name, edits: editDistance(word, name) }))
    .filter(({ edits }) => edits <= MAX_EDITS && edits * 2 < word.length);
  if (scored.length > 0) {
    const best = Math.min(...scored.map(({ edits }) => edits));
    return scored.filter(({ edits }) => edits === best).map(({ name }) => name);
  }
  return [];
}
