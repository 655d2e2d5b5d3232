import { daysText, type SearchOkJson, type SearchPlanJson, type SearchResponseJson } from '@trainplan/protocol';
import { formatBytes, formatCount, formatSeconds } from '@trainplan/units';
import { countText, grouped } from './count-text.ts';
import { renderTable, type Align } from './table.ts';
import { wholeText } from './whole-text.ts';

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** A column of the top-plans table: shown only where some plan has the figure (days and GPU-hours with --tokens, cost with --price too). */
interface PlanColumn {
  header: string;
  cell: (p: SearchPlanJson) => string | undefined;
  align: Align;
}

const PLAN_COLUMNS: readonly PlanColumn[] = [
  { header: '#', cell: (p) => String(p.rank), align: 'right' },
  { header: 'plan', cell: (p) => p.label, align: 'left' },
  { header: 'step', cell: (p) => formatSeconds(p.estimate.stepTimeSeconds), align: 'right' },
  { header: 'tokens/s', cell: (p) => wholeText(p.estimate.tokensPerSecond), align: 'right' },
  { header: 'MFU', cell: (p) => pct(p.estimate.mfu), align: 'right' },
  { header: 'memory', cell: (p) => formatBytes(p.estimate.memory.totalBytes), align: 'right' },
  { header: 'days', cell: (p) => (p.days === undefined ? undefined : `${p.days.toFixed(1)} d`), align: 'right' },
  { header: 'GPU-hours', cell: (p) => (p.gpuHours === undefined ? undefined : wholeText(p.gpuHours)), align: 'right' },
  { header: 'cost', cell: (p) => (p.cost === undefined ? undefined : wholeText(p.cost)), align: 'right' },
];

function topPlanLines(top: readonly SearchPlanJson[]): string[] {
  const columns = PLAN_COLUMNS.filter((c) => top.some((p) => c.cell(p) !== undefined));
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
    ...(p.cost === undefined ? [] : [`cost ${wholeText(p.cost)}`]),
  ].map((x) => ` · ${x}`).join('');
}

/** The search as a human report: what was searched, the top plans, the alternatives and the pruning. */
export function formatSearchReport(answer: SearchResponseJson): string {
  if (!answer.ok) return formatSearchFailure(answer);
  const a: SearchOkJson = answer;
  const r = a.best.estimate.resolved;
  const lines = [
    `${r.model} · ${r.gpu} × ${grouped(r.gpus)} (${countText(r.nodes, 'node')} × ${r.gpusPerNode}, ${r.network}) · global batch ${grouped(r.globalBatchSize)} · seq ${grouped(r.seqLength)} · ${r.precision}`,
    `searched ${formatCount(a.spaceSize)} candidates (${formatCount(a.fullEstimates)} full estimates; the rest ruled out by rules and bounds)`,
    '',
    `best: ${a.best.label}`,
    `  step ${formatSeconds(a.best.estimate.stepTimeSeconds)} · ${wholeText(a.best.estimate.tokensPerSecond)} tokens/s · MFU ${pct(a.best.estimate.mfu)} · memory ${formatBytes(a.best.estimate.memory.totalBytes)} of ${formatBytes(a.best.estimate.memory.capacityBytes)}${bestTrainingText(a.best)}`,
    ...a.best.estimate.warnings.map((w) => `  ⚠ ${w}`),
    '',
    'top plans:',
    ...topPlanLines(a.top),
    '',
    'why the nearest alternatives lose:',
    ...a.alternatives.map((x) => `  ${x.why}`),
    '',
    'pruned:',
    ...renderTable(a.pruned.map((p) => [formatCount(p.count), p.reason, p.description]), { align: ['right'] }),
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
