import { comparedLayout, layoutOfFields, takeOtherLayouts } from '../lexicon/layouts.ts';
import { takeParallelism } from '../lexicon/quantities.ts';
import { findUnreadLength } from '../lexicon/serving.ts';
import type { ParseState } from './state.ts';

/** A context length written but not read, seen once the layout's own lengths are taken. */
export type LayoutsRead = ReturnType<typeof readLayouts>;

/** The parallel layout written, and the layouts compared with it ("tp 8 pp 8 or tp 4 pp 16"); read after the deadline. */
export function readLayouts(st: ParseState) {
  const { s, stated } = st;
  // Other layouts first ("tp 8 pp 8 or tp 4 pp 16"): takeParallelism reads the first, never the first size of each.
  const otherLayouts = takeOtherLayouts(s);
  Object.assign(stated, takeParallelism(s, stated.seqLength !== undefined));
  if (otherLayouts.length > 0) {
    const first = layoutOfFields(stated);
    // One layout said twice ("tp=8 (tensor parallel 8)") is one, not a comparison with itself.
    const layouts = [first, ...otherLayouts.map((l) => comparedLayout(first, l))];
    const distinct = layouts.filter((l, i) => layouts.findIndex((m) => JSON.stringify(m) === JSON.stringify(l)) === i);
    if (distinct.length > 1) stated.layouts = distinct;
  }
  // A context left unread ("a 1 gigatoken context"): seen once takeParallelism has read the ones it can.
  const unreadContext = findUnreadLength(s.text);
  return { unreadContext };
}
