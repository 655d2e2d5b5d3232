import { countOf, formatBytes } from '@trainplan/units';
import { describeCandidate } from './candidate.ts';
import { END_REASONS, RULE_REASON_TEXT, type PruneReason, type RuleReason } from './prune-reason.ts';
import type { SearchResult } from './search.ts';

/** Reasons that are not a rule the candidates broke (they say how the search ended, not why nothing runs). */
const NOT_A_RULE: ReadonlySet<PruneReason> = new Set(END_REASONS);
/** Rules named in the sentence, most frequent first (the rest are in the answer's pruned tally). */
const RULES_NAMED = 2;

type Miss = NonNullable<SearchResult['closestInfeasible']>;

/** "(TP 1 · …) needs 79.6 GiB per GPU, the GPU has 79.6 GiB": a candidate's memory shortfall. */
function shortfall(miss: Miss): string {
  const limit = miss.availableBytes < miss.capacityBytes
    ? `the search leaves ${formatBytes(miss.availableBytes)} of the GPU's ${formatBytes(miss.capacityBytes)} usable (memoryFraction)`
    : `the GPU has ${formatBytes(miss.availableBytes)}`;
  return `(${describeCandidate(miss.candidate)}) needs ${formatBytes(miss.neededBytes)} per GPU, ${limit}`;
}

/**
 * Why a search found no plan, in one line. When the candidate budget ran out first, that is the
 * reason (a plan that fits may lie among the candidates not estimated), with the closest candidate
 * seen so far; otherwise the memory shortfall of the candidate that came closest to fitting (what it
 * needs per GPU against the GPU's HBM), or else the divisibility rules that ruled every candidate
 * out, most frequent first with their share of the space; for a space the constraints leave empty,
 * the constraints that contradict each other.
 */
export function whyNothingFits(
  result: Pick<SearchResult, 'closestInfeasible' | 'pruned' | 'refused' | 'budgetExhausted' | 'spaceSize' | 'fullEstimates' | 'emptySpace'>,
): string {
  const miss = result.closestInfeasible;
  if (result.budgetExhausted) {
    const estimates = countOf(result.fullEstimates, 'full estimate');
    return `the candidate budget ran out after ${estimates}, before any plan that fits was estimated${miss ? `; the closest seen so far ${shortfall(miss)}` : ''}`;
  }
  if (miss) return `out of memory: the plan that comes closest ${shortfall(miss)}`;
  // A rule counts its candidates whether the enumeration or a full estimate (a rule only the planner checks) found them.
  const rules = (Object.entries(result.pruned.counts) as [PruneReason, number][])
    .map(([reason, count]): [PruneReason, number] => [reason, count + result.refused.counts[reason]])
    .filter((entry): entry is [RuleReason, number] => entry[1] > 0 && !NOT_A_RULE.has(entry[0]))
    .sort((a, b) => b[1] - a[1])
    .slice(0, RULES_NAMED);
  if (rules.length === 0) return result.emptySpace ?? 'no candidate plan in the search space';
  const share = (count: number) => `${Math.max(1, Math.round((count / Math.max(1, result.spaceSize)) * 100))}%`;
  return `no plan passes Megatron's divisibility rules: ${rules.map(([reason, count]) => `${RULE_REASON_TEXT[reason]} (${share(count)} of candidates)`).join('; ')}`;
}
