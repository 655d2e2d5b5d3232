import { TIGHT_MEMORY_SHARE } from '@trainplan/planner';
import { RULE_REASON_TEXT, type PruneReason } from './prune-reason.ts';

/**
 * Every reason's text, for the answer's pruned tally: the rules' (RULE_REASON_TEXT) and how the search settled the rest.
 * A module of its own, built in a pure-annotated call (a spread alone may run getters, so a bundler keeps it), so that a
 * bundle that never shows the tally (the browser widget) leaves these out.
 */
export const PRUNE_REASON_TEXT = /* @__PURE__ */ ((): Readonly<Record<PruneReason, string>> => ({
  ...RULE_REASON_TEXT,
  redundant: 'the same plan as another candidate (sequence parallelism without tensor parallelism, the distributed optimizer with one data-parallel replica, '
    + 'a partial recompute of every layer, which is full recompute) or a slower one than a candidate also searched (a partial recompute where the same plan without recompute fits, or is itself dropped as slower than the best found)',
  // The search's budget, not the HBM alone (memory-budget.ts): a plan that fits the GPU above the memory fraction counts here
  // too (QA: "does not fit in GPU memory" said of those), as the alternatives' own lines say it ("above the … usable").
  'out-of-memory': `does not fit in the GPU memory the search leaves usable (a memory fraction of HBM, ${TIGHT_MEMORY_SHARE} unless set)`,
  dominated: 'its lower bound on step time is already slower than the k-th best found',
  budget: 'not evaluated: the candidate budget ran out',
}))();
