import type { NodesOkJson, NodesResponseJson } from '@trainplan/protocol';
import { countOf } from '@trainplan/units';
import { gpusPerNodeOf } from '../cluster-of.ts';
import { deadlineBatchFor, defaultBatch, isComputedBatch } from '../defaults.ts';
import { nodesGpus } from '../format.ts';
import { DAYS_PER_YEAR } from '../lexicon/quantities.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';
import { cheapestOnLadder, LADDER_WINDOW, type LadderPoint, type SizeTried } from './cluster-ladder.ts';
import { restatedKeepingReadings } from './compared-gpus.ts';
import { answerTokensBought, boughtHeadline, budgetOf, nameClusterNote, tokensNote } from './tokens-bought.ts';

/**
 * The tokens a budget buys where no cluster is named and no deadline given, as tokens-bought.ts answers them, with the
 * size chosen on a ladder of sizes (cluster-ladder.ts) instead of the whole time–cost curve: the size that trains the most
 * tokens within a year of spending the budget is the cheapest a token at or above the fewest nodes that spend it within a
 * year, which a few dozen sizes find in a few hundred milliseconds where the curve takes 2–8 s. Each size is planned as
 * the curve plans it (at its own default batch and at the batch across its aim, the faster taken: default-batch.ts
 * deadlineBatchFor), so the size chosen, its rate and the tokens are the curve's wherever the curve searched that size
 * (test/compute-optimal.test.ts compares both on questions from $100k to $50M and A100 to B200). A cluster named, a
 * deadline (which weighs every size of the curve against it), or a budget no size of the ladder spends within a year:
 * tokens-bought.ts on the whole curve.
 */

/** How tokens a budget buys are answered: this file's ladder, or tokens-bought.ts on the whole curve (the exhaustive path, for tests). */
export type TokensBought = (q: ParsedQuestion, answerOn: (q: ParsedQuestion) => Answer) => Answer;

/** A size planned for its rate: the tokens a GPU-hour of it trains, and the tokens of one optimizer step there. */
interface RatedSize extends LadderPoint {
  readonly tokensPerGpuHour: number;
  readonly stepTokens: number;
}

/** `q` trains as fast or faster for as few GPU-hours or fewer, one of them strictly (capacity-frontier.ts dominates). */
const dominates = (q: LadderPoint, p: LadderPoint): boolean =>
  q.seconds <= p.seconds && q.gpuHours <= p.gpuHours && (q.seconds < p.seconds || q.gpuHours < p.gpuHours);

/**
 * One size as the curve plans it: at each batch the curve tries there (deadlineBatchFor: the size's own default or the
 * batch asked with no size, and the batch across its aim), the faster plan, the own on a tie (@trainplan/search
 * searchOnNodes); a batch stated is the only one. Where none runs, the nearest size that runs, as the planner names it.
 * `unbudgeted`: the question's stated less its budget, the model the tokens are bought for.
 */
function sizePlanner(q: ParsedQuestion, unbudgeted: AskParameters, answerOn: (q: ParsedQuestion) => Answer): (nodes: number) => SizeTried<RatedSize> {
  // As search-answer.ts answerNodesOrTime plans a curve's sizes: per size where no batch is stated and a default is computed.
  const { nodes: _nodes, gpus: _gpus, ...unsized } = restatedKeepingReadings(q, unbudgeted, 'cheapest').parameters;
  const stated = unbudgeted.globalBatchSize !== undefined || unbudgeted.batchTokens !== undefined;
  const batchFor = stated || !isComputedBatch(defaultBatch(unsized)) ? undefined : deadlineBatchFor({ ...unsized, globalBatchSize: undefined });
  return (nodes) => {
    const own = batchFor?.(nodes);
    const other = batchFor?.alternativeFor(nodes);
    const batches = other === undefined || other === own ? [own] : [own, other];
    const plans = batches.map((globalBatchSize) => answerOn(
      restatedKeepingReadings(q, { ...unbudgeted, nodes, ...(globalBatchSize !== undefined && { globalBatchSize }) }, 'time'),
    ).data as NodesResponseJson | undefined);
    const runs = plans.filter((d): d is NodesOkJson => d?.ok === true);
    if (runs.length === 0) {
      const nearest = plans.find((d) => d?.ok === false && d.closest !== undefined);
      return nearest?.ok === false && nearest.closest !== undefined ? { nearest: nearest.closest.nodes } : {};
    }
    const d = runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const resolved = d.configuration.estimate.resolved;
    return {
      point: {
        nodes: d.nodes, gpus: d.gpus, seconds: d.seconds, gpuHours: d.gpuHours, replicaGpus: resolved.gpus / resolved.data,
        groupGpus: resolved.tensor * resolved.context,
        tokensPerGpuHour: d.tokens / d.gpuHours, stepTokens: resolved.globalBatchSize * resolved.seqLength,
      },
    };
  };
}

/** The answer: tokens-bought.ts's, its size from the ladder where it applies (above). */
export function answerTokensBoughtOnLadder(q: ParsedQuestion, answerOn: (q: ParsedQuestion) => Answer): Answer {
  const p = q.parameters;
  const budget = budgetOf(p);
  const named = q.stated.nodes !== undefined || q.stated.gpus !== undefined;
  if (budget === undefined || named || p.deadlineSeconds !== undefined) return answerTokensBought(q, answerOn);
  const { gpuHours: _hours, costBudget: _cost, ...unbudgeted } = q.stated;
  // Within a year: the budget spent in at most DAYS_PER_YEAR days (tokens-bought.ts pickOfCurve, frontier-notes.ts overAYear).
  const withinYear = (r: LadderPoint): boolean => budget.gpuHours / r.gpus / 24 <= DAYS_PER_YEAR;
  const floor = budget.gpuHours / 24 / DAYS_PER_YEAR / gpusPerNodeOf(p);
  const searched = cheapestOnLadder(sizePlanner(q, unbudgeted, answerOn), floor);
  // The pick as tokens-bought.ts picks of the curve: of the Pareto sizes within a year, the one that buys the most tokens.
  const pool = searched.points.filter((r) => withinYear(r) && !searched.points.some((o) => dominates(o, r)));
  if (pool.length === 0) return answerTokensBought(q, answerOn);
  const bought = (r: RatedSize): number => budget.gpuHours * r.tokensPerGpuHour;
  const rate = pool.reduce((a, b) => (bought(b) > bought(a) ? b : a));
  // Whole optimizer steps only (Narayanan et al. SC'21 §2.2), so the GPU-hours never pass the budget.
  const tokens = Math.floor((budget.gpuHours * rate.tokensPerGpuHour) / rate.stepTokens) * rate.stepTokens;
  // Less than one optimizer step: said as tokens-bought.ts says it.
  if (tokens <= 0) return answerTokensBought(q, answerOn);
  const plan = answerOn(restatedKeepingReadings(q, { ...q.stated, nodes: rate.nodes, tokens }, 'time'));
  const planned = plan.data as NodesResponseJson | undefined;
  if (!plan.ok || planned === undefined || !planned.ok) return plan;
  const cluster = nodesGpus(planned);
  const first = Math.max(1, Math.ceil(floor));
  const largest = Math.max(...searched.points.map((r) => r.nodes));
  const notes = [
    tokensNote(budget.gpuHours, rate, cluster),
    `The size that trains the most tokens spending the budget within a year: the fewest GPU-hours a token of ${countOf(searched.searches, 'cluster size')} searched `
      + `from ${countOf(first, 'node')}${first > 1 ? ' (fewer take over a year to spend it)' : ''} to ${largest.toLocaleString('en-US')}: the time–cost curve's ladder of sizes, `
      + `the first multiples of the cheapest plans' model-parallel replicas, and the sizes within ${LADDER_WINDOW} nodes of the cheapest.`,
    nameClusterNote(false),
  ];
  return { ...plan, headline: boughtHeadline(p, budget.words, tokens, cluster, planned.days), notes: [...notes, ...plan.notes] };
}
