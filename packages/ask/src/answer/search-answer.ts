import { runNodes, type NodesResponseJson } from '@trainplan/protocol';
import { countOf, days, formatCountExact, toDays } from '@trainplan/units';
import { daysWithinDeadline, deadlineVerdict } from './deadline-verdict.ts';
import { askedSizeSaid } from './asked-size-said.ts';
import { namedClusterNote, namedClusterReading } from './named-cluster.ts';
import { askedTimeUnit, daysAsAsked } from './time-as-asked.ts';
import { tokensInTime } from './tokens-in-time.ts';
import { asksGpuHours, gpuHoursOfFrontier, nodeHoursNote, priceNeededNote } from './gpu-hours-asked.ts';
import { deadlineBatchFor } from '../defaults.ts';
import { clusterAsAsked, compactCount, formatDays, statedMoney } from '../format.ts';
import { modelInputOf, modelNameOf } from '../model-of.ts';
import type { ParsedQuestion } from '../question.ts';
import type { Answer, AnswerOptions, PublicUrl } from './answer-types.ts';
import { budgetBuys, enoughVerdict, inQuestionWords } from './budget-verdict.ts';
import { forCost } from './cost.ts';
import { gpuName } from './describe-estimate.ts';
import { frontierNotes, overAYear, sizeParts, sizeText } from './frontier-notes.ts';
import { cheapestWithin, cheapestWithinNotes, type DeadlineGoal } from './cheapest-by-deadline.ts';
import { answerHelp } from './help-answer.ts';
import { refusalWords } from './issue-words.ts';
import { listOf } from './stated-mfu.ts';
import { belowOneProblem } from './whole-counts.ts';
import { searchEdgeNote } from './search-edge.ts';
import { memoryFractionNote, searchSettingsOf } from './search-switches.ts';
import { uptimeSaid } from './uptime-note.ts';
import { answerBestConfiguration } from './best-configuration.ts';
import { failure, planAnswer, subjectOf } from './plan-answer.ts';
import { constraintsOf, goalOf, machineOf, nodesOf, trainingOf } from './search-request.ts';

/**
 * Nodes, time and best-configuration questions, answered by the protocol's configuration search:
 * runNodes for "how many nodes" (the fewest nodes whose best configuration meets the deadline), "how
 * long" (days on the given nodes with the best configuration) and "cheapest" (its time–cost frontier),
 * runSearch for "best config". With a price per GPU-hour, each plan's cost beside its GPU-hours.
 * Numbers come from the plan's contract estimate, so they match POST /v1/estimate for the same scenario.
 */

export { answerBestConfiguration } from './best-configuration.ts';

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
