import { formatPercentChange, formatSeconds } from '@trainplan/units';
import { pipelineSplit, splitsIntoChunks, type PipelineSplit } from '@trainplan/model';
import { checkPlan, weightReplicas, type PlanEstimate, type StepBreakdown } from '@trainplan/planner';
import { cannotRunText } from './alternative-rules.ts';
import { describeCandidate, planFor, type Candidate, type RecomputeChoice, type SearchBase } from './candidate.ts';
import { evaluateCandidate } from './evaluate.ts';
import { MemoryBound } from './memory-bound.ts';
import { memoryBudgetBytes } from './memory-budget.ts';
import type { SearchSpace } from './search-space.ts';
import { simplerAlternative } from './simpler-alternative.ts';

/** A plan one step away from the best, and why it loses. */
export interface Alternative {
  /** What changed, e.g. "TP 16". */
  readonly change: string;
  readonly candidate: Candidate;
  /** Present when it runs: its estimate, and how much slower it is than the best (0.12 = 12%). */
  readonly estimate?: PlanEstimate;
  readonly slowdown?: number;
  /** One line: "TP 16 crosses nodes: +31% tensor-parallel communication (+1.2 s per step)". */
  readonly why: string;
  /** True when the space searched (the request's constraints) leaves it out: it may even be faster. */
  readonly outsideSpace?: true;
  /**
   * True for the fastest plan without context parallelism where the best uses it and this one is within the planner's
   * validated step-time error (simpler-alternative.ts): a near-tie, listed first.
   */
  readonly nearTie?: true;
}

/** Whether the space has every one of the candidate's settings (a partial full recompute is 'full-partial'). */
function inSpace(space: SearchSpace, c: Candidate): boolean {
  const recompute: RecomputeChoice = c.recompute === 'full' && c.recomputeLayers !== undefined ? 'full-partial' : c.recompute;
  return space.tensor.includes(c.tensor) && space.pipeline.includes(c.pipeline) && space.pipelineSlots.includes(c.pipelineSlots ?? 'layers')
    && space.context.includes(c.context)
    && space.virtualStages.includes(c.virtualStages) && space.microBatchSize.includes(c.microBatchSize)
    && space.sequenceParallel.includes(c.sequenceParallel) && space.recompute.includes(recompute) && space.sharding.includes(c.sharding);
}

const PARTS: readonly [keyof StepBreakdown, string][] = [
  ['computeSeconds', 'compute'],
  ['tensorParallelCommSeconds', 'tensor-parallel communication'],
  ['pipelineBubbleSeconds', 'pipeline bubble'],
  ['pipelineCommSeconds', 'pipeline sends'],
  ['dataParallelCommSeconds', 'exposed data-parallel communication'],
  ['contextParallelCommSeconds', 'context-parallel communication'],
  ['optimizerSeconds', 'optimizer step'],
];

/**
 * One step down from a size: half of it, or for an odd size its largest proper divisor (PP 9 → 3,
 * micro-batch 3 → 1), so that every neighbour is a whole number of GPUs or sequences.
 */
function stepDown(n: number): number {
  for (let f = 2; f * f <= n; f++) if (n % f === 0) return n / f;
  return 1;
}

/** A neighbour of the best plan: what changed, and the plan (`recomputeChanged`: the change is the recompute itself). */
interface Neighbour { change: string; candidate: Candidate; recomputeChanged?: true }

/**
 * A partial recompute's layers per stage for a plan of `v` model chunks over `split`: rounded up to a multiple of v
 * (Megatron recomputes the same number in each chunk, checkPlan), and all of the fullest stage's being full recompute.
 */
function recomputedLayersFor(split: PipelineSplit, c: Candidate, v: number): number | undefined {
  if (c.recompute !== 'full' || c.recomputeLayers === undefined) return c.recomputeLayers;
  const rounded = Math.ceil(c.recomputeLayers / v) * v;
  return rounded >= Math.max(split.first, split.middle, split.last) ? undefined : rounded;
}

/**
 * A neighbour as Megatron can run it, where moving one dimension breaks a rule that a setting of the best plan only
 * carried along: its model chunks (v) become the most, up to the best plan's, that its split and its micro-batches take
 * (every stage's layers in v equal chunks, the micro-batches in whole rounds of the stages, more than 2 stages without
 * overlapped sends; checkPlan, enumerate.ts), among those the space searched has where it is given, so that the change
 * is the one dimension and no more than Megatron needs: the change then says the v (", v 3"), or " (no interleaving)"
 * where only v 1 runs (QA: GPT-3 175B on 1,024 A100 at 1,536 called PP 32 at v 1 "+14%, mostly pipeline bubble", where
 * PP 32 at v 3 runs +6.4%). A partial recompute is fitted to its v (recomputedLayersFor). A neighbour that breaks a rule
 * of its own (no split of the layers, a batch it does not divide) stays as it is: that rule is why it loses.
 */
function asRunnable(base: SearchBase, best: Candidate, change: string, c: Candidate, space: SearchSpace | undefined): Neighbour {
  const split = pipelineSplit(base.model.layers, c.pipeline, c.pipelineSlots);
  const perStep = c.microBatchSize * c.data;
  if (split === undefined || base.globalBatchSize % perStep !== 0) return { change, candidate: c };
  // The rules on v that do not depend on which v (checkPlan): a pipeline of more than one stage, whole rounds of micro-batches,
  // overlapped sends on 2 stages. The split's rule does: the largest v that splits every stage's layers (or slots).
  const interleaves = c.pipeline > 1 && (base.globalBatchSize / perStep) % c.pipeline === 0 && (c.pipeline > 2 || base.overlapPipelineComm);
  let v = 1;
  if (interleaves) {
    for (let w = c.virtualStages; w > 1; w--) {
      if (splitsIntoChunks(split, w) && (w === c.virtualStages || space === undefined || space.virtualStages.includes(w))) {
        v = w;
        break;
      }
    }
  }
  const said = v >= best.virtualStages || c.pipeline === 1 ? '' : v > 1 ? `, v ${v}` : ' (no interleaving)';
  return { change: change + said, candidate: { ...c, virtualStages: v, recomputeLayers: recomputedLayersFor(split, c, v) } };
}

/** The single neighbours of a plan: one dimension moved one step, data parallelism re-derived. */
function neighbours(base: SearchBase, best: Candidate, space: SearchSpace | undefined): Neighbour[] {
  const gpus = base.nodes * base.gpusPerNode;
  const domain = base.nvlinkDomainGpus;
  const out: Neighbour[] = [];
  const L = base.model.layers;
  const runnable = (change: string, candidate: Candidate) => out.push(asRunnable(base, best, change, candidate, space));
  const withDegrees = (change: string, t: number, p: number, c: number, extra: Partial<Candidate> = {}) => {
    const d = gpus / (t * p * c);
    if (!Number.isInteger(d) || d < 1 || t < 1 || p < 1 || c < 1) return;
    // The best plan's split layout where the new depth has it, else the layers alone.
    const slots = pipelineSplit(L, p, best.pipelineSlots) !== undefined ? best.pipelineSlots : undefined;
    runnable(change, { ...best, tensor: t, pipeline: p, pipelineSlots: slots, context: c, data: d, ...extra });
  };
  const tp = (t: number) => `TP ${t}${t > domain ? ' crosses nodes' : ''}`;
  withDegrees(tp(best.tensor * 2), best.tensor * 2, best.pipeline, best.context, { sequenceParallel: best.sequenceParallel });
  const tDown = stepDown(best.tensor);
  if (best.tensor > 1) withDegrees(tp(tDown), tDown, best.pipeline, best.context, { sequenceParallel: tDown > 1 && best.sequenceParallel });
  withDegrees(`PP ${best.pipeline * 2}`, best.tensor, best.pipeline * 2, best.context);
  if (best.pipeline > 1) withDegrees(`PP ${stepDown(best.pipeline)}`, best.tensor, stepDown(best.pipeline), best.context);
  withDegrees(`CP ${best.context * 2}`, best.tensor, best.pipeline, best.context * 2);
  if (best.context > 1) withDegrees(`CP ${stepDown(best.context)}`, best.tensor, best.pipeline, stepDown(best.context));
  runnable(`micro-batch ${best.microBatchSize * 2}`, { ...best, microBatchSize: best.microBatchSize * 2 });
  if (best.microBatchSize > 1) runnable(`micro-batch ${stepDown(best.microBatchSize)}`, { ...best, microBatchSize: stepDown(best.microBatchSize) });
  if (best.tensor > 1) {
    runnable(best.sequenceParallel ? 'without sequence parallelism' : 'with sequence parallelism', { ...best, sequenceParallel: !best.sequenceParallel });
  }
  const split = pipelineSplit(L, best.pipeline, best.pipelineSlots);
  // The change is the v: it stays (a v the micro-batches do not take is why that neighbour loses), the recompute fits it.
  const withV = (change: string, v: number) => out.push({ change, candidate: { ...best, virtualStages: v, recomputeLayers: recomputedLayersFor(split!, best, v) } });
  if (best.virtualStages > 1) withV('no interleaving (v 1)', 1);
  else if (best.pipeline > 1 && split !== undefined) {
    // The fewest chunks Megatron takes here, up to one slot per chunk (search-space.ts megatronVirtualStages).
    for (let v = 2; v <= Math.ceil(split.slotCount / best.pipeline); v++) {
      if (splitsIntoChunks(split, v)) {
        withV(`interleaved, v ${v}`, v);
        break;
      }
    }
  }
  // A split that counts the embedding or the loss, against the layers alone (a Megatron without the account-for flags).
  if (best.pipelineSlots !== undefined && best.pipelineSlots !== 'layers' && pipelineSplit(L, best.pipeline) !== undefined) {
    runnable('the layers alone split over the stages', { ...best, pipelineSlots: undefined });
  }
  for (const r of ['none', 'selective', 'full'] as const) {
    if (r !== best.recompute || best.recomputeLayers !== undefined) {
      out.push({ change: r === 'none' ? 'no recompute' : `${r} recompute`, candidate: { ...best, recompute: r, recomputeLayers: undefined }, recomputeChanged: true });
    }
  }
  const otherSharding = best.sharding === 'none' ? 'distributed-optimizer' : 'none';
  // With one replica of the weights (DP × CP = 1) the distributed optimizer shards nothing: toggling it is the same plan.
  const samePlan = weightReplicas(best) === 1 && (best.sharding === 'none' || best.sharding === 'distributed-optimizer');
  if (!samePlan) {
    out.push({ change: otherSharding === 'none' ? 'without the distributed optimizer' : 'with the distributed optimizer', candidate: { ...best, sharding: otherSharding } });
  }
  return out;
}

const pct = formatPercentChange;
/** A signed change of time, in the units the rest of the answer uses ("+840 µs", "+1.20 s", "+4.91 days"). */
const secs = (x: number): string => `${x >= 0 ? '+' : '−'}${formatSeconds(Math.abs(x))}`;

/**
 * What grew: "mostly +32% compute (+5.41 s per step)" where one part is at least half of the step's increase, else the
 * two that grew the most, "largest: +65.4 ms compute, +45.4 ms tensor-parallel communication per step" (QA: "mostly
 * compute" said of 65.4 ms out of 179 ms). `stepIncrease` is the step time's, which the parts sum to (planner estimate.ts).
 */
function dominantIncrease(best: StepBreakdown, alt: StepBreakdown, stepIncrease: number): string {
  const grown = PARTS.map(([key, name]) => ({ key, name, delta: alt[key] - best[key] })).sort((a, b) => b.delta - a.delta);
  const [first, second] = [grown[0]!, grown[1]!];
  if (first.delta >= 0.5 * stepIncrease) {
    const before = best[first.key];
    return `mostly ${before > 0 ? `${pct(first.delta / before)} ` : ''}${first.name} (${secs(first.delta)} per step)`;
  }
  return `largest: ${secs(first.delta)} ${first.name}, ${secs(second.delta)} ${second.name} per step`;
}

const layersText = (n: number | undefined): string => (n === undefined ? 'every layer' : `${n} layer${n === 1 ? '' : 's'}/stage`);

/**
 * What a neighbour that keeps the best plan's partial recompute recomputes, where that is another count: " (recomputing
 * 3 layers/stage, not 2)" where its v takes a multiple of it (asRunnable), ", to fit" where the evaluation raised it
 * (evaluate.ts), and " (even recomputing every layer)" where even full recompute does not fit. `fits` is undefined for
 * a neighbour that breaks a rule before any estimate.
 */
function recomputeNote(best: Candidate, asked: Candidate, evaluated: Candidate, fits: boolean | undefined): string {
  if (best.recomputeLayers === undefined || evaluated.recompute !== 'full' || evaluated.recomputeLayers === best.recomputeLayers) return '';
  if (fits === false && evaluated.recomputeLayers === undefined) return ' (even recomputing every layer)';
  const raised = fits === true && evaluated.recomputeLayers !== asked.recomputeLayers ? ', to fit' : '';
  return ` (recomputing ${layersText(evaluated.recomputeLayers)}, not ${best.recomputeLayers}${raised})`;
}

/**
 * The nearest alternatives to the best plan (one dimension moved one step) and why each loses: the
 * planner's own breakdown says which part of the step grew, or why it cannot run: the Megatron rule it
 * breaks, in plain words (alternative-rules.ts), or the memory it needs (above the search's memory budget
 * included: `memoryFraction` as the search had it). Given the
 * `space` searched, a neighbour outside it (ruled out by the request's constraints) is said to be so,
 * with how much faster or slower it would be, after the ones inside it. A neighbour faster than the best
 * is as fast within the model's resolution (a tie the ranking broke), or, when the search's candidate
 * budget ran out (`budgetExhausted`), one the budget left unestimated, which is said with its gain. Given the `space`, where
 * the best plan runs context parallelism and the fastest plan without it is within the planner's validated error, that plan
 * comes first, marked `nearTie` (simpler-alternative.ts).
 */
export function explainAlternatives(
  base: SearchBase, best: { candidate: Candidate; estimate: PlanEstimate },
  { limit = 8, memoryFraction, space, budgetExhausted = false }: { limit?: number; memoryFraction?: number; space?: SearchSpace; budgetExhausted?: boolean } = {},
): Alternative[] {
  const memory = new MemoryBound(base);
  const budget = memoryBudgetBytes(base, memoryFraction);
  const out: Alternative[] = [];
  // A neighbour that cannot run and that the constraints also leave out says both, as a runnable one says the latter
  // (QA: "TP 4: needs 134 GiB…" under --tensor 8, with nothing to say TP 4 was not searched).
  const unrunnable = (change: string, candidate: Candidate, reason: string): Alternative => {
    if (space === undefined || inSpace(space, candidate)) return { change, candidate, why: `${change}: ${reason}` };
    return { change, candidate, why: `${change}: ${reason}; outside the space searched too (the constraints rule it out)`, outsideSpace: true };
  };
  for (const neighbour of neighbours(base, best.candidate, space)) {
    const { candidate } = neighbour;
    const note = (evaluated: Candidate, fits: boolean | undefined) => (neighbour.recomputeChanged ? '' : recomputeNote(best.candidate, candidate, evaluated, fits));
    // Megatron's start-up rules first, said of this neighbour in plain words (a field name or another size is no answer here).
    const issue = checkPlan(planFor(base, candidate))[0];
    if (issue !== undefined) {
      const change = neighbour.change + note(candidate, undefined);
      out.push(unrunnable(change, candidate, cannotRunText(base, candidate, issue)));
      continue;
    }
    const result = evaluateCandidate(base, candidate, memory, budget);
    // To fit, the evaluation may recompute more layers than the best plan does: that is part of the change, and often its cost.
    const change = neighbour.change + note(result.candidate, result.ok);
    if (!result.ok) {
      // Memory, mostly; a rule the estimate found after all is said as the check above says it.
      const rule = result.infeasible.reason === 'out-of-memory' ? undefined : result.infeasible.issues?.[0];
      out.push(unrunnable(change, result.candidate, rule ? cannotRunText(base, result.candidate, rule) : result.infeasible.message));
      continue;
    }
    const slowdown = result.estimate.stepTimeSeconds / best.estimate.stepTimeSeconds - 1;
    if (space !== undefined && !inSpace(space, result.candidate)) {
      out.push({ change, candidate: result.candidate, estimate: result.estimate, slowdown, outsideSpace: true, why: `${change}: ${pct(slowdown)} step time, outside the space searched (the constraints rule it out)` });
      continue;
    }
    const why = slowdown <= 0 && budgetExhausted
      ? `${change}: faster (${pct(slowdown)} step time), not estimated before the candidate budget ran out: raise it`
      : slowdown <= 0 ? `${change}: as fast (${pct(slowdown)} step time) within the model's resolution`
      : `${change}: ${pct(slowdown)} step time, ${dominantIncrease(best.estimate.breakdown, result.estimate.breakdown, result.estimate.stepTimeSeconds - best.estimate.stepTimeSeconds)}`;
    out.push({ change, candidate: result.candidate, estimate: result.estimate, slowdown, why });
  }
  // The near-tie without context parallelism first (it is the one a reader should weigh against the best), in place of the
  // same plan found as a neighbour; then runnable ones inside the space, the closest first; then those outside it; then the
  // ones that cannot run. Not after a search the budget cut short: its best is not the best, and the budget was the user's.
  const plain = space === undefined || budgetExhausted ? undefined : simplerAlternative(base, best, space, memoryFraction);
  if (plain !== undefined) {
    const same = describeCandidate(plain.candidate);
    out.splice(0, out.length, ...out.filter((a) => describeCandidate(a.candidate) !== same));
    out.push({ change: 'without context parallelism', candidate: plain.candidate, estimate: plain.estimate, slowdown: plain.slowdown, why: plain.why, nearTie: true });
  }
  const rank = (a: Alternative) => (a.nearTie ? -1 : a.slowdown === undefined ? 2 : a.outsideSpace ? 1 : 0);
  out.sort((a, b) => rank(a) - rank(b) || (a.slowdown ?? 0) - (b.slowdown ?? 0));
  return out.slice(0, limit);
}
