import { constantEfficiencyBaseline } from './baseline.ts';
import { predictTable4, TABLE4 } from './korthikanti-table4.ts';
import { loadTrainingRows } from './ground-truth.ts';
import { rowCandidates, summarise, type ScoredRow, type SourceSummary } from './score.ts';
import { SOURCES } from './sources.ts';

/** Targets of issue 2 (step-time MAPE and worst row), asserted by test/validation. */
export const TARGETS = { overallMape: 0.05, sourceMape: 0.08, rowError: 0.15, table4Points: 0.03 } as const;

const pct = (x: number, digits = 1): string => `${(x * 100).toFixed(digits)}%`;
const signed = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const s3 = (x: number): string => (x >= 100 ? x.toFixed(1) : x >= 10 ? x.toFixed(2) : x.toFixed(3));
const mark = (ok: boolean): string => (ok ? 'met' : '**missed**');

/** "compute 80 · TP 7 · bubble 8 · PP 1 · DP 3": where a row's predicted step goes, in whole per cent. */
export function share(r: ScoredRow): string {
  const b = r.estimate.breakdown;
  const t = r.estimate.stepTimeSeconds;
  const parts: [string, number][] = [
    ['compute', b.computeSeconds], ['TP', b.tensorParallelCommSeconds + b.contextParallelCommSeconds],
    ['bubble', b.pipelineBubbleSeconds], ['PP', b.pipelineCommSeconds], ['DP', b.dataParallelCommSeconds], ['opt', b.optimizerSeconds],
  ];
  return parts.filter(([, v]) => v / t >= 0.005).map(([k, v]) => `${k} ${Math.round((100 * v) / t)}`).join(' · ');
}

function summaryRow(s: SourceSummary, label: string, target: number): string {
  return `| ${label} | ${s.rows} | ${pct(s.mape)} | ${signed(s.bias)} | ${pct(s.worst)} | ≤ ${pct(target, 0)} ${mark(s.mape <= target)} |`;
}

/** SC'21 Table 1 rows: |HFU error| per row (HFU ∝ 1 / step time). */
export const sc21HfuErrors = (rows: readonly ScoredRow[]): number[] =>
  rows.filter((r) => r.source === 'narayanan21').map((r) => Math.abs(1 / (1 + r.error) - 1));

/** Korthikanti's full-recompute and selective + SP steps of 22B–1T (the "Checks from the papers" table). */
const korthikantiPairs = (rows: readonly ScoredRow[]): ScoredRow[] => ['22B', '175B', '530B', '1000B']
  .flatMap((size) => rows.filter((r) => r.id === `korthikanti22-${size}-fullrecompute` || r.id === `korthikanti22-${size}-selective+sp`));

/** README.md's bullet on the training runs (the `npm run validate` block), from the rows the report is rendered from. */
export function trainingRunsReadme(rows: readonly ScoredRow[]): string[] {
  const { overall, bySource } = summarise(rows);
  const baseline = constantEfficiencyBaseline(rows);
  const hfu = sc21HfuErrors(rows);
  const pairs = korthikantiPairs(rows);
  const worstPair = pairs.reduce((w, r) => (Math.abs(r.error) > Math.abs(w.error) ? r : w));
  const worstRow = rows.reduce((w, r) => (Math.abs(r.error) > Math.abs(w.error) ? r : w));
  const missed = bySource.filter((s) => s.mape > TARGETS.sourceMape).map((s) => s.source);
  return [
    `- Step time against ${overall.rows} published training runs: **${pct(overall.mape)} mean absolute error** overall (target ≤ `
    + `${pct(TARGETS.overallMape, 0)}: ${mark(overall.mape <= TARGETS.overallMape)}); by source ${bySource.map((s) => `${s.source} ${pct(s.mape)}`).join(', ')} `
    + `(target ≤ ${pct(TARGETS.sourceMape, 0)} each: ${missed.length === 0 ? 'met' : `${missed.join(', ')} **missed**`}); worst row ${signed(worstRow.error)} `
    + `(${worstRow.id}; target ≤ ${pct(TARGETS.rowError, 0)}: ${mark(overall.worst <= TARGETS.rowError)}). One constant efficiency per GPU and precision `
    + `(the llm-analysis approach, fitted after the fact) scores ${pct(baseline.mape)} on the same rows. SC'21 Table 1's HFU within `
    + `${pct(hfu.reduce((a, b) => a + b, 0) / Math.max(1, hfu.length))} on average, ${pct(Math.max(0, ...hfu))} at worst; Korthikanti's ${pairs.length} full `
    + `vs selective + SP steps within 5%: ${mark(Math.abs(worstPair.error) <= 0.05)} (worst ${signed(worstPair.error)}).`,
  ];
}

export function renderValidationReport(rows: readonly ScoredRow[]): string {
  const { overall, bySource } = summarise(rows);
  const baseline = constantEfficiencyBaseline(rows);
  const t4 = predictTable4();
  const narayanan = rows.filter((r) => r.source === 'narayanan21');
  const hfuErrors = sc21HfuErrors(rows);
  const out: string[] = [];
  out.push('# Validation: trainplan against published training runs', '');
  out.push('Regenerate with `npm run validate` (writes this file); `npm test` asserts the same bounds '
    + '(test/validation). Ground truth: `../shared/ground-truth/training-runs.json`, tiers A and B. '
    + 'Error = (predicted − measured) / measured step time; where a source states TFLOP/s or MFU instead of a '
    + 'step time, the step time is derived with that source\'s own FLOP convention (column "from").', '');
  out.push('## Summary', '');
  out.push('| source | rows | MAPE | bias | worst row | target |', '|---|---|---|---|---|---|');
  for (const s of bySource) out.push(summaryRow(s, s.source, TARGETS.sourceMape));
  out.push(summaryRow(overall, '**all**', TARGETS.overallMape));
  out.push('', `Worst row overall ${pct(overall.worst)} (target ≤ ${pct(TARGETS.rowError, 0)}: ${mark(overall.worst <= TARGETS.rowError)}).`);
  out.push(`A strawman with one constant efficiency per GPU and precision (fitted to these rows: ${Object.entries(baseline.efficiency)
    .map(([k, v]) => `${k} ${pct(v)}`).join(', ')}) scores ${pct(baseline.mape)} MAPE on the same rows: that is how `
    + 'calculators with a user-set FLOP efficiency (llm-analysis\'s `flops_efficiency`, the "6ND / (peak × MFU)" rule) '
    + 'would do here even with the efficiency fitted after the fact.', '');
  out.push('Peer figures (their own rows, not these): Zhang et al. 2025 (arXiv:2509.22832), an operator-level model with '
    + 'kernel regressions sampled on the target machine, reports 4.98% mean error on A100 (Perlmutter) and 9.38% on GH200 '
    + '(Vista), models up to 20B on 128 GPUs. trainplan samples nothing on the target machine: six constants per GPU generation, one of them (flash attention\'s per-block cost) measured once on an H100.', '');

  out.push('## Checks from the papers', '');
  out.push('| check | published | trainplan | error | target |', '|---|---|---|---|---|');
  const hfuMean = hfuErrors.reduce((a, b) => a + b, 0) / Math.max(1, hfuErrors.length);
  const hfuWorst = Math.max(0, ...hfuErrors);
  out.push(`| SC'21 Table 1 HFU, mean error over ${narayanan.length} rows | – | – | ${pct(hfuMean)} | ≤ 3% ${mark(hfuMean <= 0.03)} |`);
  out.push(`| SC'21 Table 1 HFU, worst row | – | – | ${pct(hfuWorst)} | ≤ 6% ${mark(hfuWorst <= 0.06)} |`);
  const points = (a: number, b: number) => Math.abs(a - b);
  out.push(`| Korthikanti Table 4: 22B layer forward | ${TABLE4.forwardMs} ms | ${t4.forwardMs.toFixed(2)} ms | ${signed(t4.forwardMs / TABLE4.forwardMs - 1)} | – |`);
  out.push(`| Korthikanti Table 4: 22B layer backward | ${TABLE4.backwardMs} ms | ${t4.backwardMs.toFixed(2)} ms | ${signed(t4.backwardMs / TABLE4.backwardMs - 1)} | – |`);
  out.push(`| Korthikanti Table 4: forward with sequence parallelism | ${TABLE4.sequenceParallelForwardMs} ms | ${t4.sequenceParallelForwardMs.toFixed(2)} ms | ${signed(t4.sequenceParallelForwardMs / TABLE4.sequenceParallelForwardMs - 1)} | – |`);
  for (const [label, published, predicted] of [
    ['full recompute overhead', TABLE4.fullRecomputeOverhead, t4.fullRecomputeOverhead],
    ['selective recompute overhead', TABLE4.selectiveRecomputeOverhead, t4.selectiveRecomputeOverhead],
    ['selective + sequence parallel overhead', TABLE4.selectiveWithSequenceParallelOverhead, t4.selectiveWithSequenceParallelOverhead],
  ] as const) {
    const d = points(published, predicted);
    out.push(`| Korthikanti Table 4: ${label} | +${pct(published, 0)} | +${pct(predicted)} | ${(d * 100).toFixed(1)} points | ≤ 3 points ${mark(d <= TARGETS.table4Points)} |`);
  }
  const pairs = ['22B', '175B', '530B', '1000B'].map((size) => ({
    size,
    full: rows.find((r) => r.id === `korthikanti22-${size}-fullrecompute`),
    sel: rows.find((r) => r.id === `korthikanti22-${size}-selective+sp`),
  }));
  for (const { size, full, sel } of pairs) {
    if (!full || !sel) continue;
    out.push(`| Korthikanti ${size}: full recompute step | ${full.measuredStepSeconds} s | ${s3(full.predictedStepSeconds)} s | ${signed(full.error)} | ≤ 5% ${mark(Math.abs(full.error) <= 0.05)} |`);
    out.push(`| Korthikanti ${size}: selective + SP step | ${sel.measuredStepSeconds} s | ${s3(sel.predictedStepSeconds)} s | ${signed(sel.error)} | ≤ 5% ${mark(Math.abs(sel.error) <= 0.05)} |`);
  }
  out.push('');
  for (const missed of pairs.flatMap(({ full, sel }) => [full, sel]).filter((r): r is ScoredRow => r !== undefined && Math.abs(r.error) > 0.05)) {
    out.push(`${missed.id} misses by ${signed(missed.error)}: ${whyUnstated(missed)}`, '');
  }

  for (const source of SOURCES) {
    const group = rows.filter((r) => r.source === source.id);
    if (group.length === 0) continue;
    out.push(`## ${source.id}: ${source.title}`, '', `Settings: ${source.assumptions}`, '');
    out.push('| row | tier | measured step | from | predicted | error | unstated settings chosen | step breakdown (%) | fits |', '|---|---|---|---|---|---|---|---|---|');
    for (const r of group) {
      out.push(`| ${r.id} | ${r.tier} | ${s3(r.measuredStepSeconds)} s | ${r.measuredFrom} | ${s3(r.predictedStepSeconds)} s | ${signed(r.error)} | ${chosenText(r)} | ${share(r)} | ${r.fits ? 'yes' : 'no'} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** The unstated settings chosen and, when several fit, the slowest fitting one's error: the spread they alone allow. */
const chosenText = (r: ScoredRow): string => (r.chosen
  ? `${r.chosen}${r.slowestFittingError !== undefined ? ` (fastest of ${r.candidates}; the slowest that fits: ${signed(r.slowestFittingError)})` : ''}`
  : '–');

/**
 * For a row whose unstated settings were searched: the faster candidates that did not fit, with what
 * they would take and the memory they need, which is why the slower one is scored.
 */
function whyUnstated(row: ScoredRow): string {
  const truth = loadTrainingRows().find((r) => r.id === row.id);
  const profile = SOURCES.find((p) => p.id === row.source);
  if (!truth || !profile) return 'no alternative to show.';
  const faster = rowCandidates(truth, profile)
    .filter((c) => !c.estimate.memory.fits && c.estimate.stepTimeSeconds < row.predictedStepSeconds);
  if (faster.length === 0) return 'no faster setting of what the source leaves unstated was out of memory: the miss is the model\'s.';
  const gb = (b: number) => `${(b / 1e9).toFixed(1)} GB`;
  return `the source leaves ${Object.keys(faster[0]!.pick).join(', ')} unstated and the fastest candidate that fits is ${row.chosen}; `
    + faster.map((c) => `${Object.entries(c.pick).map(([k, v]) => `${k} ${v}`).join(', ')} would take ${s3(c.estimate.stepTimeSeconds)} s `
      + `(${signed(c.estimate.stepTimeSeconds / row.measuredStepSeconds - 1)}) but needs ${gb(c.estimate.memory.totalBytes)} per GPU against `
      + `${gb(c.estimate.memory.capacityBytes)} in trainplan's memory model (with its allocator-fragmentation allowance, plan-memory.ts)`).join('; ')
    + '. The paper does not say which schedule it ran.';
}
