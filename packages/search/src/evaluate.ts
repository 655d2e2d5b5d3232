import { inFlightMicroBatches, layersPerStage } from '@trainplan/model';
import { estimatePlan, type PlanEstimate, type PlanInfeasible } from '@trainplan/planner';
import { planFor, type Candidate, type SearchBase } from './candidate.ts';
import type { MemoryBound } from './memory-bound.ts';
import { withinMemoryBudget } from './memory-budget.ts';

export type Evaluation =
  | { readonly ok: true; readonly candidate: Candidate; readonly estimate: PlanEstimate }
  | { readonly ok: false; readonly candidate: Candidate; readonly infeasible: PlanInfeasible };

/** Full estimates one partial-recompute candidate may take in all: the first, the steps up to a count that fits, the steps down to the fewest. */
const PARTIAL_ESTIMATES = 8;

/**
 * Evaluate: the planner's full estimate of one candidate. For full recompute of N layers per stage,
 * when the estimate finds the bound's N short (the bound leaves out the embedding extras, the working
 * set, fragmentation and the reserve), the fewest layers that fit are looked for (fewestRecomputedLayers).
 * A plan above `memoryBudgetBytes` (the search's memoryFraction of HBM) counts as out of memory.
 */
export function evaluateCandidate(
  base: SearchBase, candidate: Candidate, memory?: MemoryBound, memoryBudgetBytes: number = Infinity,
): Evaluation {
  const result = estimateWithin(base, candidate, memoryBudgetBytes);
  if (result.ok) return { ok: true, candidate, estimate: result };
  const partial = candidate.recompute === 'full' && candidate.recomputeLayers !== undefined;
  if (!partial || result.reason !== 'out-of-memory' || !memory) return { ok: false, candidate, infeasible: result };
  return fewestRecomputedLayers(base, { candidate, result }, memory, memoryBudgetBytes);
}

const estimateWithin = (base: SearchBase, c: Candidate, budget: number) => withinMemoryBudget(estimatePlan(planFor(base, c)), base, budget);

/** One recomputed-layer count tried: the count (the fullest stage's layers standing for every layer) and the memory it needs. */
interface Tried { readonly layers: number; readonly neededBytes: number; readonly evaluation: Evaluation }

/**
 * The fewest layers per stage, a multiple of v (Megatron recomputes the same number in each model chunk,
 * checkPlan), whose full recompute fits, starting from a count that does not. Memory falls with each
 * layer recomputed, so the counts that fit are those from some N up: a step up by the bytes a layer
 * saves on the first stage (a layer's activations less its checkpoint, for each micro-batch held there,
 * 1F1B's min(p, m) times the interleaving factor 1 + (p − 1)/(p·v), model reference §3) finds one that
 * fits, and the line through the two estimates (secant) then places N between the last count that does
 * not fit and the first that does, each guess checked by the estimate, until the two are v apart. The
 * bound's per-layer bytes leave out fragmentation, so the step up tends to overshoot, and the secant takes
 * it back. Recomputing as many layers as the fullest stage holds is full recompute.
 */
function fewestRecomputedLayers(
  base: SearchBase, first: { candidate: Candidate; result: PlanInfeasible }, memory: MemoryBound, budget: number,
): Evaluation {
  const c0 = first.candidate;
  const v = c0.virtualStages;
  const most = Math.max(...layersPerStage(base.model.layers, c0.pipeline, c0.pipelineSlots));
  const target = Math.min(budget, first.result.availableBytes ?? Infinity);
  const withLayers = (n: number): Candidate => ({ ...c0, recomputeLayers: n >= most ? undefined : n });
  const per = memory.layerBytes(c0.tensor, c0.context, c0.microBatchSize, c0.sequenceParallel, 'full');
  const held = inFlightMicroBatches({
    schedule: planFor(base, c0).schedule, pipeline: c0.pipeline, virtualStages: v,
    microBatches: base.globalBatchSize / (c0.microBatchSize * c0.data),
  });
  const savedPerLayer = Math.max(1, (per.full - per.stored) * held);

  let lo: Tried = { layers: c0.recomputeLayers!, neededBytes: first.result.neededBytes ?? Infinity, evaluation: { ok: false, candidate: c0, infeasible: first.result } };
  let hi: Tried | undefined;
  for (let estimates = 1; estimates < PARTIAL_ESTIMATES; estimates++) {
    // Done when no multiple of v lies strictly between the last count that does not fit and the first that does.
    const below = hi === undefined ? most : Math.ceil(hi.layers / v) * v - v;
    if (below <= lo.layers) break;
    const short = lo.neededBytes - target;
    const guess = hi === undefined
      ? lo.layers + Math.ceil(short / savedPerLayer)
      : lo.layers + Math.ceil(short / Math.max(1, (lo.neededBytes - hi.neededBytes) / (hi.layers - lo.layers)));
    const layers = Math.min(Math.max(Math.ceil(guess / v) * v, lo.layers + v), below, most);
    const candidate = withLayers(layers);
    const result = estimateWithin(base, candidate, budget);
    if (result.ok) {
      hi = { layers, neededBytes: result.memory.totalBytes, evaluation: { ok: true, candidate, estimate: result } };
      continue;
    }
    const evaluation: Evaluation = { ok: false, candidate, infeasible: result };
    // A refusal for another rule, or full recompute itself out of memory: nothing between fits either.
    if (result.reason !== 'out-of-memory' || layers >= most) return evaluation;
    lo = { layers, neededBytes: result.neededBytes ?? Infinity, evaluation };
  }
  return (hi ?? lo).evaluation;
}
