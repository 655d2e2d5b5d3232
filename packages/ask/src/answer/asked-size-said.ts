import { countOf } from '@trainplan/units';
import { askedSizeBatchNote } from '../asked-size-batch.ts';
import type { SizedBatchFor } from '../default-batch.ts';

/**
 * "How long … on N nodes" with no batch stated, said among the assumptions: the batch N took (askedSizeBatchNote, with
 * how to ask for its own default in the question's words), and, where it took its own default, what else was tried there.
 * The bot plans the size at a deadline's batches for it (search-answer.ts perSize with deadlineBatchFor, the protocol's
 * searchAskedSize), so both are true of the plan shown: the batch asked with no size where it ran nothing and the size's
 * default was taken instead, or the multiple across its aim where that was no faster.
 */
export function askedSizeSaid(batchFor: SizedBatchFor, nodes: number, used: number): string {
  const note = askedSizeBatchNote(batchFor, nodes, used, (n) => `"with a global batch of ${n}"`);
  if (batchFor.said(nodes, used).why !== 'own') return note;
  const asked = batchFor(nodes);
  if (asked !== used) return `${note}; no plan runs on these nodes at ${countOf(asked, 'sequence')}, the batch asked with no size`;
  const other = batchFor.alternativeFor(nodes);
  return other === undefined ? note
    : `${note}; ${countOf(other, 'sequence')}, the multiple of its data-parallel unit on the other side of its aim, was tried too and is no faster here`;
}
