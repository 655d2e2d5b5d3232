import type { SizedBatchFor } from './default-batch.ts';

/**
 * How "days on N nodes" says the batch its size took where none was given, planned as a deadline's search plans that
 * size (runNodes' globalBatchFor with deadlineBatchFor: the size's default, or the batch asked with no size where
 * rounding to its GPUs moved it more than 10% over its aim, and the multiple across its aim, the faster taken), so that
 * "how many nodes … in 30 days" answering 103 and "how long … on 103 nodes" name one plan and one batch. `planAt`: the
 * surface's words for giving a batch ("with a global batch of 515", "training.globalBatchSize 515"), said where the batch
 * taken is not the size's own default, so that a user who wants that default knows how to ask for it.
 *
 * The size's own default is said as defaultBatchNote says it, with nothing of the other batches: a caller that plans the
 * size at its own default alone takes it too, and a sentence about a batch it never tried would be false there.
 */
export function askedSizeBatchNote(batchFor: SizedBatchFor, nodes: number, used: number, planAt: (sequences: number) => string): string {
  const took = batchFor.said(nodes, used);
  if (took.why === 'across') return `${took.note}; ${planAt(took.own)} plans it at its own default`;
  if (took.why === 'unsized') return `${took.note}; ${planAt(took.own)} plans it at that`;
  return took.note;
}
