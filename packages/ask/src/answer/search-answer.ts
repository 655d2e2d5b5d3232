import {
  runNodes, runSearch, type EstimateOk, type NodesResponseJson, type ScenarioInput, type SearchPlanJson, type SearchResponseJson,
} from '@trainplan/protocol';
import { countOf, days, formatBytes, formatCountExact, formatSeconds, toDays } from '@trainplan/units';
import { daysWithinDeadline, deadlineVerdict } from './deadline-verdict.ts';
import { askedMetric, leadWithAsked, withAskedFigure } from './asked-metric.ts';
import { askedSizeSaid } from './asked-size-said.ts';
import { namedClusterNote, namedClusterReading } from './named-cluster.ts';
import { askedTimeUnit, daysAsAsked } from './time-as-asked.ts';
import { tokensInTime } from './tokens-in-time.ts';
import { asksGpuHours, gpuHoursOfFrontier, nodeHoursNote, priceNeededNote } from './gpu-hours-asked.ts';
import { DEFAULT_GPU, deadlineBatchFor, defaultBatch, defaultBatchNote, gpusPerNodeOf, isComputedBatch } from '../defaults.ts';
import { clusterAsAsked, compactCount, formatDays, moneyText, statedMoney } from '../format.ts';
import { modelInputOf, modelNameOf } from '../model-of.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import { widgetLink } from '../scenario.ts';
import { shardingOf } from '../sharding.ts';
import { zeroDataConstraints, zeroLayoutNote } from './zero-data.ts';
import type { Answer, AnswerOptions, PublicUrl } from './answer-types.ts';
import { statedDataNote } from './stated-data-note.ts';
import { budgetNotes, type BudgetPlan } from './budget-note.ts';
import { budgetBuys, budgetClause, enoughVerdict, inQuestionWords, planVerdict } from './budget-verdict.ts';
import { costFigures, forCost, type Spend } from './cost.ts';
import { mfuText, describeConfiguration, estimateNumbers, gpuName, planWords } from './describe-estimate.ts';
import { figuresFor } from './memory-parts.ts';
import { frontierNotes, overAYear, sizeParts, sizeText } from './frontier-notes.ts';
import { cheapestWithin, cheapestWithinNotes, type DeadlineGoal } from './cheapest-by-deadline.ts';
import { answerHelp } from './help-answer.ts';
import { failureKind, refusalWords } from './issue-words.ts';
import { listOf, statedMfuNote, statedMfuUnused } from './stated-mfu.ts';
import { belowOneProblem, partNodesProblem } from './whole-counts.ts';
import { searchEdgeNote } from './search-edge.ts';
import { memoryFractionNote, searchSettingsOf, searchTrainingSwitches, switchConstraints } from './search-switches.ts';
import { uptimeSaid, wallClockFigures, widgetUptimeNote } from './uptime-note.ts';

/**
 * Nodes, time and best-configuration questions, answered by the protocol's configuration search:
 * runNodes for "how many nodes" (the fewest nodes whose best configuration meets the deadline), "how
 * long" (days on the given nodes with the best configuration) and "cheapest" (its time–cost frontier),
 * runSearch for "best config". With a price per GPU-hour, each plan's cost beside its GPU-hours.
 * Numbers come from the plan's contract estimate, so they match POST /v1/estimate for the same scenario.
 */

/** The search's machine: a system id when a node type was named (it fixes the fabric), else the GPU. */
const machineOf = (p: AskParameters): { gpu: string; gpusPerNode?: number; network?: string } => ({
  gpu: p.system ?? p.gpu ?? DEFAULT_GPU,
  ...(p.network !== undefined && { network: p.network }),
  ...(p.gpusPerNode !== undefined && { gpusPerNode: p.gpusPerNode }),
});

interface Training extends ReturnType<typeof searchTrainingSwitches> {
  globalBatchSize?: number;
  precision: NonNullable<AskParameters['precision']>;
  seqLength?: number;
  dropout?: boolean;
}

/**
 * Sequences per step: the stated global batch, else the default one (defaultBatch), said among the assumptions.
 * None where the default cannot be computed ("on 0 nodes"): the protocol refuses the bad field, and the batch it
 * then misses is left unsaid beside it (issuesWords).
 */
function trainingOf(p: AskParameters): { training: Training; assumptions: string[] } {
  const rest = {
    precision: p.precision ?? 'bf16', ...(p.seqLength !== undefined && { seqLength: p.seqLength }),
    // A model sized in a family's style trains as its rows did (custom-model.ts trainedWithDropout); a preset states its own.
    ...(p.customModel !== undefined && { dropout: p.customModel.trainedWithDropout }),
    // Dropout, the attention kernel and FP8 weights as stated, over the model's own (search-switches.ts).
    ...searchTrainingSwitches(p),
  } as const;
  if (p.globalBatchSize !== undefined) return { training: { globalBatchSize: p.globalBatchSize, ...rest }, assumptions: [] };
  const batch = defaultBatch(p);
  if (!isComputedBatch(batch)) return { training: rest, assumptions: [] };
  return { training: { globalBatchSize: batch.sequences, ...rest }, assumptions: [defaultBatchNote(batch)] };
}

/**
 * The question's own settings as search constraints, each held exactly: recompute, micro-batch,
 * sequence parallelism, sharding (shardingOf's one choice), and the tensor, pipeline, context and
 * virtual-stage sizes (the search's exact lists: "with tp 8" plans TP 8, not TP 8 or less).
 */
function constraintsOf(p: AskParameters): Record<string, unknown> {
  const sharding = shardingOf(p);
  return {
    ...(p.recompute !== undefined && { recompute: [p.recompute] }),
    ...(p.microBatchSize !== undefined && { microBatchSizes: [p.microBatchSize] }),
    ...(p.sequenceParallel !== undefined && { sequenceParallel: [p.sequenceParallel] }),
    ...(sharding !== undefined && { sharding: [sharding] }),
    ...(p.tensor !== undefined && { tensorSizes: [p.tensor] }),
    ...(p.pipeline !== undefined && { pipelineSizes: [p.pipeline] }),
    ...(p.context !== undefined && { contextSizes: [p.context] }),
    ...(p.virtualStages !== undefined && { virtualStageCounts: [p.virtualStages] }),
    // The share of memory and the schedule stated (search-switches.ts).
    ...switchConstraints(p),
  };
}

/**
 * Whole nodes for the question's cluster; fewer GPUs than one node ("on 1 GPU", "on 4 H100") are one node of
 * that many, as the best configuration plans them (runSearch's cluster.gpus); a problem sentence when GPUs past
 * one node do not fill whole nodes.
 */
function nodesOf(p: AskParameters): { nodes: number; gpusPerNode?: number } | string {
  if (p.nodes !== undefined) return { nodes: p.nodes };
  const perNode = gpusPerNodeOf(p);
  const gpus = p.gpus ?? perNode;
  if (gpus < perNode && p.gpusPerNode === undefined) return { nodes: 1, gpusPerNode: gpus };
  return gpus % perNode === 0 ? { nodes: gpus / perNode } : partNodesProblem(gpus, perNode);
}

interface PlanView {
  scenario: ScenarioInput;
  estimate: EstimateOk;
}

/** What a runNodes size or runSearch plan spends: its GPU-hours and the protocol's cost of them (none without tokens). */
const spendOf = (s: { gpuHours?: number; cost?: number }): Spend | undefined =>
  s.gpuHours === undefined ? undefined : { gpuHours: s.gpuHours, ...(s.cost !== undefined && { cost: s.cost }) };

/**
 * `spend`: the GPU-hours and cost the protocol returned with the plan. `extra.budgetPlan`: whose spend the
 * budget notes say, when not the plan answered (a cheapest answer's: its budget was no goal of the search).
 * `extra.wallClock`: the nodes search's days and GPU-hours for the plan, on the wall clock at the uptime asked: the time
 * to train figure and the stated MFU's days are said on it too (uptime-note.ts wallClockFigures).
 */
function planAnswer(
  q: ParsedQuestion, publicUrl: PublicUrl, plan: PlanView, spend: Spend | undefined, headline: string,
  extra: { assumptions: string[]; notes: string[]; data: unknown; budgetPlan?: BudgetPlan; wallClock?: { days: number; gpuHours: number; tokens: number } },
): Answer {
  const uptime = extra.wallClock === undefined ? 1 : q.parameters.uptime ?? 1;
  return {
    intent: q.intent,
    kind: 'answer',
    ok: true,
    question: q.text,
    headline,
    configuration: describeConfiguration(plan.estimate),
    figures: [...wallClockFigures(figuresFor(q.intent, plan.estimate), q.parameters, extra.wallClock), ...costFigures(q.parameters, spend)],
    ...estimateNumbers(plan.estimate),
    assumptions: [...q.defaults.map((d) => d.text), ...extra.assumptions],
    notes: [
      ...plan.estimate.warnings, ...extra.notes, ...budgetNotes(q.parameters, spend, { plan: extra.budgetPlan ?? 'answered' }),
      ...listOf(statedMfuNote(q.parameters, plan.estimate, uptime)),
      // Last, next to the link: the widget plans it at full uptime (uptime-note.ts).
      ...widgetUptimeNote(q.parameters, publicUrl !== null, extra.wallClock),
    ],
    scenario: plan.scenario,
    ...widgetLink(plan.scenario, publicUrl, q.parameters),
    examples: [],
    data: extra.data,
  };
}

/** `reason`: the protocol's, which says whether the failure refuses the question or answers it (failureKind). */
function failure(
  q: ParsedQuestion, publicUrl: PublicUrl, reason: string, headline: string,
  closest: { why: string; scenario?: ScenarioInput; estimate?: EstimateOk; days?: number; gpuHours?: number; cost?: number } | undefined,
  extra: { assumptions: string[]; data: unknown; notes?: string[]; wallClock?: boolean },
): Answer {
  const base: Answer = {
    intent: q.intent, kind: failureKind(reason), ok: false, question: q.text, headline, figures: [],
    assumptions: [...q.defaults.map((d) => d.text), ...extra.assumptions],
    // runNodes often gives its failure's message as the closest point's why: the headline says it already.
    notes: [
      ...listOf(statedMfuUnused(q.parameters)), ...(closest === undefined || headline.includes(closest.why) ? [] : [`Closest that works: ${closest.why}`]),
      ...(extra.notes ?? []),
      // The search's own message counts the budget bare ("cost 1,143,346"): the closest's standing, with its currency.
      ...budgetNotes(q.parameters, closest === undefined ? undefined : spendOf(closest), { plan: 'closest' }),
    ],
    examples: [], data: extra.data,
  };
  if (closest === undefined) return base;
  if (closest.scenario !== undefined && closest.estimate !== undefined) {
    // Its figures answer another question (another cluster or budget): every one says so, in chat too.
    return {
      ...base,
      configuration: `closest that works, not what was asked: ${describeConfiguration(closest.estimate)}`,
      // The nodes search's closest is on the wall clock at the uptime asked (extra.wallClock): its time to train figure too.
      figures: [
        ...(extra.wallClock === true ? wallClockFigures(figuresFor(q.intent, closest.estimate), q.parameters, { ...closest, tokens: closest.estimate.timeToTrain?.tokens })
          : figuresFor(q.intent, closest.estimate)),
        ...costFigures(q.parameters, spendOf(closest)),
      ].map((f) => ({ ...f, label: `${f.label} (closest)` })),
      scenario: closest.scenario,
      ...widgetLink(closest.scenario, publicUrl, q.parameters),
      ...(extra.wallClock === true && { notes: [...base.notes, ...widgetUptimeNote(q.parameters, publicUrl !== null, closest, false)] }),
    };
  }
  return base;
}

const subjectOf = (p: AskParameters): string => `${modelNameOf(p)} on ${gpuName(p.gpu ?? '')}`;

/** The request's goal: a deadline or budget (nodes, and cheapest with a deadline), nodes (time), or the frontier (cheapest). */
function goalOf(q: ParsedQuestion): (Record<string, unknown> & { gpusPerNode?: number }) | string {
  const p = q.parameters;
  if (q.intent === 'time') {
    return nodesOf(p);
  }
  // Cheapest with a GPU-hour budget but no deadline: the cheapest plan, said against the budget (budgetNotes of the cheapest).
  if (q.intent === 'cheapest' && p.deadlineSeconds === undefined) return { frontier: true };
  return {
    ...(p.deadlineSeconds !== undefined && { days: toDays(p.deadlineSeconds) }),
    ...(p.gpuHours !== undefined && { gpuHours: p.gpuHours }),
    ...(p.costBudget !== undefined && { budget: p.costBudget }),
  };
}

/** "How many nodes", "how long" and "cheapest": runNodes in its three modes. */
export function answerNodesOrTime(q: ParsedQuestion, options: AnswerOptions, publicUrl: PublicUrl): Answer {
  const p = q.parameters;
  // A nodes question naming a cluster ("… in 30 days on 12 H100") takes the batch as if none were named: it plans other
  // sizes, for which a batch shaped to 12 GPUs (513 sequences) runs badly; the one named is planned at it too (named-cluster.ts).
  const { nodes: _nodes, gpus: _gpus, ...unsized } = p;
  // Every mode but "how long on N nodes" plans sizes of its own choosing: the request's batch is the one asked with no size
  // (each size then at its own, perSize); "how long" carries its size's own default, as the CLI's nodes --nodes N does.
  const sizes = q.intent !== 'time';
  const { training, assumptions: batch } = trainingOf(sizes ? unsized : p);
  const byDeadline = q.intent === 'cheapest' && p.deadlineSeconds !== undefined;
  const assumptions = batch;
  // A search sizes data parallelism itself and sends none: "dp 0" is refused here as the protocol refuses "tp 0".
  const noData = belowOneProblem('data', p.data);
  if (noData !== undefined) return failure(q, publicUrl, 'invalid', `${subjectOf(p)}: ${noData}`, undefined, { assumptions, data: undefined });
  const goal = goalOf(q);
  if (typeof goal === 'string') return answerHelp(q, [goal]);
  // A part of one node ("on 4 H100") is a node of that many GPUs.
  const { gpusPerNode, ...target } = goal;
  // With no batch stated, the sizes of a deadline, a budget and the cheapest's curve are each planned at the batch the
  // question about that size alone takes (runNodes' globalBatchFor with deadlineBatchFor, as the CLI's nodes does for
  // --days, a budget and --frontier: apps/cli/src/commands/nodes.ts sizeBatch), and "how long … on N nodes" plans N at the
  // same batches (the protocol's searchAskedSize), so "how many nodes …", "cheapest …" and "how long … on N nodes" agree
  // with each other and with the CLI (QA: "how many H100 nodes … in 30 days" answered 103 nodes in 29.9 days at 412
  // sequences; "how long … on 103 H100 nodes", at its own 515 alone, 33.6 days). Part of one node ("on 4 H100") is no size
  // a deadline's search plans: it keeps the batch shaped to its GPUs alone.
  const perSize = q.stated.globalBatchSize === undefined && q.stated.batchTokens === undefined && (sizes || gpusPerNode === undefined)
    && training.globalBatchSize !== undefined ? deadlineBatchFor({ ...unsized, globalBatchSize: undefined }) : undefined;
  // The batch said among the assumptions: with perSize, the one the size answered (or the closest) took, not the one
  // the question would take with no size.
  const batchSaid = (nodes: number | undefined, sequences: number | undefined): { shown: ParsedQuestion; said: string[] } => {
    if (perSize === undefined || nodes === undefined || sequences === undefined) return { shown: q, said: assumptions };
    // The size's own default, the multiple across its aim where that ran faster, or the batch asked with no size
    // (deadlineBatchFor's said), as the CLI's nodes says it; how to plan that size alone at it said in words.
    const took = perSize.said(nodes, sequences);
    const own = !sizes ? askedSizeSaid(perSize, nodes, sequences) : took.why === 'own'
      ? `${took.note}; each cluster size was tried at the batch a question about that size alone takes, and at the multiple across its aim where faster`
      : `${took.note}; "on ${nodes} nodes with a global batch of ${sequences}" plans that size alone at it`;
    const shown = { ...q, defaults: q.defaults.map((d) => (d.field === 'globalBatchSize' ? { ...d, value: sequences, text: own } : d)) };
    return { shown, said: [...(shown.defaults.some((d) => d.field === 'globalBatchSize') ? [] : [own]), ...assumptions.slice(batch.length)] };
  };
  const budget = {
    ...(options.candidateBudget !== undefined && { candidateBudget: options.candidateBudget }),
    ...(perSize !== undefined && { globalBatchFor: perSize }),
  };
  // runNodes on the question's model and training for a goal (a deadline, a budget, nodes), on nodes of `perNode` GPUs when part of one.
  const runFor = (goalFields: Record<string, unknown>, perNode: number | undefined): NodesResponseJson => runNodes({
    model: modelInputOf(p), cluster: { ...machineOf(p), ...(perNode !== undefined && { gpusPerNode: perNode }) }, training, tokens: p.tokens, constraints: constraintsOf(p), ...goalFields,
    ...searchSettingsOf(p),
    ...(p.pricePerGpuHour !== undefined && { pricePerGpuHour: p.pricePerGpuHour }),
    ...(p.uptime !== undefined && { uptime: p.uptime }),
  }, budget);
  const found = runFor(target, gpusPerNode);
  // "Cheapest … in D days": the size that meets the deadline for the fewest GPU-hours, weighed on the time–cost curve
  // (cheapest-by-deadline.ts), not merely the fewest nodes that meet it; a goal no size meets is said as the search says it.
  const weighed = byDeadline && found.ok ? cheapestOfDeadline(q, found, (fields) => runFor(fields, gpusPerNode)) : undefined;
  const result = weighed?.answer ?? found;
  const tokens = compactCount(p.tokens ?? 0);
  // runNodes's hint when the batch, not the cluster, holds the plan back (the same question at twice the batch).
  const hint = result.largerBatch === undefined ? [] : [result.largerBatch.message];
  // Nothing runs on part of a node: said as the best configuration says it, its closest in whole nodes, not nodes of that part.
  if (!result.ok && gpusPerNode !== undefined) return answerBestConfiguration(q, options, publicUrl);
  // "How many nodes … on 64 H100": the 64 GPUs named are planned too (their time to train, on their own nodes).
  const onNamed = (): NodesResponseJson => {
    const on = nodesOf(p);
    return typeof on === 'string' ? { ok: false, reason: 'invalid', message: on } : runFor({ nodes: on.nodes }, on.gpusPerNode);
  };
  // "Is $1M enough …": "Yes: " or "No: " first.
  const verdict = enoughVerdict(q, result);
  if (!result.ok) {
    const namedNote = namedClusterNote(q, onNamed);
    // A budget no size meets: its money in the question's currency (the closest's why, often the message, too), and the tokens it does buy.
    const budget = result.reason === 'budget-unreachable';
    const words = budget ? `${inQuestionWords(result.message, p)}${budgetBuys(p, result.closest)}` : refusalWords(result);
    const closest = budget && result.closest !== undefined ? { ...result.closest, why: inQuestionWords(result.closest.why, p) } : result.closest;
    // The closest's configuration is shown: the batch said is the one it took on its size, as on success.
    const failed = batchSaid(result.closest?.nodes, result.closest?.scenario?.training.globalBatchSize);
    const up = uptimeSaid(p, result.closest?.days === undefined ? undefined : { days: result.closest.days, ...(result.closest.gpuHours !== undefined && { gpuHours: result.closest.gpuHours }) });
    return failure(failed.shown, publicUrl, result.reason, `${verdict}${subjectOf(p)}: ${words}`, closest, {
      assumptions: [...failed.said, ...up.assumptions], data: result, notes: [...memoryFractionNote(p), ...up.notes, ...listOf(namedNote), ...hint], wallClock: true,
    });
  }
  const plan = result.configuration;
  // Each size planned at its own default batch (perSize): the batch said is the one the answer's size took, in every
  // mode (a deadline's, a budget's and the curve's), not the batch the question would take with no size.
  const { shown, said } = batchSaid(result.nodes, plan.scenario.training.globalBatchSize);
  // The uptime the days and GPU-hours are on the wall clock at, as the CLI's nodes says it (uptime-note.ts).
  const up = uptimeSaid(p, result);
  if (result.mode === 'cost-time-frontier') {
    const size = sizeParts(result, p);
    const slow = overAYear(result, p);
    // "How many GPU-hours …": the GPU-hours first, of a plan one would run (gpu-hours-asked.ts).
    const of = `${modelNameOf(p)} (${tokens} tokens) on ${gpuName(p.gpu ?? '')}`;
    const headline = asksGpuHours(q) ? `GPU-hours to train ${of}: ${gpuHoursOfFrontier(result, p)}`
      : `Cheapest for ${of}: ${size.cluster}, ${slow?.days ?? size.days}, ${size.spend}${slow === undefined ? '' : `; ${slow.faster}`}`;
    return planAnswer(shown, publicUrl, plan, result, headline, {
      assumptions: [...said, ...up.assumptions], notes: [...memoryFractionNote(p), ...up.notes, ...frontierNotes(result, p, q.text)], budgetPlan: 'cheapest', data: result, wallClock: result,
    });
  }
  // "on 4 GPUs", not "on 1 node (4 GPUs)", for part of a node.
  // "How many GB200 NVL72 racks …": the racks first (format.ts clusterAsAsked). The verb agrees with the count that leads
  // ("1 rack … trains", "4 GPUs … train").
  const cluster = gpusPerNode !== undefined ? countOf(result.gpus, 'GPU') : clusterAsAsked(result, q.text);
  const goals = [
    ...(p.deadlineSeconds !== undefined ? [`deadline ${formatDays(toDays(p.deadlineSeconds))}`] : []),
    ...(p.gpuHours !== undefined ? [`budget ${formatCountExact(p.gpuHours)} GPU-hours`] : []),
    ...(p.costBudget !== undefined ? [`budget ${statedMoney(p.costBudget, p.currency)}`] : []),
  ].join(', ');
  // A cheapest question asks what the plan spends: its GPU-hours when no price makes them money.
  // A cost asked with no price ("what does it cost … in 60 days"): the GPU-hours a price would make money, the note says how.
  const cost = forCost(p, result.cost) || (byDeadline || (q.intent === 'nodes' && asksGpuHours(q)) ? ` for ${compactCount(result.gpuHours)} GPU-hours` : '');
  const headline = q.intent === 'time'
    ? tokensInTime(q, result.days, { text: cluster, gpus: result.gpus }, subjectOf(p)) ?? `${subjectOf(p)}: ${asksGpuHours(q) ? `${compactCount(result.gpuHours)} GPU-hours, ` : ''}${daysAsAsked(result.days, askedTimeUnit(q.text))} to train ${tokens} tokens on ${cluster}${cost}${deadlineVerdict(q.stated, result.days, p.tokens ?? 0)}`
    : `${byDeadline ? 'Cheapest for ' : ''}${subjectOf(p)}: ${cluster} train${/^1 /.test(cluster) ? 's' : ''} ${tokens} tokens in ${p.deadlineSeconds === undefined ? formatDays(result.days) : daysWithinDeadline(result.days, toDays(p.deadlineSeconds))}${cost} (${goals})`;
  // Said first: what the named cluster does, then the nodes the deadline needs.
  const named = namedClusterReading(q, result, subjectOf(p), onNamed);
  const searched = `${countOf(result.searches, 'cluster size')} searched`;
  // A budget alone (no deadline) asks for the fastest plan it affords, the smallest cluster that fits beside it.
  const smallest = result.smallest === undefined ? '' : `; the smallest cluster that fits: ${sizeText(result.smallest, p)}${result.smallest.withinBudget ? '' : ', over the budget'}`;
  // How the size was chosen; a cheapest answer with a deadline says it in notes of its own (cheapest-by-deadline.ts).
  const how = weighed?.notes ?? [q.intent === 'time' ? 'With the fastest configuration the search found on these nodes.'
    : result.mode === 'fastest-within-budget' ? `The fastest plan the budget affords (${searched})${smallest}.`
      : `The fewest nodes whose best configuration meets the deadline (${searched}).`];
  const notes = [
    ...memoryFractionNote(p),
    ...priceNeededNote(q),
    ...nodeHoursNote(q, result.gpuHours),
    ...how,
    // A budget's fastest at the search's largest size: a larger cluster, never searched, may be faster.
    ...(result.mode === 'fastest-within-budget' ? searchEdgeNote(result.note) : []),
    // The GPU-hours are in the time-to-train figure already (describe-estimate), not restated here.
    ...hint,
  ];
  return planAnswer(shown, publicUrl, plan, result, `${verdict}${named?.headline ?? headline}`, {
    assumptions: [...said, ...up.assumptions], notes: [...up.notes, ...(named === undefined ? [] : [named.note]), ...notes], data: result, wallClock: result,
  });
}

/**
 * A cheapest question with a deadline, once `fewest` (the fewest nodes that meet it, within any budget stated) is
 * found: the cheapest size that meets it of the time–cost curve's and `fewest` (cheapestWithin), with its own plan
 * (the days on that many nodes, as `trainplan nodes --nodes N` plans them: each size at the batch it took on the
 * curve), and the notes that say how it was chosen. `run` asks runNodes for a goal on the question's model and training.
 */
function cheapestOfDeadline(
  q: ParsedQuestion, fewest: Extract<NodesResponseJson, { ok: true }>, run: (goal: Record<string, unknown>) => NodesResponseJson,
): { answer: NodesResponseJson; notes: string[] } {
  const p = q.parameters;
  // The deadline as runNodes holds sizes to it: the days it was sent as, in seconds (protocol nodes.ts).
  const goal: DeadlineGoal = {
    deadlineSeconds: days(toDays(p.deadlineSeconds ?? 0)),
    ...(p.gpuHours !== undefined && { gpuHours: p.gpuHours }),
    ...(p.costBudget !== undefined && { costBudget: p.costBudget }),
  };
  const curve = run({ frontier: true });
  const pick = cheapestWithin(fewest, curve, goal);
  const planned = pick.nodes === fewest.nodes ? fewest : run({ nodes: pick.nodes });
  // A size the curve ran runs on its own too; were it not to, the fewest nodes that meet the deadline stand.
  const answer = planned.ok ? planned : fewest;
  return { answer, notes: cheapestWithinNotes(answer, fewest, curve, goal, p) };
}


/**
 * "Best config", and memory or estimate questions that state no layout (searchesLayout): runSearch on
 * the question's cluster (whole nodes, or fewer GPUs than one node), the best plan with the runners-up
 * and why they lose. The headline answers what was asked: the best plan, whether the model fits there
 * and in how much memory, or its step time and MFU.
 */
export function answerBestConfiguration(q: ParsedQuestion, options: AnswerOptions, publicUrl: PublicUrl): Answer {
  const p = q.parameters;
  const cluster: { nodes: number } | { gpus: number } = p.nodes !== undefined ? { nodes: p.nodes } : { gpus: p.gpus ?? gpusPerNodeOf(p) };
  const size = 'nodes' in cluster ? countOf(cluster.nodes, 'node') : countOf(cluster.gpus, 'GPU');
  const { training: trained, assumptions } = trainingOf(p);
  const noData = belowOneProblem('data', p.data);
  if (noData !== undefined) return failure(q, publicUrl, 'invalid', `${subjectOf(p)} on ${size}: ${noData}`, undefined, { assumptions, data: undefined });
  const training = { ...trained, ...(p.tokens !== undefined && { tokens: p.tokens }) };
  const request = {
    model: modelInputOf(p), cluster: { ...machineOf(p), ...cluster }, training, top: 3, constraints: constraintsOf(p), ...searchSettingsOf(p),
    ...(p.pricePerGpuHour !== undefined && { pricePerGpuHour: p.pricePerGpuHour }),
  };
  const searchOptions = options.candidateBudget === undefined ? {} : { candidateBudget: options.candidateBudget };
  // A ZeRO stage or FSDP asked: layouts that shard over data parallelism first (zero-data.ts); all layouts if none of those runs.
  const gpus = 'gpus' in cluster ? cluster.gpus : cluster.nodes * gpusPerNodeOf(p);
  const sharded = zeroDataConstraints(p, gpus, gpusPerNodeOf(p));
  const shardedResult = sharded === undefined ? undefined : runSearch({ ...request, constraints: { ...request.constraints, ...sharded } }, searchOptions);
  const result: SearchResponseJson = shardedResult?.ok === true ? shardedResult : runSearch(request, searchOptions);
  const zeroNote = sharded === undefined ? [] : [zeroLayoutNote(p, gpus, shardedResult?.ok === true, result.ok ? result.best.estimate.resolved : undefined)];
  if (!result.ok) {
    // Out of memory is "does not fit"; a cluster no split divides (no nearestMiss) runs nothing for another reason.
    const fit = q.intent === 'memory' && result.reason === 'no-feasible-configuration' && result.nearestMiss !== undefined ? 'does not fit for training: ' : '';
    return failure(q, publicUrl, result.reason, `${subjectOf(p)} on ${size}: ${fit}${refusalWords(result)}`, result.closest, { assumptions, data: result, notes: [...memoryFractionNote(p), ...zeroNote] });
  }
  const best: SearchPlanJson = result.best;
  const e = best.estimate;
  // ", $8.98M" after "for 15.0T tokens", not a second " for".
  const cost = best.cost === undefined ? '' : `, ${moneyText(best.cost, p.currency)}`;
  const days = best.days === undefined ? '' : `, ${formatDays(best.days)} for ${compactCount(p.tokens ?? 0)} tokens${cost}`;
  const step = `${formatSeconds(e.stepTimeSeconds)} per step, ${mfuText(e, ' MFU')}`;
  // An estimate question heads with what it asks ("tokens per second": tokens/s; "hfu": HFU), the step time and MFU after.
  const metric = askedMetric(q.text);
  const headline = q.intent === 'memory'
    ? `${subjectOf(p)} × ${size}: fits for training, ${formatBytes(e.memory.totalBytes)} per GPU of ${formatBytes(e.memory.capacityBytes)} with the fastest plan that fits: ${planWords(e)} (${step})`
    : q.intent === 'estimate'
      ? `${subjectOf(p)} × ${size}: ${leadWithAsked(e, metric)} with the fastest plan found: ${planWords(e)}`
      : `${planVerdict(q, best)}Best for ${subjectOf(p)} × ${size}: ${planWords(e)} (${step}${days})${budgetClause(q.stated, p, best)}`
        + deadlineVerdict(q.stated, best.days ?? 0, p.tokens ?? 0);
  const notes = [
    ...memoryFractionNote(p),
    ...zeroNote,
    ...statedDataNote(p.data, e.resolved.gpus, e.resolved.data),
    // The search's fewerNodes: fewer nodes whose best plan steps faster at the same batch (protocol fewer-nodes-json.ts), said
    // as the CLI's search says it (QA: 416 of 448 A100 nodes step in 66.5 s, 2.5% faster, and the bot never said so).
    ...(result.fewerNodes === undefined ? [] : [`Fewer nodes run faster: ${result.fewerNodes.why}.`]),
    `${compactCount(result.candidatesEvaluated)} of ${compactCount(result.spaceSize)} candidates settled, ${result.fullEstimates} fully estimated${result.budgetExhausted ? ' (budget reached: the best found so far)' : ''}.`,
    ...result.alternatives.slice(0, 3).map((a) => `Runner-up ${a.why}`),
  ];
  const answered = planAnswer(q, publicUrl, best, spendOf(best), headline, { assumptions, notes, data: result });
  return q.intent === 'estimate' ? { ...answered, figures: withAskedFigure(answered.figures, e, metric) } : answered;
}
