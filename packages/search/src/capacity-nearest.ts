import type { SearchBase } from './candidate.ts';
import { MAX_NODES } from './capacity-limits.ts';
import { sizer, smallestFit, type CapacityOptions } from './capacity-sizer.ts';
import type { CapacityPoint } from './capacity-types.ts';

/**
 * Sizes tried on each side of a cluster size that runs no plan. A count that fails only for
 * divisibility (1,700 nodes of 8 GPUs = 2⁵ × 5² × 17 GPUs leave no TP × PP × DP split of a 1,536
 * batch) has a neighbour within a few dozen nodes that runs (1,728 and 1,664 for GPT-3 175B), and a
 * batch with few factors needs more (a batch of 13 on 3,000 nodes: 2,912 is the nearest, 88 fewer).
 * A size that runs nothing for divisibility is settled by Megatron's rules in the enumeration, and one
 * out of memory mostly by the memory bound (memory-bound.ts) before any full estimate, so the window
 * is wide: the 176 sizes searched around 3,000 nodes for that batch of 13 take about 25 ms.
 */
export const NEAREST_WINDOW = 128;

/** The nearest cluster size that runs, and the nearest smaller one when the nearest is larger. */
export interface NearestSizes {
  /** Undefined when no size in the window runs and nothing fits on up to MAX_NODES nodes. */
  readonly nearest?: CapacityPoint;
  /** When `nearest` is larger than the size asked for: the nearest smaller size in the window that runs. */
  readonly smaller?: CapacityPoint;
  /** On a tie, when `nearest` is smaller: the size as many nodes above the one asked for, which runs too. */
  readonly larger?: CapacityPoint;
  /** Cluster sizes searched, each once. */
  readonly searches: number;
  /**
   * True when nothing within NEAREST_WINDOW sizes runs and `nearest` is the smallest cluster the model
   * fits on instead: not the nearest size that runs (one beyond the window may be nearer).
   */
  readonly outsideWindow?: true;
}

/**
 * The nearest cluster size to `nodes` on which a plan runs, for a size that runs none: sizes one, two,
 * … away on both sides up to NEAREST_WINDOW each way, fewer nodes on a tie (the smaller size is the one
 * a user with `nodes` nodes can have; only a strictly nearer larger size beats it), with the larger one
 * beside it (`larger`), as near, when it runs too. Sizes above MAX_NODES
 * are not offered. When the nearest is larger, the nearest smaller size in the window that runs too
 * (`smaller`), for a user who has only `nodes` nodes. When nothing in the window runs (a model too large
 * for the sizes around `nodes`), the smallest cluster it fits on (smallestFit). Each size is searched
 * once (sizer), so the sizes the window and smallestFit share are counted once.
 */
export function nearestRunning(base: SearchBase, tokens: number, nodes: number, options: CapacityOptions = {}, price?: number): NearestSizes {
  const s = sizer(base, tokens, options, price);
  let below: CapacityPoint | undefined;
  let above: CapacityPoint | undefined;
  for (let d = 1; d <= NEAREST_WINDOW && !below && !above; d++) {
    if (nodes - d >= 1) below = s.at(nodes - d);
    if (!below && nodes + d <= MAX_NODES) above = s.at(nodes + d);
  }
  if (below) {
    // A tie: the larger size as near, not yet searched, is named beside it (a user may add nodes as well as drop them).
    const d = nodes - below.nodes;
    const tie = nodes + d <= MAX_NODES ? s.at(nodes + d) : undefined;
    return { nearest: below, ...(tie && { larger: tie }), searches: s.searches() };
  }
  if (above) {
    // The sizes nearer than `above` below `nodes` were searched by the walk (and s.at remembers them).
    for (let n = nodes - 1; n >= Math.max(1, nodes - NEAREST_WINDOW) && !below; n--) below = s.at(n);
    return { nearest: above, ...(below && { smaller: below }), searches: s.searches() };
  }
  const fewest = smallestFit(s)?.smallest;
  return { ...(fewest && { nearest: fewest, outsideWindow: true as const }), searches: s.searches() };
}
