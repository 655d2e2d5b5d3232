import { formatPercentChange } from '@trainplan/units';
import type { PlanEstimate } from '@trainplan/planner';
import { describeCandidate, type Candidate, type SearchBase } from './candidate.ts';
import { searchPlans } from './search.ts';
import type { SearchSpace } from './search-space.ts';

/**
 * The planner's step-time error as validated: 4.9% mean absolute error over 70 published training runs, against a target
 * of 5% (docs/validation.md, "all" row). Two plans whose step times differ by less are not told apart by the model.
 */
export const VALIDATED_STEP_ERROR = 0.05;

/**
 * Where context parallelism is meant to pay: sequences of 8K tokens and more (NVIDIA Megatron-LM
 * docs/user-guide/parallelism-guide.md: CP is "best for" and used when "Long sequences (8K+ tokens)"; its recommended
 * GPT-3 175B layout on 128–512 GPUs is TP 4 · PP 8 · CP 1).
 */
export const LONG_SEQUENCE_TOKENS = 8192;

/** The fastest plan without context parallelism, near the best plan that uses it. */
export interface SimplerAlternative {
  readonly candidate: Candidate;
  readonly estimate: PlanEstimate;
  /** Its step time over the best's, minus 1: at most VALIDATED_STEP_ERROR. */
  readonly slowdown: number;
  /** One line, for the answer's alternatives: the plan, its gap and tokens/s, and why the tie matters. */
  readonly why: string;
}

/**
 * Where the best plan runs context parallelism (CP > 1) and the fastest plan of the same space without it (CP 1) is within
 * VALIDATED_STEP_ERROR of its step time: that plan, else undefined. The ranking stays as it is; this names the near-tie, which
 * the model cannot settle. QA: on 2,048-token models the search often picks CP 2 (1,024-token chunks) at +0.0–4.8% over the
 * best CP 1 plan, GPT-3 175B on 128 H100 at batch 256 TP 2 · PP 16 · DP 2 · CP 2, where no published 2k recipe runs CP.
 * Found by a search of the space at CP 1 alone for plans within the error (stepCutoffSeconds: the bounds prune the rest
 * before any estimate); none where the space leaves CP 1 out (the request asked for context parallelism).
 */
export function simplerAlternative(
  base: SearchBase, best: { candidate: Candidate; estimate: PlanEstimate }, space: SearchSpace, memoryFraction?: number,
): SimplerAlternative | undefined {
  if (best.candidate.context <= 1 || !space.context.includes(1)) return undefined;
  const cutoff = best.estimate.stepTimeSeconds * (1 + VALIDATED_STEP_ERROR);
  const found = searchPlans(base, {
    top: 1, space: { ...space, context: [1] }, stepCutoffSeconds: cutoff,
    ...(memoryFraction !== undefined && { constraints: { memoryFraction } }),
  }).top[0];
  if (found === undefined || found.estimate.stepTimeSeconds > cutoff) return undefined;
  const slowdown = found.estimate.stepTimeSeconds / best.estimate.stepTimeSeconds - 1;
  return { candidate: found.candidate, estimate: found.estimate, slowdown, why: nearTieText(base, best.candidate, found, slowdown) };
}

/** The near-tie in words: the CP-1 plan's gap and tokens/s, the model's error, and, on a short sequence, what CP does to it. */
function nearTieText(base: SearchBase, best: Candidate, plain: { candidate: Candidate; estimate: PlanEstimate }, slowdown: number): string {
  const tokens = Math.round(plain.estimate.tokensPerSecond).toLocaleString('en-US');
  const short = base.seqLength < LONG_SEQUENCE_TOKENS
    ? `; Megatron-Core's parallelism guide keeps context parallelism for long sequences (8K+ tokens), and CP ${best.context} cuts these `
      + `${base.seqLength.toLocaleString('en-US')} into ${(base.seqLength / best.context).toLocaleString('en-US')}-token chunks`
    : '';
  return `without context parallelism (${describeCandidate(plain.candidate)}): ${formatPercentChange(slowdown)} step time `
    + `(${tokens} tokens/s), within the planner's ${VALIDATED_STEP_ERROR * 100}% validated step-time error: a near-tie the model cannot settle${short}`;
}
