import { layersPerStage } from '@trainplan/model';
import type { PlanEstimate, PlanInfeasible, PlanRule } from '@trainplan/planner';
import type { Candidate, SearchBase } from './candidate.ts';
import { whySpaceIsEmpty } from './empty-space.ts';
import { enumerateCandidates } from './enumerate.ts';
import { evaluateCandidate, type Evaluation } from './evaluate.ts';
import { MemoryBound } from './memory-bound.ts';
import { memoryBudgetBytes } from './memory-budget.ts';
import { addPastLayout, addPruned, emptyTally, type PastLayoutTally, type PruneReason, type PruneTally } from './prune-reason.ts';
import { defaultSearchSpace, spaceSize, type SearchConstraints, type SearchSpace } from './search-space.ts';
import { StepBound } from './step-bound.ts';

export interface SearchOptions {
  /** Plans to return, best first (default 10). */
  readonly top?: number;
  /** At most this many full estimates (default 100,000); the rest are counted as 'budget'. */
  readonly candidateBudget?: number;
  readonly constraints?: SearchConstraints;
  /** Replaces the default space (the constraints still cap it). */
  readonly space?: SearchSpace;
  /**
   * Called now and then with the work done so far and the total, in work units (done / total is the
   * share complete, rising monotonically to 1): the enumeration takes the first ENUMERATION_SHARE of
   * it, the full estimates the rest (see `evaluationShare`).
   */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Only plans faster than this step time are wanted (fewer-nodes.ts: a smaller cluster that would beat the best found on
   * the one asked for): a candidate whose lower bound reaches it is dominated, as one behind the k-th best is. Default: none.
   */
  readonly stepCutoffSeconds?: number;
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
  /**
   * Full planner estimates run, one per candidate estimated (a partial recompute's search for its fewest layers
   * counts once). Every other candidate of the space is in `pruned`: `pruned` adds up to spaceSize − fullEstimates.
   */
  readonly fullEstimates: number;
  /** Of the full estimates, the distinct plans that fit (the ranking's pool). */
  readonly fitted: number;
  /**
   * The rest of the full estimates, by reason: out of memory, a rule only the planner checks, or redundant (a partial
   * recompute the evaluation raised to every layer, the same plan as full recompute, found again). fitted + these = fullEstimates.
   */
  readonly refused: PruneTally;
  /** The candidates settled without a full estimate, by reason: the divisibility rules, the bounds, and the budget's leftovers. */
  readonly pruned: PruneTally;
  /**
   * The candidates settled after their layout passed the GPU-count and head rules (TP · PP · CP dividing the GPUs, TP the
   * heads), pruned or refused, by reason, with how deep in the enumeration each reason struck (a refusal's depth is Infinity,
   * past it): what the request's own settings decided, which whyNothingFits names rather than the layouts no request runs.
   */
  readonly pastLayout: Readonly<PastLayoutTally>;
  /** Best first; empty when nothing fits. */
  readonly top: readonly RankedPlan[];
  /** When nothing fits: the evaluated candidate that came closest to fitting in memory. */
  readonly closestInfeasible?: {
    readonly candidate: Candidate; readonly neededBytes: number; readonly availableBytes: number; readonly message: string;
    /** The GPU's whole HBM: `availableBytes` is less when the search's memoryFraction is what the plan missed. */
    readonly capacityBytes: number;
  };
  readonly budgetExhausted: boolean;
  /** When the constraints leave no candidate at all: which of them contradict (whySpaceIsEmpty). */
  readonly emptySpace?: string;
}

const DEFAULT_TOP = 10;
const DEFAULT_BUDGET = 100_000;

/** The work units a search reports progress in (onProgress's total). */
export const PROGRESS_UNITS = 1000;
/**
 * The share of the progress the enumeration stands for. It settles about 99% of the candidates (whole
 * subtrees at once) but takes only about a third of the time: GPT-3 175B on 1,024 A100s spends 0.07 s
 * enumerating and 0.18 s on its 884 full estimates. Counting candidates put the bar at 99% before the
 * slow part began.
 */
const ENUMERATION_SHARE = 1 / 3;
/** Full estimates between two progress reports. */
const REPORT_EVERY = 8;

/**
 * The share of the evaluation done after `done` full estimates: survivors are evaluated in order of
 * their lower bound, and the loop ends at the first whose bound is no better than the k-th best step
 * (or at the budget), so the estimates left are at most the survivors below that cut. The cut only
 * moves earlier as better plans are found, so the share only rises.
 */
function evaluationShare(survivors: readonly { lowerBoundSeconds: number }[], done: number, kth: number, budget: number): number {
  let lo = done;
  let hi = survivors.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (survivors[mid]!.lowerBoundSeconds < kth) lo = mid + 1;
    else hi = mid;
  }
  const end = Math.min(lo, budget);
  return end <= 0 ? 1 : Math.min(1, done / end);
}

/**
 * The prune reason of each planner rule (check-plan.ts PlanRule) the enumeration mirrors; the rules it
 * does not mirror (a precision or kernel the GPU lacks, recompute layers) are 'planner-refused'.
 */
const REASON_OF_RULE: Readonly<Partial<Record<PlanRule, PruneReason>>> = {
  'gpus-indivisible': 'gpus-indivisible',
  'heads-indivisible': 'heads-indivisible',
  'batch-indivisible': 'batch-indivisible',
  'too-many-stages': 'too-many-stages',
  'pipeline-split': 'pipeline-split',
  'interleave-rounds': 'interleave-indivisible',
  'interleave-needs-pipeline': 'interleave-indivisible',
  'interleave-indivisible': 'interleave-indivisible',
  'interleave-needs-overlap': 'interleave-needs-overlap',
  'sequence-indivisible': 'sequence-indivisible',
  'sequence-parallel-indivisible': 'sequence-parallel-indivisible',
  'context-needs-fused-attention': 'context-needs-fused-attention',
  'tp-overlap-needs-sequence-parallel': 'tp-overlap-needs-sequence-parallel',
  'tp-overlap-crosses-nvlink': 'tp-overlap-crosses-nvlink',
  'zero-with-pipeline': 'zero-with-pipeline',
};

/** The prune reason of a planner refusal: memory, or the rule its first issue breaks. */
export function refusalReason(r: Pick<PlanInfeasible, 'reason' | 'issues'>): PruneReason {
  if (r.reason === 'out-of-memory') return 'out-of-memory';
  const issue = r.issues?.[0];
  return (issue && REASON_OF_RULE[issue.rule]) ?? 'planner-refused';
}

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

/** The space a search with `options` enumerates: the given or default space, capped by the constraints. */
export function searchedSpace(base: SearchBase, options: Pick<SearchOptions, 'space' | 'constraints'> = {}): SearchSpace {
  const constraints = options.constraints ?? {};
  return constrain(options.space ?? defaultSearchSpace(base, constraints), constraints, base.nvlinkDomainGpus);
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
  const space = searchedSpace(base, options);
  const total = spaceSize(space);
  const top = Math.max(1, options.top ?? DEFAULT_TOP);
  const budget = Math.max(0, options.candidateBudget ?? DEFAULT_BUDGET);
  const tally = emptyTally();
  const pastLayout: PastLayoutTally = {};
  const memory = new MemoryBound(base);
  const step = new StepBound(base);
  const memoryBudget = memoryBudgetBytes(base, constraints.memoryFraction);
  const progress = options.onProgress;

  const nearestOutOfMemory: { candidate?: Candidate; neededBytes: number } = { neededBytes: Infinity };
  let reported = -1;
  const report = progress && ((share: number) => {
    const units = Math.floor(Math.min(1, share) * PROGRESS_UNITS);
    if (units > reported) progress(reported = units, PROGRESS_UNITS);
  });
  report?.(0);
  const survivors = enumerateCandidates({
    base, space, memory, step, memoryBudgetBytes: memoryBudget, tally, pastLayout, nearestOutOfMemory,
    onChunk: report && ((done) => report(ENUMERATION_SHARE * (total > 0 ? done / total : 1))),
  });
  survivors.sort((a, b) => a.lowerBoundSeconds - b.lowerBoundSeconds);
  report?.(ENUMERATION_SHARE);
  let settled = total - survivors.length;

  const ranked: RankedPlan[] = [];
  let closest: SearchResult['closestInfeasible'];
  let fullEstimates = 0;
  let fitted = 0;
  let budgetExhausted = false;
  const partialSearched = space.recompute.includes('full-partial');
  // The estimates' own verdicts, apart from `tally` (what was settled without one), so that the two add up to the space.
  const refused = emptyTally();
  /** The plans that fit so far, each once (planKey). */
  const fittedPlans = new Set<string>();
  /** One full estimate, its plan ranked or its refusal tallied. */
  const settle = (candidate: Candidate): Evaluation => {
    const result = evaluateCandidate(base, candidate, memory, memoryBudget);
    fullEstimates += 1;
    if (result.ok) {
      // A partial recompute whose fewest layers that fit are all of them (evaluate.ts) is full recompute, a candidate of
      // its own when the space has it (and a no-recompute plan's twin may come to it too): the first to fit ranks, and
      // the same plan found again is redundant, whichever of them the bounds put first.
      const key = planKey(result.candidate);
      if (fittedPlans.has(key)) {
        addPruned(refused, 'redundant', 1);
        return result;
      }
      fittedPlans.add(key);
      fitted += 1;
      insertRanked(ranked, { candidate: result.candidate, estimate: result.estimate }, top);
      return result;
    }
    const r = result.infeasible;
    // The enumeration applies the planner's divisibility rules, so a rejection here is mostly memory; any
    // other is tallied under the rule its field names (refusalReason), never lumped with another.
    const reason = refusalReason(r);
    addPruned(refused, reason, 1, () => r.message);
    // Every estimated candidate passed the whole enumeration: a rule only the planner checks is the deepest.
    addPastLayout(pastLayout, reason, 1, Infinity);
    if (r.reason === 'out-of-memory' && r.neededBytes !== undefined && r.availableBytes !== undefined
      && (!closest || r.neededBytes < closest.neededBytes)) {
      closest = { candidate: result.candidate, neededBytes: r.neededBytes, availableBytes: r.availableBytes, message: r.message, capacityBytes: base.gpu.hbmBytes };
    }
    return result;
  };
  const cutoff = options.stepCutoffSeconds ?? Infinity;
  /** The step time a candidate's bound must beat: the k-th best's once k plans are ranked, and the request's cutoff. */
  const kthBest = (): number => Math.min(cutoff, ranked.length >= top ? ranked[top - 1]!.estimate.stepTimeSeconds : Infinity);
  for (let i = 0; i < survivors.length; i++) {
    const s = survivors[i]!;
    const kth = kthBest();
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
    const result = settle(s.candidate);
    settled += 1;
    // The enumeration left this plan's partial recompute out for it, its memory bound fitting (enumerate.ts):
    // the estimate does not fit, so recomputing a few layers is estimated in its place, unless its bound loses.
    const twin = !result.ok && result.infeasible.reason === 'out-of-memory' && partialSearched ? partialTwin(base, s.candidate) : undefined;
    if (twin) {
      tally.counts.redundant -= 1;
      const kthNow = kthBest();
      if (step.seconds(twin, base.globalBatchSize / (twin.microBatchSize * twin.data)) >= kthNow) addPruned(tally, 'dominated', 1);
      else if (fullEstimates >= budget) {
        addPruned(tally, 'budget', 1);
        settled -= 1;
        budgetExhausted = true;
      } else settle(twin);
    }
    if (report && fullEstimates % REPORT_EVERY === 0) {
      const kth = kthBest();
      report(ENUMERATION_SHARE + (1 - ENUMERATION_SHARE) * evaluationShare(survivors, i + 1, kth, budget));
    }
  }
  // (Not under a cutoff: there nothing ranked means nothing beat it, not that nothing fits.)
  if (ranked.length === 0 && !closest && nearestOutOfMemory.candidate && options.stepCutoffSeconds === undefined) {
    // Nothing survived the memory bound: estimate the nearest miss, so the answer can say by how much.
    const miss = evaluateCandidate(base, nearestOutOfMemory.candidate, undefined, memoryBudget);
    if (!miss.ok && miss.infeasible.neededBytes !== undefined) {
      closest = {
        candidate: miss.candidate, neededBytes: miss.infeasible.neededBytes, availableBytes: miss.infeasible.availableBytes ?? base.gpu.hbmBytes,
        message: miss.infeasible.message, capacityBytes: base.gpu.hbmBytes,
      };
    }
  }
  report?.(1);
  const emptySpace = total === 0 ? whySpaceIsEmpty(base, constraints, options.space ?? defaultSearchSpace(base, constraints)) : undefined;
  return {
    spaceSize: total,
    candidatesEvaluated: budgetExhausted ? settled : total,
    fullEstimates,
    fitted,
    refused,
    pruned: tally,
    pastLayout,
    top: ranked,
    closestInfeasible: ranked.length === 0 ? closest : undefined,
    budgetExhausted,
    ...(emptySpace !== undefined && { emptySpace }),
  };
}

/** A candidate's settings as one string: two candidates with the same key are the same plan. */
const planKey = (c: Candidate): string => [
  c.tensor, c.pipeline, c.pipelineSlots ?? 'layers', c.data, c.context, c.virtualStages, c.microBatchSize, c.sequenceParallel,
  c.recompute, c.recomputeLayers ?? 'every layer', c.sharding,
].join(' ');

/**
 * Keeps `ranked` sorted by step time and at most `k` long; of two plans as fast, the one needing less memory first (the
 * first found on a tie of both). So ZeRO-3 with one replica of the weights, which shards nothing, takes the step ZeRO-1
 * and 2 take there and mostly needs more (each unit's whole gradient, planner plan-memory.ts): it no longer ranks ahead
 * of such a twin for being listed first. (The twin is always estimated: its step bound leaves out the optimizer step,
 * so it stays below the tied plan's step time, step-bound.ts.)
 */
function insertRanked(ranked: RankedPlan[], plan: RankedPlan, k: number): void {
  const t = plan.estimate.stepTimeSeconds;
  const bytes = plan.estimate.memory.totalBytes;
  const after = (other: RankedPlan): boolean => other.estimate.stepTimeSeconds > t
    || (other.estimate.stepTimeSeconds === t && other.estimate.memory.totalBytes > bytes);
  let i = ranked.length;
  while (i > 0 && after(ranked[i - 1]!)) i--;
  if (i >= k) return;
  ranked.splice(i, 0, plan);
  if (ranked.length > k) ranked.pop();
}

/**
 * The partial recompute of a plan without recompute: full recompute of v layers per stage (one per model chunk,
 * the fewest Megatron takes; the evaluation raises it to the fewest that fit). None where v layers are a whole
 * stage, which is full recompute, a candidate of its own.
 */
function partialTwin(base: SearchBase, c: Candidate): Candidate | undefined {
  if (c.recompute !== 'none') return undefined;
  const most = Math.max(...layersPerStage(base.model.layers, c.pipeline, c.pipelineSlots));
  return c.virtualStages < most ? { ...c, recompute: 'full', recomputeLayers: c.virtualStages } : undefined;
}
