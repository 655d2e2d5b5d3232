import { countOf } from '@trainplan/units';
import { describeCandidate } from './candidate.ts';
import { END_REASONS, RULE_REASON_TEXT, type PruneReason, type RuleReason } from './prune-reason.ts';
import type { SearchResult } from './search.ts';

/** Reasons that are not a rule the candidates broke (they say how the search ended, not why nothing runs). */
const NOT_A_RULE: ReadonlySet<PruneReason> = new Set(END_REASONS);
/** Rules named in the sentence, most frequent first (the rest are in the answer's pruned tally). */
const RULES_NAMED = 2;

type Miss = NonNullable<SearchResult['closestInfeasible']>;

/**
 * "(TP 1 · …) needs 268 GiB per GPU on pipeline stage 0, the NVIDIA A100 SXM4 80GB has 80.0 GiB": a candidate's memory
 * shortfall, in the words of its own refusal (the planner's, or the search's memory budget's: memory-budget.ts), so that
 * this line and the answer's "closest miss" line, which gives that refusal, say it alike (QA: "the GPU has 80.0 GiB"
 * beside "the NVIDIA A100 SXM4 80GB has 80.0 GiB").
 */
const shortfall = (miss: Miss): string => `(${describeCandidate(miss.candidate)}) ${miss.message}`;

/** A reason, the candidates it ruled out, and how far they had got (the enumeration's depth: SearchResult.pastLayout). */
type Ruled = [PruneReason, number, number];

/** The rules among `ruled`, deepest first, then most frequent, RULES_NAMED at most. */
const leading = (ruled: Ruled[]): [RuleReason, number, number][] => ruled
  .filter((entry): entry is [RuleReason, number, number] => entry[1] > 0 && !NOT_A_RULE.has(entry[0]))
  .sort((a, b) => b[2] - a[2] || b[1] - a[1])
  .slice(0, RULES_NAMED);

/**
 * Why a search found no plan, in one line. When the candidate budget ran out first, that is the
 * reason (a plan that fits may lie among the candidates not estimated), with the closest candidate
 * seen so far; otherwise the memory shortfall of the candidate that came closest to fitting (what it
 * needs per GPU against the GPU's HBM), or else the rules that ruled every candidate out: where some
 * layouts divide the GPUs and heads, the rules that ended those, the deepest reached first, with their
 * counts; else the layout rules, most frequent first with their share of the space; for a space the
 * constraints leave empty, the constraints that contradict each other.
 */
export function whyNothingFits(
  result: Pick<SearchResult, 'closestInfeasible' | 'pruned' | 'pastLayout' | 'budgetExhausted' | 'spaceSize' | 'fullEstimates' | 'emptySpace'>
    & Partial<Pick<SearchResult, 'refused'>>,
): string {
  const miss = result.closestInfeasible;
  if (result.budgetExhausted) {
    const estimates = countOf(result.fullEstimates, 'full estimate');
    return `the candidate budget ran out after ${estimates}, before any plan that fits was estimated${miss ? `; the closest seen so far ${shortfall(miss)}` : ''}`;
  }
  if (miss) return `out of memory: the plan that comes closest ${shortfall(miss)}`;
  // The largest tallies are layouts that no request runs (the default space's TP 16 over 8 KV heads, its depths that do
  // not divide the GPUs: 96% of Llama 3.1 405B's space on 512 GPUs), and a rule checked early counts whole subtrees that
  // later ones would also end. So the rules named are those that ended the layouts that pass, the ones reached deepest
  // first (a full estimate's refusal deepest of all): what the request decided (QA: its virtual stages, 4% of that
  // space, went unnamed). A rule counts its candidates whether the enumeration or a full estimate found them.
  // The planner's own refusal gives its first message, which names the field and the rule (check-plan.ts): the rule's
  // text alone said neither (QA: a ZeRO-2 search with fp8Params).
  const refusal = result.refused?.examples['planner-refused'];
  const decided = leading(Object.entries(result.pastLayout).map(([reason, { count, depth }]) => [reason as PruneReason, count, depth]));
  if (decided.length > 0) {
    return `no plan passes Megatron's divisibility rules where tensor × pipeline × context divides the GPUs and tensor the heads: `
      + decided.map(([reason, count]) => `${RULE_REASON_TEXT[reason]}${reason === 'planner-refused' && refusal ? `: ${refusal}` : ''} (${countOf(count, 'candidate')})`).join('; ');
  }
  // Else no estimate was refused for a rule (it would be past the layout): the enumeration's tally is every rule's.
  const rules = leading(Object.entries(result.pruned.counts).map(([reason, count]) => [reason as PruneReason, count, 0]));
  if (rules.length === 0) return result.emptySpace ?? 'no candidate plan in the search space';
  const share = (count: number) => `${Math.max(1, Math.round((count / Math.max(1, result.spaceSize)) * 100))}%`;
  return `no plan passes Megatron's divisibility rules: ${rules.map(([reason, count]) => `${RULE_REASON_TEXT[reason]} (${share(count)} of candidates)`).join('; ')}`;
}
