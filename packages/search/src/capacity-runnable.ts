import type { SearchBase } from './candidate.ts';
import { batchesFor, meetsGoal, type CapacityOptions, type Sizer } from './capacity-sizer.ts';
import type { CapacityGoal, CapacityPoint } from './capacity-types.ts';
import { searchedSpace } from './search.ts';

/**
 * The most sizes fewestRunnable searches in full: above it the replica families are the search's guide instead.
 * GPT-3 175B on H100 at 1,500 sequences, 1 day: 468 runnable sizes between the peak-FLOPs floor (471 nodes) and the
 * scanned window (3,622), 420 of them searched (1.6 s) before 3,000 nodes meet it.
 */
export const RUNNABLE_SCAN_LIMIT = 600;

/**
 * fewestRunnable searches only where at most this share of the range's sizes can run: a batch that leaves most sizes
 * runnable (a batch per size, rounded so that data-parallel sizes divide it) is no sparser than the sizes themselves,
 * and the scanned window and the replica families cover it at less cost (Llama 3 70B on H100, 15T tokens, 30 days at
 * each size's batch: 430 sizes searched in vain, 2.3 s → 4.6 s, had it searched them). The 1,500-sequence case: 15%.
 */
export const RUNNABLE_SHARE = 0.25;

/**
 * The sizes from `fromNodes` to `toNodes` (both included) on which some plan can run at all: a size of N nodes runs a
 * candidate only when its N × gpusPerNode GPUs are TP × PP × CP × DP of degrees in the searched space, and the size's
 * global batch is divisible by micro-batch × DP (Megatron-Core's divisibility rules, as enumerate.ts prunes them:
 * megatron/core/parallel_state.py, the world size a multiple of TP · PP · CP; megatron/training/arguments.py, the global
 * batch a multiple of micro-batch × DP). A fixed batch with few divisors leaves few such sizes (1,500 sequences: DP one
 * of its 24 divisors), so every one can be searched where the replica families of the shapes found reach none (QA: GPT-3
 * 175B on H100 at 1,500 sequences, 1 day: 3,000 nodes of TP 16 · PP 12 · v 8 take 19.0 hours, a shape with 8 model
 * chunks a stage that no size the deadline's search ran took, while the families answered 3,750 nodes). Fewest first.
 */
export function runnableSizes(base: SearchBase, options: CapacityOptions, range: { readonly fromNodes: number; readonly toNodes: number }): number[] {
  const space = searchedSpace(base, options);
  const modelParallel = new Set<number>();
  for (const t of space.tensor) for (const c of space.context) for (const p of space.pipeline) modelParallel.add(t * c * p);
  const groups = [...modelParallel].sort((a, b) => a - b);
  const runnable: number[] = [];
  for (let nodes = Math.max(1, range.fromNodes); nodes <= range.toNodes; nodes++) {
    const gpus = nodes * base.gpusPerNode;
    // At either of the size's batches (SizedBatchFor): the size runs where one of them divides.
    const batches = batchesFor(options.globalBatchFor, nodes, base);
    const runs = groups.some((m) => {
      if (m > gpus || gpus % m !== 0) return false;
      const data = gpus / m;
      return space.microBatchSize.some((mbs) => batches.some((batch) => batch % (data * mbs) === 0));
    });
    if (runs) runnable.push(nodes);
  }
  return runnable;
}

/**
 * The fewest nodes from `fromNodes` to `toNodes` that meet `goal`: every runnable size (runnableSizes) searched in full,
 * fewest first, until one meets it (`point`; absent when none does). `searched` is false, and nothing is searched, when
 * more than RUNNABLE_SCAN_LIMIT sizes, or more than RUNNABLE_SHARE of the range's, could run. A size is searched at most once (the sizer's), so a size searched
 * before costs nothing.
 */
export function fewestRunnable(
  s: Sizer, base: SearchBase, goal: CapacityGoal, options: CapacityOptions, range: { readonly fromNodes: number; readonly toNodes: number },
): { readonly searched: boolean; readonly point?: CapacityPoint } {
  if (range.toNodes < range.fromNodes) return { searched: true };
  const sizes = runnableSizes(base, options, range);
  const span = range.toNodes - Math.max(1, range.fromNodes) + 1;
  if (sizes.length > RUNNABLE_SCAN_LIMIT || sizes.length > RUNNABLE_SHARE * span) return { searched: false };
  for (const nodes of sizes) {
    const point = s.at(nodes);
    if (point && meetsGoal(point, goal)) return { searched: true, point };
  }
  return { searched: true };
}
