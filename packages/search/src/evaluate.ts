import { layersPerStage } from '@trainplan/model';
import { estimatePlan, type PlanEstimate, type PlanInfeasible } from '@trainplan/planner';
import { planFor, type Candidate, type SearchBase } from './candidate.ts';
import type { MemoryBound } from './memory-bound.ts';
import { withinMemoryBudget } from './memory-budget.ts';

export type Evaluation =
  | { readonly ok: true; readonly candidate: Candidate; readonly estimate: PlanEstimate }
  | { readonly ok: false; readonly candidate: Candidate; readonly infeasible: PlanInfeasible };

/** Partial recompute's layer count is raised at most this many times when the bound's N falls short. */
const PARTIAL_RETRIES = 4;

/**
 * Evaluate: the planner's full estimate of one candidate. For full recompute of N layers per stage,
 * when the estimate finds the bound's N a little short (the bound leaves out the embedding extras,
 * the working set and the reserve), N grows by the layers that cover the shortfall and it is tried again.
 * A plan above `memoryBudgetBytes` (the search's memoryFraction of HBM) counts as out of memory.
 */
export function evaluateCandidate(
  base: SearchBase, candidate: Candidate, memory?: MemoryBound, memoryBudgetBytes: number = Infinity,
): Evaluation {
  let c = candidate;
  for (let attempt = 0; ; attempt++) {
    const result = withinMemoryBudget(estimatePlan(planFor(base, c)), base, memoryBudgetBytes);
    if (result.ok) return { ok: true, candidate: c, estimate: result };
    const partial = c.recompute === 'full' && c.recomputeLayers !== undefined;
    if (!partial || result.reason !== 'out-of-memory' || attempt >= PARTIAL_RETRIES || !memory) {
      return { ok: false, candidate: c, infeasible: result };
    }
    // Bytes one more recomputed layer saves on the first stage: a whole layer's activations less its
    // checkpoint, for each micro-batch in flight there.
    const per = memory.layerBytes(c.tensor, c.context, c.microBatchSize, c.sequenceParallel, 'full');
    const held = Math.min(c.pipeline, base.globalBatchSize / (c.microBatchSize * c.data));
    const saved = Math.max(1, (per.full - per.stored) * held);
    const more = Math.max(1, Math.ceil(((result.neededBytes ?? 0) - (result.availableBytes ?? 0)) / saved));
    // In whole layers per model chunk: Megatron recomputes the same number in each of the v chunks.
    const v = c.virtualStages;
    const layers = Math.ceil((c.recomputeLayers! + more) / v) * v;
    if (layers >= Math.max(...layersPerStage(base.model.layers, c.pipeline))) c = { ...c, recomputeLayers: undefined };
    else c = { ...c, recomputeLayers: layers };
  }
}
