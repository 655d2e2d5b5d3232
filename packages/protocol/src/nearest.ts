/**
 * The optimal-string-alignment distance (Levenshtein with adjacent transpositions, each one edit):
 * "modle" is one edit from "model", as "global-bach" is from "global-batch". Damerau 1964; the
 * same measure commander.js suggests unknown options by (lib/suggestSimilar.js).
 *
 * With `maxEdits`, only whether it is within that many: the distance when it is, else maxEdits + 1, in time
 * O(min(|a|, |b|) · maxEdits) instead of O(|a| · |b|) (QA: a 1 MB model id took the CLI 79 s). Each edit changes the
 * length by at most one, so strings whose lengths differ by more are that far apart; a cell more than maxEdits off
 * the diagonal needs more than maxEdits edits, so only the band within it is computed (Ukkonen 1985, "Algorithms for
 * approximate string matching", §2); and once two rows running hold nothing within it, no later cell can. Three rows
 * are kept (the transposition reads the row two back), each as long as the shorter string.
 */
export function editDistance(a: string, b: string, maxEdits = Number.POSITIVE_INFINITY): number {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  // The distance is at most the longer length (substitute the shorter's letters, insert the rest): a bound past it changes nothing.
  const over = Math.min(maxEdits, long.length) + 1;
  if (long.length - short.length >= over) return over;
  const band = over - 1;
  let before = new Int32Array(short.length + 1).fill(over);
  let last = Int32Array.from({ length: short.length + 1 }, (_, j) => Math.min(j, over));
  let row = new Int32Array(short.length + 1);
  let lastWithin = true;
  for (let i = 1; i <= long.length; i++) {
    const lo = Math.max(1, i - band);
    const hi = Math.min(short.length, i + band);
    row[lo - 1] = lo === 1 ? Math.min(i, over) : over;
    let within = row[lo - 1]! < over;
    for (let j = lo; j <= hi; j++) {
      const cost = long[i - 1] === short[j - 1] ? 0 : 1;
      let best = Math.min(last[j]! + 1, row[j - 1]! + 1, last[j - 1]! + cost);
      if (i > 1 && j > 1 && long[i - 1] === short[j - 2] && long[i - 2] === short[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      row[j] = Math.min(best, over);
      if (best < over) within = true;
    }
    // The cell the next row reads just past this row's band.
    if (hi < short.length) row[hi + 1] = over;
    if (!within && !lastWithin) return over;
    lastWithin = within;
    [before, last, row] = [last, row, before];
  }
  return last[short.length]!;
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
  // Longer than every name by more than MAX_EDITS, it begins none and is a slip of none: nothing to compare.
  if (typed.length > known.reduce((most, name) => Math.max(most, name.length), 0) + MAX_EDITS) return [];
  const word = typed.toLowerCase().replaceAll('_', '-');
  // A name the typed one begins is meant before one a slip away: "h100" is h100-sxm, not h200.
  const prefixed = word.length >= 3 ? known.filter((name) => name.startsWith(word) && name !== word) : [];
  if (prefixed.length > 0) return prefixed;
  const scored = known.map((name) => ({ name, edits: editDistance(word, name, MAX_EDITS) }))
    .filter(({ edits }) => edits <= MAX_EDITS && edits * 2 < word.length);
  if (scored.length > 0) {
    const best = Math.min(...scored.map(({ edits }) => edits));
    return scored.filter(({ edits }) => edits === best).map(({ name }) => name);
  }
  return [];
}

/** " (did you mean a?)", " (did you mean a or b?)", " (did you mean a, b or c?)" for the names nearestAll gave; '' for none. */
export function meantPhrase(meant: readonly string[]): string {
  if (meant.length === 0) return '';
  return ` (did you mean ${meant.length === 1 ? meant[0] : `${meant.slice(0, -1).join(', ')} or ${meant.at(-1)}`}?)`;
}
