import type { Layout } from '../question.ts';
import { writtenCount } from './numbers.ts';
import { sizePatterns, type Scanner } from './quantities.ts';

/**
 * Two parallel layouts or more in one question ("what's faster: tp 8 pp 8 or tp 4 pp 16", "tp 4 or 8"), grouped by where
 * their sizes are written: a new layout starts at a size its layout already has, or after "or", "vs", "versus",
 * "compared to", "against". Without this, takeParallelism reads each size's first mention and the other layout is dropped unsaid.
 */

/** The sizes a layout is made of, in takeParallelism's order. */
export const LAYOUT_FIELDS = ['tensor', 'pipeline', 'context', 'data', 'virtualStages', 'microBatchSize'] as const;
type LayoutField = (typeof LAYOUT_FIELDS)[number];

interface Mention {
  field: LayoutField;
  value: number;
  index: number;
  length: number;
}

/** Words that set one layout against another. */
const SEPARATOR = /\b(?:or|vs\.?|versus|compared (?:to|with)|against|instead of)\b/;
/** "tp 4 or 8": a second size for the field just named, a number alone after "or" (not "or 64 h100", a count of something). */
const BARE_ALTERNATIVE = /^\s*(?:or|vs\.?|versus)\s+(\d+(?:\.\d+)?)(?=\s*(?:$|[,?;:.!)]|(?:on|for|with|at|and|in|of|to|which|what|is)\b))/;

/** Every size a layout is made of, where the text writes it: names after the number ("tp 8") read first, then before it ("8-way tp"). */
function mentionsOf(text: string): Mention[] {
  let rest = text;
  const found: Mention[] = [];
  for (const form of ['after', 'before'] as const) {
    for (const field of LAYOUT_FIELDS) {
      const pattern = new RegExp(sizePatterns(field)[form].source, 'g');
      for (const m of rest.matchAll(pattern)) found.push({ field, value: writtenCount(m[1], m[2]), index: m.index, length: m[0].length });
      rest = rest.replace(pattern, (x) => ' '.repeat(x.length));
    }
  }
  // "tp 4 or 8": the bare number after a mention is the same size again. Read in the text as written, not `rest`: a
  // number is the alternative of the size named just before it alone ("tp 4 pp 4 or 8" is PP 8, never TP 8 as well).
  for (const m of [...found]) {
    const bare = BARE_ALTERNATIVE.exec(text.slice(m.index + m.length));
    if (bare?.[1] === undefined) continue;
    const at = m.index + m.length + bare[0].length - bare[1].length;
    found.push({ field: m.field, value: Number(bare[1]), index: at, length: bare[1].length });
  }
  return found.sort((a, b) => a.index - b.index);
}

/** The mentions as layouts: a new one at a separator, or at a size the current one has already. */
function groupsOf(text: string, mentions: readonly Mention[]): Mention[][] {
  const groups: Mention[][] = [];
  let previous: Mention | undefined;
  for (const m of mentions) {
    const current = groups.at(-1);
    const between = previous === undefined ? '' : text.slice(previous.index + previous.length, m.index);
    if (current === undefined || SEPARATOR.test(between) || current.some((x) => x.field === m.field)) groups.push([m]);
    else current.push(m);
    previous = m;
  }
  return groups;
}

/**
 * The layouts after the first, each as written (the first is left in the text for takeParallelism to read), their sizes
 * blanked; empty when the question states one layout or none.
 */
export function takeOtherLayouts(s: Scanner): Layout[] {
  const groups = groupsOf(s.text, mentionsOf(s.text));
  if (groups.length < 2) return [];
  for (const m of groups.slice(1).flat()) s.blank(m);
  return groups.slice(1).map((g) => Object.fromEntries(g.map((m) => [m.field, m.value])) as Layout);
}

/**
 * A later layout as compared: a change to the first, or a layout of its own. One that names only sizes the first names
 * ("tp 4 pp 4 or pp 8", "tp 8 pp 4 vp 5 or pp 8") changes those and keeps the first's others (TP 4 · PP 8; TP 8 · PP 8 ·
 * VP 5). One that names a size the first does not ("tp 8 pp 4 vp 5 or tp 8 pp 4 cp 2") is a layout of its own and
 * keeps none of the first's: the question's defaults fill what it leaves out, as they would asked alone (no VP 5 there).
 */
export function comparedLayout(first: Layout, later: Layout): Layout {
  const named = LAYOUT_FIELDS.filter((f) => later[f] !== undefined);
  const changesFirst = named.every((f) => first[f] !== undefined);
  return layoutOfFields(changesFirst ? { ...first, ...later } : later);
}

/** The first layout's sizes, as takeParallelism read them. */
export const layoutOfFields = (p: Layout): Layout =>
  Object.fromEntries(LAYOUT_FIELDS.flatMap((f) => (p[f] === undefined ? [] : [[f, p[f]]]))) as Layout;
