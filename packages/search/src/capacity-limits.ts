/** How far the capacity planner searches cluster sizes: the largest it considers, its edge, and its scan below an answer. */

/** The largest cluster the capacity planner considers, in nodes (a 65,536-GPU machine of 8-GPU nodes). */
export const MAX_NODES = 8192;

/** A size within this share of MAX_NODES is at the search's edge: a larger one, never searched, may be faster. */
export const NEAR_MAX_NODES_SHARE = 0.95;

/**
 * The most sizes searched one by one below the bisection's answer. Time to train is not monotone in
 * the node count (a count with few factors of two leaves only awkward TP × PP × DP splits: GPT-3 175B
 * meets 30 days on 88 and 96 nodes of A100 but not on 97, and the bisection stopped at 98), so the
 * sizes below the bisection's answer are all searched, down to the peak-FLOPs floor or this window,
 * whichever is nearer: about 1 s of searching per 50 sizes at a few hundred nodes.
 */
export const SCAN_WINDOW = 128;
