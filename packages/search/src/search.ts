import type { PlanEstimate } from '@trainplan/planner';
import type { Candidate, SearchBase } from './candidate.ts';
import { enumerateCandidates } from './enumerate.ts';
import { evaluateCandidate, type Evaluation } from './evaluate.ts';
import { MemoryBound } from './memory-bound.ts';
import { addPruned, emptyTally, type PruneTally } from './prune-reason.ts';
import { defaultSearchSpace, spaceSize, type SearchConstraints, type SearchSpace } from './search-space.ts';
import { StepBound } from './step-bound.ts';

export type SearchObjective = 'throughput' | 'time-to-train' | 'cost';

export interface SearchOptions {
  /** Plans to return, best first (default 10). */
  readonly top?: number;
  /** At most this many full estimates (default 100,000); the rest are counted as 'budget'. */
  readonly candidateBudget?: number;
  readonly constraints?: SearchConstraints;
  /** Replaces the default space (the constraints still cap it). */
  readonly space?: SearchSpace;
  /** Called now and then with candidates accounted for so far and the space's size. */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface RankedPlan {
  readonly candidate: Candidate;
  readonly estimate: PlanEstimate;
}

export interface SearchResult {
  /** Candidates in the space (the product of the dimensions' sizes). */
  readonly spaceSize: number;
  /**
   * Candidates settled: ranked, or ruled out with a reason (a pruned subtree counts each of its
   * candidates). Equals spaceSize unless the candidate budget ran out.
   */
  readonly candidatesEvaluated: number;
  /** Full planner estimates run (the rest were settled by the divisibility rules and the bounds). */
  readonly fullEstimates: number;
  /** Of those, the plans that fit (every other settled candidate is in `pruned`). */
  readonly fitted: number;
  readonly pruned: PruneTally;
  /** Best first; empty when nothing fits. */
  readonly top: readonly RankedPlan[];
  /** When nothing fits: the evaluated candidate that came closest to fitting in memory. */
  readonly closestInfeasible?: { readonly candidate: Candidate; readonly neededBytes: number; readonly availableBytes: number; readonly message: string };
  readonly budgetExhausted: boolean;
}

const DEFAULT_TOP = 10;
const DEFAULT_BUDGET = 100_000;

/** Caps a space with the constraints (a given space may be wider than they allow). */
function constrain(space: SearchSpace, c: SearchConstraints, domain: number): SearchSpace {
  const maxT = Math.min(c.maxTensor ?? Infinity, c.tensorWithinNode ? domain : Infinity);
  return {
    ...space,
    tensor: space.tensor.filter((t) => t <= maxT),
    pipeline: space.pipeline.filter((p) => p <= (c.maxPipeline ?? Infinity)),
    context: space.context.filter((x) => x <= (c.maxContext ?? Infinity)),
    virtualStages: space.virtualStages.filter((v) => v <= (c.maxVirtualStages ?? Infinity)),
  };
}

/**
 * The configuration search, enumerate → evaluate → rank (house style §4):
 * 1. enumerate the space with Megatron's divisibility rules and a closed-form memory bound, giving
 *    each survivor a lower bound on its step time (enumerate.ts);
 * 2. evaluate survivors with the full planner estimate, most promising bound first, until the next
 *    bound is no better than the k-th best step found (branch and bound: every skipped candidate is
 *    provably outside the top k) or the candidate budget is spent;
 * 3. rank by step time. On a fixed number of GPUs the three objectives (throughput, time to train,
 *    cost) order plans the same way, since each is the step time times a constant; they differ only
 *    when the GPU count varies (capacity.ts).
 */
export function searchPlans(base: SearchBase, options: SearchOptions = {}): SearchResult {
  const constraints = options.constraints ?? {};
  const space = constrain(options.space ?? defaultSearchSpace(base, constraints), constraints, base.nvlinkDomainGpus);
  const total = spaceSize(space);
  const top = Math.max(1, options.top ?? DEFAULT_TOP);
  const budget = Math.max(0, options.candidateBudget ?? DEFAULT_BUDGET);
  const tally = emptyTally();
  const memory = new MemoryBound(base);
  const step = new StepBound(base);
  const memoryBudgetBytes = base.gpu.hbmBytes * (constraints.memoryFraction ?? 1);
  const progress = options.onProgress;

  const nearestOutOfMemory: { candidate?: Candidate; neededBytes: number } = { neededBytes: Infinity };
  const survivors = enumerateCandidates({
    base, space, memory, step, memoryBudgetBytes, tally, nearestOutOfMemory, onChunk: progress && ((done) => progress(done, total)),
  });
  survivors.sort((a, b) => a.lowerBoundSeconds - b.lowerBoundSeconds);
  let settled = total - survivors.length;

  const ranked: RankedPlan[] = [];
  let closest: SearchResult['closestInfeasible'];
  let fullEstimates = 0;
  let fitted = 0;
  let budgetExhausted = false;
  for (let i = 0; i < survivors.length; i++) {
    const s = survivors[i]!;
    const kth = ranked.length >= top ? ranked[top - 1]!.estimate.stepTimeSeconds : Infinity;
    if (s.lowerBoundSeconds >= kth) {
      addPruned(tally, 'dominated', survivors.length - i);
      settled += survivors.length - i;
      break;
    }
    if (fullEstimates >= budget) {
      addPruned(tally, 'budget', survivors.length - i);
      budgetExhausted = true;
      break;
    }
    const result: Evaluation = evaluateCandidate(base, s.candidate, memory);
    fullEstimates += 1;
    settled += 1;
    if (result.ok) {
      fitted += 1;
      insertRanked(ranked, { candidate: result.candidate, estimate: result.estimate }, top);
    } else {
      const r = result.infeasible;
      // The enumeration applies the planner's divisibility rules, so a rejection here is memory (or a rule
      // the enumeration does not mirror, such as FP8 on a GPU without it, which the protocol refuses first).
      addPruned(tally, r.reason === 'out-of-memory' ? 'out-of-memory' : 'heads-indivisible', 1, () => r.message);
      if (r.reason === 'out-of-memory' && r.neededBytes !== undefined && r.availableBytes !== undefined
        && (!closest || r.neededBytes < closest.neededBytes)) {
        closest = { candidate: result.candidate, neededBytes: r.neededBytes, availableBytes: r.availableBytes, message: r.message };
      }
    }
    if (progress && (fullEstimates & 0xff) === 0) progress(settled, total);
  }
  if (ranked.length === 0 && !closest && nearestOutOfMemory.candidate) {
    // Nothing survived the memory bound: estimate the nearest miss, so the answer can say by how much.
    const miss = evaluateCandidate(base, nearestOutOfMemory.candidate);
    if (!miss.ok && miss.infeasible.neededBytes !== undefined) {
      closest = { candidate: miss.candidate, neededBytes: miss.infeasible.neededBytes, availableBytes: miss.infeasible.availableBytes ?? base.gpu.hbmBytes, message: miss.infeasible.message };
    }
  }
  progress?.(budgetExhausted ? settled : total, total);
  return {
    spaceSize: total,
    candidatesEvaluated: budgetExhausted ? settled : total,
    fullEstimates,
    fitted,
    pruned: tally,
    top: ranked,
    closestInfeasible: ranked.length === 0 ? closest : undefined,
    budgetExhausted,
  };
}

/** Keeps `ranked` sorted by step time and at most `k` long. */
function insertRanked(ranked: RankedPlan[], plan: RankedPlan, k: number): void {
  const t = plan.estimate.stepTimeSeconds;
  let i = ranked.length;
  while (i > 0 && ranked[i - 1]!.estimate.stepTimeSeconds > t) i--;
  if (i >= k) return;
  ranked.splice(i, 0, plan);
  if (ranked.length > k) ranked.pop();
}
