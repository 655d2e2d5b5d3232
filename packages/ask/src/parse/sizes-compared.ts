import { countOf } from '@trainplan/units';
import type { OtherSize } from '../lexicon/cluster-sizes.ts';
import { MAX_COMPARED } from '../lexicon/compared-models.ts';
import type { CountsRead } from '../lexicon/quantities.ts';
import type { ClusterSize } from '../question.ts';
import type { ParseState } from './state.ts';

/** "512 GPUs", "64 nodes": a cluster size as said back. */
const sizeName = (size: ClusterSize): string => (size.nodes !== undefined ? countOf(size.nodes, 'node') : countOf(size.gpus ?? 0, 'GPU'));

/**
 * The cluster sizes written beside the first (`otherSizes`, in the question's order): each GPU compared takes its own, or
 * with one GPU they are sizes compared (comparedSizes); more than can be set side by side are said not read.
 */
export function readComparedSizes(st: ParseState, otherSizes: readonly OtherSize[], counts: CountsRead): void {
  const { stated, notRead } = st;
  // Counted as the first is where its unit is the GPU's name ("512 or 1024 DGX H100": nodes, as "512 DGX H100" is).
  const sizes: ClusterSize[] = otherSizes.map((o) => (o.unit === 'nodes' || (o.unit === 'named' && counts.counts.nodes !== undefined && counts.counts.gpus === undefined)
    ? { nodes: o.count } : { gpus: o.count }));
  const againstGpus = stated.comparedGpus ?? [];
  if (againstGpus.length > 0 && sizes[0] !== undefined) {
    // Each GPU compared takes the size written beside it, in the question's order ("512 H100 or 1024 H200 or 2048 B200");
    // one left without a size is planned at the first's.
    againstGpus.forEach((gpu, k) => { if (sizes[k] !== undefined) Object.assign(gpu, sizes[k]); });
    if (sizes.length > againstGpus.length) {
      notRead.push({ phrase: sizes.slice(againstGpus.length).map(sizeName).join(', '), why: 'more sizes than GPUs compared; give one size beside each GPU' });
    }
  } else {
    const differing = sizes.filter((size, i) => (size.nodes !== stated.nodes || size.gpus !== stated.gpus)
      && sizes.findIndex((o) => o.nodes === size.nodes && o.gpus === size.gpus) === i);
    if (differing.length > 0) stated.comparedSizes = differing.slice(0, MAX_COMPARED - 1);
    const left = differing.slice(MAX_COMPARED - 1);
    if (left.length > 0) notRead.push({ phrase: left.map(sizeName).join(', '), why: `not compared: at most ${MAX_COMPARED} cluster sizes a question are set side by side; ask again for these` });
  }
}
