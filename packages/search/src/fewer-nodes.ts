import { pipelineSplit } from '@trainplan/model';
import { runnableSizes } from './capacity-runnable.ts';
import type { SearchBase } from './candidate.ts';
import { searchedSpace, searchPlans, type RankedPlan, type SearchOptions } from './search.ts';

/** How far below the cluster asked for fewer nodes are tried: 10% (448 nodes: down to 404). */
export const FEWER_NODES_WINDOW = 0.1;
/** At most this many smaller sizes are searched, the largest first (each a whole search, tens of ms for a 1T model). */
export const FEWER_NODES_PROBES = 16;
/** A smaller cluster is named only when it is at least this much faster a step: less is within the model's own error. */
export const FEWER_NODES_MIN_GAIN = 0.01;

/** A smaller cluster whose best plan takes a shorter step than the best on the cluster asked for. */
export interface FewerNodes {
  readonly nodes: number;
  readonly plan: RankedPlan;
}

/**
 * The sizes fewerNodes searches: within FEWER_NODES_WINDOW below `base.nodes`, and the largest power of two below it, those on which Megatron's start-up rules let
 * some plan of the space run — TP × CP × PP dividing the GPUs, the pipeline depth splitting the layers (pipelineSplit, in
 * one of the searched layouts), the global batch divisible by micro-batch × DP (enumerate.ts prunes by the same rules) —
 * the largest first, at most FEWER_NODES_PROBES in the window. Few sizes pass: 3 of the 44 below 448 nodes for the 1T model at 3,072
 * sequences (432, 416, 408), 1 of 12 below 128 nodes for GPT-3 175B at 1,536.
 */
export function fewerNodesSizes(base: SearchBase, options: Pick<SearchOptions, 'space' | 'constraints'> = {}): number[] {
  const space = searchedSpace(base, options);
  // runnableSizes' divisibility rules, over the depths that split the layers alone.
  const pipeline = space.pipeline.filter((p) => space.pipelineSlots.some((slots) => pipelineSplit(base.model.layers, p, slots) !== undefined));
  const pruned = { ...options, space: { ...space, pipeline } };
  const lowest = Math.max(1, Math.ceil(base.nodes * (1 - FEWER_NODES_WINDOW)));
  const window = runnableSizes(base, pruned, { fromNodes: lowest, toNodes: base.nodes - 1 }).reverse().slice(0, FEWER_NODES_PROBES);
  // The largest power of two below, beyond the window too: powers of two divide batches, heads and layers best (QA: Llama 2
  // 7B at 1,024 sequences steps 14.95 s on 9 nodes, 14.29 s on 8; 7.70 s on 18, 7.26 s on 16; 4.07 s on 36, 3.74 s on 32,
  // each below its window, and under 10 nodes the window holds no size at all).
  const power = 2 ** Math.floor(Math.log2(base.nodes - 1));
  const below = base.nodes > 1 && power < lowest ? runnableSizes(base, pruned, { fromNodes: power, toNodes: power }) : [];
  return [...window, ...below];
}

/**
 * A cluster of fewer nodes that runs a step faster than `bestSeconds`, the best step on `base.nodes` (QA: the 1T model at a
 * 3,072-sequence batch steps 68.2 s on 448 nodes and 66.5 s on 416, unsaid). More GPUs can be slower where their count
 * leaves the layers no good pipeline split (448 × 8 = 2⁹ · 7: PP 7, 14 or 28 on 128 layers), and a user can leave nodes
 * out. Each size of fewerNodesSizes is searched for plans faster than the best by FEWER_NODES_MIN_GAIN
 * (SearchOptions.stepCutoffSeconds prunes the rest before any estimate); the fastest found wins, the larger size on a tie.
 * The batch is the same, so step times compare as tokens/s do.
 */
export function fewerNodes(base: SearchBase, bestSeconds: number, options: SearchOptions = {}): FewerNodes | undefined {
  let found: FewerNodes | undefined;
  for (const nodes of fewerNodesSizes(base, options)) {
    const cutoff = found?.plan.estimate.stepTimeSeconds ?? bestSeconds * (1 - FEWER_NODES_MIN_GAIN);
    const plan = searchPlans({ ...base, nodes }, { ...options, top: 1, onProgress: undefined, stepCutoffSeconds: cutoff }).top[0];
    if (plan !== undefined && plan.estimate.stepTimeSeconds < cutoff) found = { nodes, plan };
  }
  return found;
}
