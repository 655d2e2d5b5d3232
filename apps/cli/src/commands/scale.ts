import { runScale, type ScaleResponseJson } from '@trainplan/protocol';
import { formatGrouped, formatSeconds } from '@trainplan/units';
import type { Command } from '../command.ts';
import { printError } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import { printAnswer, requestCommand, shownAnswer, type RequestIo } from '../request-command.ts';
import type { FlagSpec, FlagValues } from '../flags.ts';
import { countText, grouped } from '../format/count-text.ts';
import { renderTable } from '../format/table.ts';
import { fp8Peak, mfuCells, mfuHeaders, type Fp8Peak } from '../format/mfu-text.ts';
import { constraintFields, count, list, machineFields, MACHINE_FLAGS, TRAINING_FLAGS, trainingFields } from '../search-flags.ts';
import { usageLine } from '../format/usage-line.ts';
import { batchWarning, batchWarningLines, printBatchWarning, requestBatch } from '../batch-warning.ts';

const SYNOPSIS = 'trainplan scale --model ID --gpu ID --global-batch B --nodes N1,N2,… [--weak] [--tensor T --pipeline P] [--trade-off] [--json]';

const FLAGS: Record<string, FlagSpec> = {
  ...MACHINE_FLAGS,
  ...TRAINING_FLAGS,
  nodes: { type: 'string', short: 'n', valueName: 'a comma-separated list of node counts', list: true },
  weak: { type: 'boolean' },
  tensor: { type: 'string', short: 't', valueName: 'a count' },
  pipeline: { type: 'string', short: 'p', valueName: 'a count' },
  recompute: { type: 'string', valueName: 'none, selective or full' },
  'sequence-parallel': { type: 'boolean' },
  'trade-off': { type: 'boolean' },
};

const USAGE = `${usageLine(SYNOPSIS)}

Scaling sweeps: step time, throughput per GPU and scaling efficiency against node count, strong
(fixed global batch) or weak (--weak: the batch grows with the nodes); with --tensor and --pipeline
the plan is held fixed (as in the Azure NDm A100 v4 study's 530B at 105/140/175 nodes), otherwise
the best plan is searched at every size. Efficiency is tokens/s per GPU against the smallest size
that runs, in whatever order the sizes are listed; a size where nothing runs says why (the memory
the closest plan needs against the GPU's, or the divisibility rules that rule every plan out). With
--weak the batch given is the first listed size's. --trade-off adds the TP × PP table at the first
size.

Options:
  -m, --model ID       model preset id
  -g, --gpu ID         GPU or system preset id
  -b, --global-batch B sequences per optimizer step (with --weak: at the first listed size)
  -n, --nodes LIST     node counts, e.g. 105,140,175
      --weak           weak scaling (default strong)
  -t, --tensor T, -p, --pipeline P
                       hold the tensor and pipeline sizes fixed (both: the whole plan is fixed, the
                       rest at its defaults; one: only it is held, the rest is searched)
      --recompute R    none, selective or full at every size: with --tensor and --pipeline it is the
                       fixed plan's; otherwise only plans with that recompute mode are searched
      --sequence-parallel
                       sequence parallelism at every size (Korthikanti et al. 2022: the norms' and
                       dropouts' activations split over the TP ranks), held as --recompute is
      --trade-off      the TP × PP trade-off table at the first size
      --seq-length, --precision, --grad-accumulation, --fp8-params, --max-tensor,
      --tensor-within-node, --memory-fraction, --gpus-per-node, --network   as in trainplan search
  -i, --input FILE|-   the whole request as JSON instead of flags
      --json           print the JSON answer (ok: false, reason no-feasible-configuration, its
                       points each with their reason, when no size runs a plan)
  -h, --help           show this help

Exit status: 0 every size has a plan; 1 some size has none (its row says why, and stderr has one
line per such size); 2 usage error or invalid request.

Examples:
  trainplan scale --model mt-nlg-530b --gpu azure-ndm-a100-v4 --global-batch 1920 --nodes 105,140,175 --tensor 8 --pipeline 35 --recompute full
  trainplan scale --model mt-nlg-530b --gpu azure-ndm-a100-v4 --global-batch 1920 --nodes 105,140,175 --tensor 8 --pipeline 35 --recompute selective --sequence-parallel
  trainplan scale --model gpt3-175b --gpu a100-80gb --global-batch 512 --nodes 16,32,64,128 --weak
  trainplan scale --model llama3-70b --gpu h100-sxm --global-batch 512 --nodes 8,16,32,64 --trade-off
`;

const REQUEST_FLAGS = ['model', 'gpu', 'global-batch', 'nodes', 'weak', 'tensor', 'pipeline', 'recompute', 'sequence-parallel', 'trade-off', 'seq-length', 'precision', 'grad-accumulation', 'fp8-params', 'max-tensor', 'tensor-within-node', 'memory-fraction', 'gpus-per-node', 'network'];

function fromFlags(v: FlagValues): Record<string, unknown> {
  const constraints = constraintFields(v);
  // Each size reads like every other count flag ("2k" as --gpus takes it); one that does not parse goes to the schema as text, which names it.
  const nodes = list(v, 'nodes');
  const parallelism = {
    ...(v.tensor !== undefined && { tensor: count(v, 'tensor') }),
    ...(v.pipeline !== undefined && { pipeline: count(v, 'pipeline') }),
    ...(v.recompute !== undefined && { recompute: v.recompute }),
    // Passed as given (not `=== true`): the flag locator finds the field by the value it sets.
    ...(v['sequence-parallel'] !== undefined && v['sequence-parallel'] !== false && { sequenceParallel: v['sequence-parallel'] }),
  };
  return {
    ...machineFields(v),
    training: trainingFields(v),
    nodes,
    ...(v.weak === true && { mode: 'weak' }),
    ...(Object.keys(parallelism).length > 0 && { parallelism }),
    ...(v['trade-off'] === true && { tradeOff: true }),
    ...(constraints && { constraints }),
  };
}

/**
 * The last cell of a row: the plan, and where it does not run, why. A fixed plan (--tensor and
 * --pipeline) that runs out of memory has both a label and a reason: the label alone would read as
 * a plan that runs.
 */
const planCell = (p: { label?: string; reason?: string }): string =>
  (p.label !== undefined && p.reason !== undefined ? `${p.label}: ${p.reason}` : p.label ?? p.reason ?? '');

/** A sweep's table: an ok answer's, or one where no size runs (each row then says why). */
type Sweep = Extract<ScaleResponseJson, { points: unknown }>;

/**
 * The denominator of the sweep's MFU: every size runs the request's precision on its GPU, said by each planned size's
 * scenario (none where no size runs, whose table has no MFU to label).
 */
function sweepPeak(a: Sweep): Fp8Peak | undefined {
  const scenario = a.points.find((p) => p.scenario !== undefined)?.scenario;
  return scenario === undefined ? undefined : fp8Peak(scenario.cluster.gpu, scenario.training.precision ?? 'bf16');
}

/**
 * A sweep as a table, with the planner's caveats under it. `warning`: the batch warning (batch-warning.ts: the batch
 * given reads as tokens typed as sequences; with --weak, the first listed size's), first among the caveats.
 */
export function formatScaleReport(a: Sweep, warning?: string): string {
  const peak = sweepPeak(a);
  const mfuAlign = mfuHeaders(peak).map(() => 'right' as const);
  const lines = [
    `${a.mode} scaling:`,
    ...renderTable([
      ['nodes', 'GPUs', 'batch', 'step', 'tokens/s/GPU', ...mfuHeaders(peak), 'efficiency', 'plan'],
      ...a.points.map((p) => [
        // A size without a plan has no batch planned: under --weak, where it cannot keep the batch per node, the JSON's is only the nearest whole one.
        formatGrouped(p.nodes), formatGrouped(p.gpus), p.label === undefined ? '—' : formatGrouped(p.globalBatchSize),
        p.stepTimeSeconds === undefined ? '—' : formatSeconds(p.stepTimeSeconds),
        p.tokensPerSecondPerGpu === undefined ? '—' : formatGrouped(p.tokensPerSecondPerGpu),
        ...mfuCells(p.mfu, peak, '—'),
        p.efficiency === undefined ? '—' : `${(p.efficiency * 100).toFixed(1)}%`,
        planCell(p),
      ]),
    ], { align: ['right', 'right', 'right', 'right', 'right', ...mfuAlign, 'right', 'left'] }),
  ];
  // Efficiency is tokens/s per GPU against the best plan of the smallest size that runs one (scalingSweep), whatever
  // the order listed; each size is searched on its own, so a size whose best layout differs may do better per GPU.
  const ref = a.points.filter((p) => p.efficiency !== undefined).reduce<(typeof a.points)[number] | undefined>((r, p) => (r === undefined || p.nodes < r.nodes ? p : r), undefined);
  const above = a.points.filter((p) => (p.efficiency ?? 0) > 1.0005 && p.label !== undefined && p.label !== ref?.label);
  if (ref?.label !== undefined && above.length > 0) {
    // The gain per GPU, to the efficiency column's decimal (QA: "a little faster per GPU" said of 121.8%).
    const gains = above.map((p) => `${((p.efficiency! - 1) * 100).toFixed(1)}%`);
    lines.push('', `efficiency over 100% at ${above.map((p) => formatGrouped(p.nodes)).join(', ')} nodes: each size is searched on its own, `
      + `and the best plan there is another layout than at ${countText(ref.nodes, 'node')}, ${gains.join(', ')} faster per GPU${gains.length > 1 ? ' respectively' : ''}`);
  }
  // The planner's caveats on each size's plan, as `estimate` prints them: one line per warning, naming the sizes it holds at
  // (QA: the same context-parallel caveat printed once per row of a sweep).
  const sizesByWarning = new Map<string, number[]>();
  for (const p of a.points) for (const w of p.warnings ?? []) sizesByWarning.set(w, [...(sizesByWarning.get(w) ?? []), p.nodes]);
  const warned = [...sizesByWarning].map(([w, sizes]) => {
    const last = sizes[sizes.length - 1]!;
    return `  ⚠ ${sizes.length === 1 ? '' : `${sizes.slice(0, -1).map(grouped).join(', ')} and `}${countText(last, 'node')}: ${w}`;
  });
  const caveats = [...batchWarningLines(warning), ...warned];
  if (caveats.length > 0) lines.push('', ...caveats);
  if (a.tradeOff) {
    lines.push('', `TP × PP at ${countText(a.points[0]!.nodes, 'node')} (best of the other dimensions):`, ...renderTable([
      ['TP', 'PP', 'step', 'tokens/s/GPU', ...mfuHeaders(peak), 'plan or why not'],
      ...a.tradeOff.map((c) => [
        String(c.tensor), String(c.pipeline), c.stepTimeSeconds === undefined ? '—' : formatSeconds(c.stepTimeSeconds),
        c.tokensPerSecondPerGpu === undefined ? '—' : formatGrouped(c.tokensPerSecondPerGpu), ...mfuCells(c.mfu, peak, '—'),
        planCell(c),
      ]),
    ], { align: ['right', 'right', 'right', 'right', ...mfuAlign, 'left'] }));
  }
  return `${lines.join('\n')}\n`;
}

/** A sweep as printAnswer prints an ok answer: the JSON under --json, else the table (`report`), in flag terms. */
function printSweep(io: RequestIo, v: FlagValues, answer: Sweep, report: (a: Sweep) => string): Sweep {
  if (v.json === true) io.stdout(`${JSON.stringify(answer, null, 2)}\n`);
  const shown = shownAnswer(io, answer);
  if (v.json !== true) io.stdout(report(shown));
  return shown;
}

export const scaleCommand: Command = requestCommand({
  name: 'scale',
  summary: 'scaling sweeps (strong or weak) and the TP × PP trade-off table',
  synopsis: SYNOPSIS,
  usage: USAGE,
  flags: FLAGS,
  requestFlags: REQUEST_FLAGS,
  fromFlags,
  missing: { nodes: 'the node counts to sweep, e.g. --nodes 105,140,175', 'global-batch': 'the sequences per optimizer step, e.g. --global-batch 1536' },
  answer(request, v, io) {
    const answer = runScale(request);
    // The batch is always given (--global-batch is required): warned where it reads as a token count typed as sequences.
    const warning = batchWarning(io, requestBatch(request));
    const report = (a: Sweep) => formatScaleReport(a, warning);
    // No size runs (ok: false, its points each with a reason): the table and the stderr lines, as where some size runs.
    const shown = 'points' in answer ? printSweep(io, v, answer, report) : printAnswer<Extract<ScaleResponseJson, { ok: true }>>(io, v, answer, report);
    if (!shown) return EXIT.usage;
    // The JSON is the API's answer: the warning the table would carry goes to stderr.
    if (v.json === true) printBatchWarning(io, warning);
    // stdout carries the table (or the JSON); stderr names each size without a plan, so a script sees why it exits 1.
    const failed = shown.points.filter((p) => p.reason !== undefined);
    for (const p of failed) printError(io, `${countText(p.nodes, 'node')} (${countText(p.gpus, 'GPU')}): ${p.reason}`);
    return failed.length > 0 ? EXIT.infeasible : EXIT.ok;
  },
});
