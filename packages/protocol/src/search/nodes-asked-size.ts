import { searchOnNodes, type CapacityOptions, type SearchBase, type SizeSearch } from '@trainplan/search';

/**
 * The size asked for, searched (searchAskedSize); `requestBatch` where the request's batch was tried too, after the size's
 * batches, and split no layout either, so that why nothing runs names both.
 */
export type AskedSizeSearch = SizeSearch & { readonly requestBatch?: number };

/**
 * "Days on N nodes" (runNodes' `nodes`). With a batch per size (`options.globalBatchFor`), N is planned at the batches a
 * deadline's search plans that size at: searchOnNodes, which takes the size's batch and, where the policy has one, the
 * multiple across its aim (@trainplan/search SizedBatchFor, batchesFor), the faster plan. So `--days D` answering N nodes
 * and `--nodes N` name the same plan, to the bit (QA: Llama 3 8B on H100, 15T tokens: 30 days answered 103 nodes in 29.9
 * days at 412 sequences, TP 1 · DP 412 · CP 2; `--nodes 103`, planned at its own 515 alone, said 33.6 days, TP 2 · DP 103 · CP 4).
 *
 * Where none of those batches runs a plan and the size's batch is not the request's (the CLI, the API and the bot fill in
 * the size's own default for `nodes`; a deadline's policy takes the batch asked with no size instead where rounding to the
 * size's GPUs raised its own more than 10% over its aim, @trainplan/ask deadlineBatchFor), N is planned at the request's
 * batch: a deadline's search never names a size that runs nothing at its batches, so the two still agree, and a size asked
 * for still runs where its own default does (Llama 3 8B on 113 H100 nodes: 512 sequences split no layout of its 904 GPUs,
 * 565 do), as it did before the deadline's batches were taken here.
 */
export function searchAskedSize(base: SearchBase, nodes: number, tokens: number, options: CapacityOptions, price?: number): AskedSizeSearch {
  const searched = searchOnNodes(base, nodes, tokens, options, price);
  const perSize = options.globalBatchFor;
  if (searched.point !== undefined || perSize === undefined || perSize(nodes) === base.globalBatchSize) return searched;
  const { globalBatchFor: _perSize, ...atRequest } = options;
  const own = searchOnNodes(base, nodes, tokens, atRequest, price);
  if (own.point !== undefined) return own;
  // Nothing runs at either. Where the request's batch splits the GPUs but no split fits in memory and the size's splits none,
  // memory is the nearer miss: said as out of memory, not as a batch no layout divides (the request's divides).
  if (own.noPlan === 'out-of-memory' && searched.noPlan === 'indivisible') return own;
  return own.noPlan === 'indivisible' ? { ...searched, requestBatch: base.globalBatchSize } : searched;
}
