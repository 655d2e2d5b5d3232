/**
 * The human-readable report of `trainplan estimate` (without --json): one section per answer.
 * Every number goes through @trainplan/units' formatters, so the units are always printed.
 */
import { daysText, formatIssue, pipelineSplitLabel, type BreakdownJson, type EstimateInfeasible, type EstimateJson, type EstimateOk } from '@trainplan/protocol';
import {
  TFLOPS, formatCount, formatFlops, formatPercent,
} from '@trainplan/units';
import { bar } from './bars.ts';
import { memoryLines, memoryRemedyLines, type SwitchEstimates } from './memory-report.ts';
import { compactCount, countText, grouped } from './count-text.ts';
import { fp8Peak, mfuText, type Fp8Peak } from './mfu-text.ts';
import { printable } from './printable-text.ts';
import { secondsText } from './seconds-text.ts';
import { renderTable } from './table.ts';

export { MEMORY_ROWS, memoryRemedyLines } from './memory-report.ts';

/** The step-time breakdown rows, in the order the time is spent. */
export const BREAKDOWN_ROWS = [
  { key: 'computeSeconds', label: 'compute' },
  { key: 'tensorParallelCommSeconds', label: 'tensor-parallel comm' },
  { key: 'contextParallelCommSeconds', label: 'context-parallel comm' },
  { key: 'pipelineBubbleSeconds', label: 'pipeline bubble' },
  { key: 'pipelineCommSeconds', label: 'pipeline comm' },
  { key: 'dataParallelCommSeconds', label: 'data-parallel comm' },
  { key: 'optimizerSeconds', label: 'optimizer' },
] as const satisfies readonly { key: keyof BreakdownJson; label: string }[];

/** Two durations the planner reports separately count as different above this relative gap. */
const SAME_SECONDS_TOLERANCE = 1e-9;

const share = (part: number, whole: number): number => (whole > 0 ? part / whole : 0);

/** `gpt3-175b (175B parameters) · a100-80gb × 1,024 (128 nodes × 8, hdr-ib-8x) · TP 8 · …`: an estimate's plan, or a refused one's. */
export function headerLine(e: Pick<EstimateOk, 'resolved' | 'parameters'>): string {
  const r = e.resolved;
  const sharding = r.distributedOptimizer ? ['distributed optimizer'] : r.zeroStage > 0 ? [`ZeRO-${r.zeroStage}`] : [];
  return [
    `${r.model} (${compactCount(e.parameters)} parameters)`,
    `${r.gpu} × ${grouped(r.gpus)} (${countText(r.nodes, 'node')} × ${r.gpusPerNode}, ${r.network}${r.oversubscription > 1 && r.communicationModel === 'emulated' ? `, leaves ${r.oversubscription}:1 oversubscribed` : ''})`,
    `TP ${r.tensor} · PP ${r.pipeline}${pipelineSplitLabel(r)} · DP ${grouped(r.data)} · CP ${r.context} · v ${r.virtualStages}`,
    `micro-batch ${r.microBatchSize}`,
    `global batch ${grouped(r.globalBatchSize)} (${grouped(r.microBatches)} micro-batch${r.microBatches === 1 ? '' : 'es'})`,
    r.precision,
    // The kernels only where they are not the default a reader assumes (flash attention, a fused loss).
    ...(r.attentionKernel === 'unfused' ? ['unfused attention'] : []),
    ...(r.crossEntropyKernel === 'unfused' ? ['unfused cross entropy'] : []),
    `recompute ${r.recompute}${r.recomputeLayers !== undefined ? ` (${r.recomputeLayers} layer${r.recomputeLayers === 1 ? '' : 's'} per stage)` : ''}`,
    ...(r.sequenceParallel ? ['sequence parallel'] : []),
    ...sharding,
    ...(r.communicationModel === 'emulated' ? ['communication emulated on the topology'] : []),
  ].join(' · ');
}

/**
 * Why a rate passes the GPU's peak, or a utilization 100%: the JSON counts attention over every (query, key) pair, as
 * Megatron-LM's num_floating_point_operations (megatron/training/training.py, its s/h term) and the papers do (Narayanan
 * SC'21 eq. 3, Korthikanti et al. 2022: the s/(6h) term), where causal kernels compute the pairs at or below the diagonal,
 * about half; at long sequences attention is most of the FLOPs, and the full count passes what the GPU can run (QA: HFU
 * 105.1% at 4,194,304 tokens). The planner's warning gives the causal figure: the answer carries no field for it.
 */
const FULL_COUNT = 'counting attention over every (query, key) pair, as Megatron does; the causal kernels compute about half of them';

/** A FLOP/s figure, and why, where it is above the peak its utilization is of. */
const flopsText = (tflops: number, share: number, e: EstimateOk): string => {
  const text = formatFlops(TFLOPS(tflops));
  if (share <= 1) return text;
  // Answers before peakTflopsPerGpu carry the peak in the share alone.
  return `${text} (over the ${formatFlops(TFLOPS(e.peakTflopsPerGpu ?? tflops / share))} peak: ${FULL_COUNT})`;
};

/** A utilization, and why, where it passes 100%. */
const shareText = (share: number, peak: Fp8Peak | undefined): string =>
  (share <= 1 ? mfuText(share, peak) : `${mfuText(share, peak)} (over 100%: ${FULL_COUNT})`);

function metricsLines(e: EstimateOk): string[] {
  // Both MFU and HFU are of the FP8 peak for an FP8 plan (mfu-text.ts): said so, with the 16-bit peak's share beside each.
  const peak = fp8Peak(e.resolved.gpu, e.resolved.precision);
  return renderTable([
    ['step time', secondsText(e.stepTimeSeconds)],
    ['throughput', `${formatCount(e.tokensPerSecond)} tokens/s`],
    ['model FLOP/s per GPU', flopsText(e.modelTflopsPerGpu, e.mfu, e)],
    ['hardware FLOP/s per GPU', flopsText(e.hardwareTflopsPerGpu, e.hfu, e)],
    ['MFU', shareText(e.mfu, peak)],
    ['HFU', shareText(e.hfu, peak)],
  ]);
}

function breakdownNote(key: keyof BreakdownJson, b: BreakdownJson): string {
  if (key === 'computeSeconds' && b.recomputeSeconds > 0) {
    return `incl. recompute ${secondsText(b.recomputeSeconds)} (${formatPercent(share(b.recomputeSeconds, b.computeSeconds))} of compute)`;
  }
  const beforeOverlap = (total: number, left: number): string =>
    (Math.abs(total - left) > SAME_SECONDS_TOLERANCE * Math.max(1, total) ? `${secondsText(total)} before overlap` : '');
  if (key === 'dataParallelCommSeconds') return beforeOverlap(b.dataParallelCommTotalSeconds, b.dataParallelCommSeconds);
  // Ring attention hides each exchange behind the attention block it feeds: "0 s" with the exchanges said beside it.
  if (key === 'contextParallelCommSeconds') {
    const said = beforeOverlap(b.contextParallelCommTotalSeconds, b.contextParallelCommSeconds);
    return said === '' ? '' : `${said}, ${b.contextParallelCommSeconds > 0 ? 'the rest' : 'all'} hidden behind attention`;
  }
  return '';
}

function breakdownLines(e: EstimateOk): string[] {
  const b = e.breakdown;
  const rows = BREAKDOWN_ROWS.map(({ key, label }) => {
    const fraction = share(b[key], e.stepTimeSeconds);
    return [label, secondsText(b[key]), formatPercent(fraction), bar(fraction), breakdownNote(key, b)];
  });
  return [
    `Step time breakdown (${secondsText(e.stepTimeSeconds)})`,
    ...renderTable(rows, { align: ['left', 'right', 'right', 'left', 'left'] }),
  ];
}

function timeToTrainLines(e: EstimateOk): string[] {
  const t = e.timeToTrain;
  if (t === undefined) return [];
  return [`Time to train ${compactCount(t.tokens)} tokens: ${daysText(t.days)}, ${formatCount(t.gpuHours)} GPU-hours`];
}

function warningLines(e: EstimateOk): string[] {
  return e.warnings.length === 0 ? [] : ['Warnings', ...e.warnings.map((w) => `  ⚠ ${w}`)];
}

/**
 * `✗ out-of-memory: needs …`, or `✗ invalid` / `✗ indivisible` with each field issue on its own line. Out of
 * memory, where the answer carries its plan (resolved, memory, parameters), the plan's line comes first, as an
 * estimate's does, so the defaults it took are in view; then the memory table, what fills the GPU, and what would lower it.
 */
export function infeasibleLines(e: EstimateInfeasible, switches?: SwitchEstimates): string[] {
  const issues = e.issues ?? [];
  if (issues.length === 0) {
    const head = [`✗ ${e.reason}: ${e.message}`];
    const { resolved, memory, parameters } = e;
    if (e.reason !== 'out-of-memory' || resolved === undefined || memory === undefined || parameters === undefined) return head;
    return [headerLine({ resolved, parameters }), '', ...head, '', ...memoryLines(memory, resolved), '', ...memoryRemedyLines(resolved, memory, switches)];
  }
  return [`✗ ${e.reason}`, ...issues.map((i) => `  ${formatIssue(i)}`)];
}

/**
 * The report of one answer, as lines, each printable: a model's name, an unknown id and the warnings that repeat them
 * are the input's text, and control characters in it are written as escapes (printable-text.ts).
 */
export function estimateReportLines(e: EstimateJson, switches?: SwitchEstimates): string[] {
  return reportLines(e, switches).map(printable);
}

function reportLines(e: EstimateJson, switches: SwitchEstimates | undefined): string[] {
  if (!e.ok) return infeasibleLines(e, switches);
  const sections = [
    [headerLine(e)],
    metricsLines(e),
    breakdownLines(e),
    memoryLines(e.memory, e.resolved),
    timeToTrainLines(e),
    warningLines(e),
  ].filter((s) => s.length > 0);
  return sections.flatMap((s, i) => (i === 0 ? s : ['', ...s]));
}

/**
 * The whole report: one answer, or each answer of an array under a `Scenario i of n` heading. `switches`, by the
 * answer's index: for an answer out of memory, the memory switches it leaves off as estimated (memoryRemedyLines).
 */
export function formatEstimateReport(answer: EstimateJson | readonly EstimateJson[], switches: readonly (SwitchEstimates | undefined)[] = []): string {
  if (!Array.isArray(answer)) return `${estimateReportLines(answer as EstimateJson, switches[0]).join('\n')}\n`;
  const answers = answer as readonly EstimateJson[];
  return answers
    .map((a, i) => [`── Scenario ${i + 1} of ${answers.length} (input [${i}]) ──`, ...estimateReportLines(a, switches[i])].join('\n'))
    .join('\n\n') + '\n';
}
