import { daysText, nvlinkDomainsText, type EstimateOk, type FrontierSizeJson, type MemoryJson, type NodesResponseJson } from '@trainplan/protocol';
import { countOf, formatBytes, formatCount, formatNumber, formatPercent, formatSeconds } from '@trainplan/units';
import { esc } from '../charts/markup.ts';
import { frontierChart } from '../charts/frontier-chart.ts';
import { memoryParts } from '../charts/memory-bar.ts';
import { pipelineChart } from '../charts/pipeline-chart.ts';
import type { Budget } from '../form/scenario-from-fields.ts';
import { pipelineTimeline } from '../schedule/pipeline-timeline.ts';
import { frontierSentence } from '../sizing/frontier-sentence.ts';
import type { NodesAnswer } from '../sizing/nodes-answer.ts';

/** One headline figure: the value large, what it is (and its unit) under it; `name` marks it for tests and styles. */
export const stat = (name: string, value: string, label: string) => `<div data-stat="${name}"><b>${esc(value)}</b><span>${esc(label)}</span></div>`;

/**
 * Step time, throughput, per-GPU TFLOP/s, MFU and HFU (hardware FLOPs: the recomputed forwards counted too, so
 * above MFU only with recompute), the model's parameters and (with a token budget) the time to train.
 */
export function headline(e: EstimateOk): string {
  const parts = [
    stat('step', formatSeconds(e.stepTimeSeconds), 'step time'),
    stat('tokens', formatCount(e.tokensPerSecond), 'tokens/s'),
    stat('tflops', formatNumber(e.modelTflopsPerGpu), 'model TFLOP/s per GPU'),
    // An FP8 plan's utilisation is of the FP8 peak, twice the 16-bit one on Hopper: said, or it reads as FP8 doing worse (QA).
    stat('mfu', formatPercent(e.mfu), e.resolved.precision === 'fp8' ? 'MFU (of the FP8 peak)' : 'MFU'),
    stat('hfu', formatPercent(e.hfu), 'HFU (recompute counted)'),
    stat('parameters', formatCount(e.parameters), 'parameters'),
  ];
  if (e.timeToTrain) parts.push(stat('days', daysText(e.timeToTrain.days), `to train ${formatCount(e.timeToTrain.tokens)} tokens`));
  return parts.join('');
}

/** An answer's advice (the estimate's: tensor parallelism across nodes, memory near the limit, …; serving's caveats), one item each. */
export function warningsList(e: { readonly warnings: readonly string[] }): string {
  return e.warnings.map((w) => `<li data-warning>${esc(w)}</li>`).join('');
}

/** The most micro-batches the schedule picture draws (it shows the first ones); the chart caps its boxes too (MAX_DRAWN_BOXES). */
const MAX_DRAWN_MICRO_BATCHES = 16;

/**
 * The pipeline picture for the estimate's p, m, v and schedule. Backward is twice the forward, or
 * three times with full recompute (it re-runs the forward first; Korthikanti et al. 2022 §4).
 */
export function pipelineSection(e: EstimateOk): string {
  const r = e.resolved;
  if (r.pipeline === 1) return '<p class="caption">No pipeline (p = 1): every GPU holds all layers, so there is no bubble.</p>';
  const interleaved = r.schedule === 'interleaved';
  const m = r.microBatches <= MAX_DRAWN_MICRO_BATCHES ? r.microBatches
    : interleaved ? r.pipeline * Math.max(1, Math.floor(MAX_DRAWN_MICRO_BATCHES / r.pipeline)) : MAX_DRAWN_MICRO_BATCHES;
  const t = pipelineTimeline({ stages: r.pipeline, microBatches: m, virtualStages: r.virtualStages, schedule: r.schedule, backwardRatio: r.recompute === 'full' ? 3 : 2 });
  const step = m < r.microBatches ? { microBatches: r.microBatches, bubble: e.breakdown.pipelineBubbleSeconds / e.stepTimeSeconds } : undefined;
  return t.ok ? pipelineChart(t.timeline, step) : `<p class="caption">${esc(t.message)}</p>`;
}

/**
 * What each "how many nodes" answer is: with Auto the searched answer (a configuration per cluster size) is
 * shown above the one at the form's configuration, and the two must not be told apart by position alone.
 */
export const ANSWER_LABELS = { searched: 'Best plan found', fixed: 'Your configuration' } as const;

/** An answer's label, first in its paragraph. */
const labelled = (kind: keyof typeof ANSWER_LABELS): string => `<span class="answer-label">${esc(ANSWER_LABELS[kind])}:</span> `;

/**
 * The "how many nodes" answer in words, at the configuration in the form (its t, p, c and batches). Times to train here and in
 * the headline are protocol's daysText, the CLI's (units' formatDuration): "34.2 days", "23.8 hours" (QA: "0.990 days").
 */
export function nodesSection(answer: NodesAnswer | undefined, budget: Budget): string {
  if (budget.tokens === undefined || budget.deadlineDays === undefined) return '<p class="caption">Give a token budget and a deadline to size the cluster.</p>';
  // The deadline as the reader typed it, grouped: "30-day", "2.5-day", "36,500-day" (three figures made 30 "30.0", QA).
  const deadline = budget.deadlineDays.toLocaleString('en-US');
  const goal = `${formatCount(budget.tokens)} tokens in ${deadline} days`;
  if (!answer || answer.kind === 'none') return `<p data-answer="none">${labelled('fixed')}${esc(`no node count trains ${goal}${answer ? `: ${answer.message}` : ''}.`)}</p>`;
  if (answer.kind === 'too-slow') {
    return `<p data-answer="too-slow">${labelled('fixed')}${esc(`not reachable; the fastest tried, ${countOf(answer.fastestNodes, 'node')}, takes ${daysText(answer.fastestDays)}.`)}</p>`;
  }
  return `<p data-answer="meets">${labelled('fixed')}<b data-nodes="${answer.nodes}">${esc(countOf(answer.nodes, 'node'))}</b>${esc(` (${countOf(answer.gpus, 'GPU')}) train ${formatCount(budget.tokens)} tokens in ${daysText(answer.days)}, within the ${deadline}-day deadline; ${formatCount(answer.gpuHours)} GPU-hours.`)}</p>`
    + '<p class="caption">The fewest nodes that meet the deadline at this t, p, c, micro-batch and global batch (data parallelism grows with the nodes).</p>';
}

/** `text` ending as a sentence (a full stop unless it has one). */
export const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * The searched "how many nodes" answer (runNodes): the fewest nodes with the best configuration for each size. When
 * it finds none, `own` (the plan Auto found on the form's nodes) is said too where it is faster than the closest:
 * runNodes searches up to 8,192 nodes, and 16,384 typed in the form trained Megatron 1T in 146 days against 199.
 */
export function searchedNodesSection(n: NodesResponseJson, own?: FrontierSizeJson, deadlineDays = Infinity): string {
  if (!n.ok) {
    // runNodes often gives the failure's own message as the closest point's why: say it once.
    const why = n.closest && n.closest.why !== n.message ? ` Closest: ${sentence(n.closest.why)}` : '';
    const mine = own && own.days < (n.closest?.days ?? Infinity)
      ? `<p data-searched-own="${own.nodes}">${esc(`On your ${countOf(own.nodes, 'node')}, searched: ${daysText(own.days)}${own.days <= deadlineDays ? ', within the deadline' : ''}, ${formatCount(own.gpuHours)} GPU-hours with ${own.label}.`)}</p>` : '';
    return `<p data-searched-answer="${esc(n.reason)}">${labelled('searched')}${esc(`none; ${sentence(n.message)}${why}`)}</p>${mine}${largerBatchNote(n)}`;
  }
  const gpus = countOf(n.gpus, 'GPU') + (n.nvlinkDomains ? ` in ${nvlinkDomainsText(n.gpus, n.nvlinkDomains)}` : '');
  return `<p data-searched-answer="ok">${labelled('searched')}<b data-searched-nodes="${n.nodes}">${esc(countOf(n.nodes, 'node'))}</b>${esc(` (${gpus}) with ${n.configuration.label}: ${daysText(n.days)}, ${formatCount(n.gpuHours)} GPU-hours.`)}</p>`
    + `<p class="caption">The fewest nodes that meet the deadline, the configuration searched anew for each cluster size.</p>${largerBatchNote(n)}`;
}

/**
 * The time–cost curve (runNodes with frontier): the chart of days against GPU-hours per cluster size, its sentence, and a
 * caption that says what each mark is, the rings among them (QA: the fastest's dotted ring and the solid ones went unexplained).
 */
export function frontierSection(n: NodesResponseJson, currentNodes: number): string {
  if (!n.ok) return `<p class="caption" data-frontier="${esc(n.reason)}">${esc(`Time–cost curve: ${sentence(n.message)}`)}</p>`;
  const chart = frontierChart({ sizes: n.frontier ?? [], cheapestNodes: n.nodes, fastestNodes: n.fastest?.nodes ?? n.nodes, currentNodes });
  // The form's batch is every size's (frontierRequestFor sends it), where the CLI, the API and the bot, given none, size one
  // to each cluster (QA: "fastest: 4,480 nodes" here beside the bot's 8,100 for the same plan, unsaid).
  const batches = new Set((n.frontier ?? []).map((s) => s.globalBatchSize));
  const batch = batches.size === 1 ? ` Each size at your batch, ${countOf([...batches][0]!, 'sequence')}.` : '';
  return `<div class="frontier" data-frontier="ok">${chart}<p data-frontier-sentence>${esc(frontierSentence(n, currentNodes))}</p>`
    + `<p class="caption">Line: each size searched (its best plan), fewest nodes first; dots: the smallest, the powers of two and, filled and joined, those none beats on both days and GPU-hours; ringed: the cheapest and, dotted, the fastest; outlined: your node count; labels: node counts; +%: GPU-hours over the cheapest.${batch}</p>`
    + `${largerBatchNote(n)}</div>`;
}

/** runNodes's hint when the batch, not the cluster, holds the plan back (the same question at twice the batch). */
const largerBatchNote = (n: NodesResponseJson): string =>
  (n.largerBatch ? `<p class="caption" data-larger-batch="${n.largerBatch.globalBatchSize}">${esc(n.largerBatch.message)}</p>` : '');

/**
 * The message beside the micro-batch when the plan does not fit: `need` (" (needs … per GPU)" or ''), then the
 * changes that lower its peak (memoryLevers: each checked, none merely not pulled yet), or that none here does.
 */
export function outOfMemoryMessage(need: string, levers: readonly string[]): string {
  const last = levers.at(-1);
  if (last === undefined) return `out of memory${need}: no change here lowers it; try a GPU with more memory`;
  return `out of memory${need}: try ${levers.length > 1 ? `${levers.slice(0, -1).join(', ')}, or ${last}` : last}`;
}

/** "; activations 118 GiB": the largest part of a plan's memory per GPU, said after what it needs. */
export function largestPart(m: MemoryJson): string {
  const largest = memoryParts(m).reduce((a, b) => (b.bytes > a.bytes ? b : a));
  return `; ${largest.label} ${formatBytes(largest.bytes)}`;
}
