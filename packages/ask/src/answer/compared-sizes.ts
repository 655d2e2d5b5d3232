import { countOf } from '@trainplan/units';
import type { ClusterSize, ParsedQuestion } from '../question.ts';
import { restated, withSize } from './compared-gpus.ts';

/**
 * A question comparing cluster sizes of one GPU ("512 H100 vs 1024 H100", "is 512 or 1024 H100 cheaper", "64 and 128
 * nodes"): the question asked of each size, each planned on its own, set side by side as GPUs compared are
 * (compared-gpus.ts' sideBySide). QA found the first size planned and the other dropped unsaid, or "or" refused.
 */

/** "512 GPUs", "64 nodes": a size as the side-by-side labels it. */
const sizeName = (s: ClusterSize): string => (s.nodes !== undefined ? countOf(s.nodes, 'node') : countOf(s.gpus ?? 0, 'GPU'));

/** The question asked of each size, the first's as asked, with each size's label; undefined for a question of one size. */
export function comparedSizesOf(q: ParsedQuestion): { names: string[]; questions: ParsedQuestion[] } | undefined {
  const { comparedSizes: others, ...stated } = q.stated;
  if (others === undefined) return undefined;
  const sizes: ClusterSize[] = [{ nodes: stated.nodes, gpus: stated.gpus }, ...others];
  // The first as asked, its readings kept ("7B taken as Llama 2 7B"), as GPUs and models compared keep theirs (QA: a
  // size comparison restated the first and lost them).
  const { comparedSizes: _parameters, ...parameters } = q.parameters;
  const first: ParsedQuestion = { ...q, stated, parameters, defaults: q.defaults.filter((d) => d.field !== 'comparedSizes') };
  return { names: sizes.map(sizeName), questions: [first, ...others.map((size) => restated(q, withSize(stated, size)))] };
}
