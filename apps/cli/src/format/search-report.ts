import type { SearchOkJson, SearchPlanJson, SearchResponseJson } from '@trainplan/protocol';
import { countOf, formatBytes, formatCount, formatSeconds } from '@trainplan/units';
import { renderTable } from './table.ts';

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const days = (p: SearchPlanJson): string => (p.days === undefined ? '' : `${p.days.toFixed(1)} d`);

/** The search as a human report: what was searched, the top plans, the alternatives and the pruning. */
export function formatSearchReport(answer: SearchResponseJson): string {
  if (!answer.ok) return formatSearchFailure(answer);
  const a: SearchOkJson = answer;
  const r = a.best.estimate.resolved;
  const lines = [
    `${r.model} · ${r.gpu} × ${r.gpus} (${countOf(r.nodes, 'node')} × ${r.gpusPerNode}, ${r.network}) · global batch ${r.globalBatchSize} · seq ${r.seqLength} · ${r.precision}`,
    `searched ${formatCount(a.spaceSize)} candidates (${formatCount(a.fullEstimates)} full estimates; the rest ruled out by rules and bounds)`,
    '',
    `best: ${a.best.label}`,
    `  step ${formatSeconds(a.best.estimate.stepTimeSeconds)} · ${Math.round(a.best.estimate.tokensPerSecond).toLocaleString('en-US')} tokens/s · MFU ${pct(a.best.estimate.mfu)} · memory ${formatBytes(a.best.estimate.memory.totalBytes)} of ${formatBytes(a.best.estimate.memory.capacityBytes)}${a.best.days === undefined ? '' : ` · ${a.best.days.toFixed(1)} days`}${a.best.cost === undefined ? '' : ` · cost ${Math.round(a.best.cost).toLocaleString('en-US')}`}`,
    ...a.best.estimate.warnings.map((w) => `  ⚠ ${w}`),
    '',
    'top plans:',
    ...renderTable([
      ['#', 'plan', 'step', 'tokens/s', 'MFU', 'memory', 'days'],
      ...a.top.map((p) => [
        String(p.rank), p.label, formatSeconds(p.estimate.stepTimeSeconds), Math.round(p.estimate.tokensPerSecond).toLocaleString('en-US'),
        pct(p.estimate.mfu), formatBytes(p.estimate.memory.totalBytes), days(p),
      ]),
    ], { align: ['right', 'left', 'right', 'right', 'right', 'right', 'right'] }),
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
