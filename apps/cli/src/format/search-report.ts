import { daysText, type SearchOkJson, type SearchPlanJson, type SearchResponseJson } from '@trainplan/protocol';
import { countOf, formatBytes, formatFixedGrouped, formatSeconds } from '@trainplan/units';
import { compactCount, countText, grouped } from './count-text.ts';
import { fp8Peak, mfuCells, mfuHeaders, mfuText, type Fp8Peak } from './mfu-text.ts';
import { costHeader, costWithCurrency } from './price-currency.ts';
import { renderTable, type Align } from './table.ts';
import { wholeText } from './whole-text.ts';
import { batchWarningLines } from '../batch-warning.ts';

/** A column of the top-plans table: shown only where some plan has the figure (days and GPU-hours with --tokens, cost with --price too). */
interface PlanColumn {
  header: string;
  cell: (p: SearchPlanJson) => string | undefined;
  align: Align;
}

/** The table's columns; MFU is two under FP8 (of the FP8 peak, then of the 16-bit one: mfu-text.ts). */
const planColumns = (peak: Fp8Peak | undefined): PlanColumn[] => [
  { header: '#', cell: (p) => String(p.rank), align: 'right' },
  { header: 'plan', cell: (p) => p.label, align: 'left' },
  { header: 'step', cell: (p) => formatSeconds(p.estimate.stepTimeSeconds), align: 'right' },
  { header: 'tokens/s', cell: (p) => wholeText(p.estimate.tokensPerSecond), align: 'right' },
  ...mfuHeaders(peak).map((header, i): PlanColumn => ({ header, cell: (p) => mfuCells(p.estimate.mfu, peak)[i], align: 'right' })),
  { header: 'memory', cell: (p) => formatBytes(p.estimate.memory.totalBytes), align: 'right' },
  { header: 'days', cell: (p) => (p.days === undefined ? undefined : `${formatFixedGrouped(p.days, 1)} d`), align: 'right' },
  { header: 'GPU-hours', cell: (p) => (p.gpuHours === undefined ? undefined : wholeText(p.gpuHours)), align: 'right' },
  { header: costHeader('cost'), cell: (p) => (p.cost === undefined ? undefined : wholeText(p.cost)), align: 'right' },
];

function topPlanLines(top: readonly SearchPlanJson[], peak: Fp8Peak | undefined): string[] {
  const columns = planColumns(peak).filter((c) => top.some((p) => c.cell(p) !== undefined));
  return renderTable(
    [columns.map((c) => c.header), ...top.map((p) => columns.map((c) => c.cell(p) ?? ''))],
    { align: columns.map((c) => c.align) },
  );
}

/** The best plan's figures after its memory: days, GPU-hours and cost where a token budget (and a price) gave them. */
function bestTrainingText(p: SearchPlanJson): string {
  return [
    ...(p.days === undefined ? [] : [daysText(p.days)]),
    ...(p.gpuHours === undefined ? [] : [`${wholeText(p.gpuHours)} GPU-hours`]),
    ...(p.cost === undefined ? [] : [`cost ${costWithCurrency(p.cost)}`]),
  ].map((x) => ` · ${x}`).join('');
}

/**
 * The uptime those days and GPU-hours assume, under them: 100%, as a search plans no downtime (QA: published GPU-hour
 * totals run 8–47% above these ideal figures, unsaid). `trainplan nodes --uptime` counts it: Meta reports "higher than
 * 90% effective training time" for Llama 3 405B (Dubey et al. 2024, §3.3.4).
 */
const uptimeNote = (p: SearchPlanJson): string[] =>
  (p.days === undefined ? [] : ['  at 100% uptime: no restarts or failures counted (trainplan nodes --uptime 0.9 for Meta\'s Llama 3 figure)']);

/** The candidates the budget left unestimated: the answer's `budget` prune count (0 when it did not run out). */
const leftByBudget = (a: SearchOkJson): number => a.pruned.find((p) => p.reason === 'budget')?.count ?? 0;

/**
 * What the full estimates were and what settled the rest: the rules and the bounds, and, where the candidate budget ran
 * out, the candidates it left unestimated (QA: "the rest ruled out by rules and bounds" said of a --budget 1 search
 * whose best was not the best).
 */
function searchedLine(a: SearchOkJson): string {
  const rest = a.budgetExhausted
    ? `${grouped(leftByBudget(a))} left unestimated by the candidate budget, the rest ruled out by rules and bounds`
    : 'the rest ruled out by rules and bounds';
  return `searched ${compactCount(a.spaceSize)} candidates (${countOf(a.fullEstimates, 'full estimate')}; ${rest})`;
}

/**
 * Under the best plan, where the candidate budget ran out: it is the best of the plans estimated, not proven the best
 * (QA: llama3.1-70b on 64 H100 with --budget 1 printed 58,979 tokens/s as best, the true best 59,242, said only in the
 * JSON's budgetExhausted and a warning at the end). The field is named as the request names it; `inFlagTerms` rewrites
 * it as the flag (--budget) where flags built the request.
 */
function budgetLines(a: SearchOkJson, inFlagTerms: (s: string) => string): string[] {
  if (!a.budgetExhausted) return [];
  return [`  ⚠ not proven the best: the candidate budget ran out after ${countOf(a.fullEstimates, 'full estimate')}, leaving `
    + `${countText(leftByBudget(a), 'candidate')} the bounds had not ruled out; this is the best of the plans estimated. `
    + inFlagTerms(`Raise candidateBudget above ${a.fullEstimates} to search further.`)];
}

/**
 * The search as a human report: what was searched, the top plans, the alternatives and the pruning. `inFlagTerms`
 * words a request field as the flag that sets it (the command's flag terms), where flags built the request.
 * `batchWarning` (batch-warning.ts: a batch given that reads as tokens typed as sequences) is said under the line that
 * names the batch, or, where no plan was found, after the failure it may explain.
 */
export function formatSearchReport(answer: SearchResponseJson, inFlagTerms: (s: string) => string = (s) => s, batchWarning?: string): string {
  if (!answer.ok) return `${formatSearchFailure(answer)}${batchWarningLines(batchWarning).map((line) => `${line}\n`).join('')}`;
  const a: SearchOkJson = answer;
  const r = a.best.estimate.resolved;
  // Every plan of a search is of one GPU and precision: one denominator for the table and the best plan's line.
  const peak = fp8Peak(r.gpu, r.precision);
  const lines = [
    `${r.model} · ${r.gpu} × ${grouped(r.gpus)} (${countText(r.nodes, 'node')} × ${r.gpusPerNode}, ${r.network}) · global batch ${grouped(r.globalBatchSize)} · seq ${grouped(r.seqLength)} · ${r.precision}`,
    ...batchWarningLines(batchWarning),
    searchedLine(a),
    '',
    `best: ${a.best.label}`,
    `  step ${formatSeconds(a.best.estimate.stepTimeSeconds)} · ${wholeText(a.best.estimate.tokensPerSecond)} tokens/s · MFU ${mfuText(a.best.estimate.mfu, peak)} · memory ${formatBytes(a.best.estimate.memory.totalBytes)} of ${formatBytes(a.best.estimate.memory.capacityBytes)}${bestTrainingText(a.best)}`,
    ...budgetLines(a, inFlagTerms),
    ...uptimeNote(a.best),
    ...a.best.estimate.warnings.map((w) => `  ⚠ ${w}`),
    ...(a.fewerNodes === undefined ? [] : [`  fewer nodes run faster: ${a.fewerNodes.why}`]),
    '',
    'top plans:',
    ...topPlanLines(a.top, peak),
    '',
    'why the nearest alternatives lose:',
    ...a.alternatives.map((x) => `  ${x.why}`),
    '',
    'pruned:',
    ...renderTable(a.pruned.map((p) => [compactCount(p.count), p.reason, p.description]), { align: ['right'] }),
  ];
  for (const w of a.warnings) lines.push(`warning: ${w}`);
  return `${lines.join('\n')}\n`;
}

function formatSearchFailure(a: Extract<SearchResponseJson, { ok: false }>): string {
  const lines = [`no plan: ${a.message}`];
  if (a.nearestMiss) lines.push(`closest miss: ${a.nearestMiss.label}: ${a.nearestMiss.message}`);
  if (a.closest) lines.push(`closest feasible alternative: ${a.closest.why}`);
  return `${lines.join('\n')}\n`;
}
