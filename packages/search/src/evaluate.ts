import { estimatePlan, type PlanEstimate, type PlanInfeasible } from '@trainplan/planner';
import { planFor, type Candidate, type SearchBase } from './candidate.ts';

export type Evaluation =
  | { readonly ok: true; readonly candidate: Candidate; readonly estimate: PlanEstimate }
  | { readonly ok: false; readonly candidate: Candidate; readonly infeasible: PlanInfeasible };

/** Partial recompute's layer count is raised at most this many times when the bound's N falls short. */
const PARTIAL_RETRIES = 4;

/**
 * Evaluate: the planner's full estimate of one candidate. For full recompute of N layers per stage,
 * when the estimate finds the bound's N a little short (the bound leaves out the embedding extras,
 * the working set and the reserve), N grows by the layers that cover the shortfall and it is tried again.
 */
export function evaluateCandidate(base: SearchBase, candidate: Candidate, layerBytes?: { stored: number; full: number; held: number }): Evaluation {
  let c = candidate;
  for (let attempt = 0; ; attempt++) {
    const result = estimatePlan(planFor(base, c));
    if (result.ok) return { ok: true, candidate: c, estimate: result };
    const partial = c.recompute === 'full' && c.recomputeLayers !== undefined;
    if (!partial || result.reason !== 'out-of-memory' || attempt >= PARTIAL_RETRIES || !layerBytes) {
      return { ok: false, candidate: c, infeasible: result };
    }
    const saved = Math.max(1, (layerBytes.full - layerBytes.stored) * layerBytes.held);
    const more = Math.max(1, Math.ceil(((result.neededBytes ?? 0) - (result.availableBytes ?? 0)) / saved));
    const layers = c.recomputeLayers! + more;
    if (layers >= Math.ceil(base.model.layers / c.pipeline)) c = { ...c, recomputeLayers: undefined };
    else c = { ...c, recomputeLayers: layers };
  }
}
