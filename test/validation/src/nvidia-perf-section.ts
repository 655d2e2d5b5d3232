import { COMPUTE_CALIBRATION } from '@trainplan/planner';
import { modelById } from '@trainplan/presets';
import { formatBytes } from '@trainplan/units';
import {
  MACHINES, PUBLISHED_RUNS, PUBLISHED_SOURCES, publishedRow, type PublishedGpu, type PublishedRun,
} from './nvidia-perf-summary.ts';
import { share, TARGETS } from './render.ts';
import { errorSummary, scoreRow, type ErrorSummary, type ScoredRow } from './score.ts';
import type { ValidationSection } from './sections.ts';
import { SOURCES, type SourceProfile } from './sources.ts';

const DGXC = SOURCES.find((s) => s.id === 'dgxc-24.11')!;
export const GPUS: readonly PublishedGpu[] = ['gb200', 'b200', 'h100-sxm'];
const GPU_LABEL: Readonly<Record<PublishedGpu, string>> = { gb200: 'GB200', b200: 'B200', 'h100-sxm': 'H100' };

/** Issue #2's target for a source, applied to each GPU's rows: MAPE ≤ 8%. */
export const SOURCE_MAPE_TARGET = TARGETS.sourceMape;

/**
 * Where a GPU missed the 8% target, the guard is on its worst row instead: no row's |error| beyond the worst measured
 * when the section was added (2026-11-29), rounded up to the next 5%. B200 (MAPE 9.7%) and H100 (8.7%) missed the
 * target then; their worst rows measured 20.4% (Nemotron-4 340B on B200) and 25.7% (GPT-3 175B, NeMo 25.02, on H100).
 * GB200 (7.55%) met it and is held to it. With the recipes' 16-bit gradient reduction (profileFor), B200 meets it too
 * (MAPE 6.8%) and is held to it as well, its row guard kept; H100 still misses it (8.1%, worst row 24.7%).
 * test/nvidia-perf.test.ts asserts these.
 */
export const WORST_ROW_GUARD: Readonly<Partial<Record<PublishedGpu, number>>> = { b200: 0.25, 'h100-sxm': 0.3 };

/**
 * How the gradients accumulate: 'fused-16-bit', as the recipes run (the scores), or 'fused', Megatron's fp32 main
 * gradients under bf16 (the in-sample profile's, shown beside them for what the recipes' setting changes).
 */
export type RecipeGradients = 'fused-16-bit' | 'fused';

/**
 * The dgxc-24.11 profile (NeMo's defaults, as for the in-sample DGX Cloud rows and the Llama 3.1 405B section), on each
 * GPU's own machine, with the settings these tables add: the gradients fused into a 16-bit buffer and reduced in bf16
 * ('fused-16-bit'), as every source's performance recipe sets it (PublishedSource.gradients, nvidia-perf-summary.ts);
 * FSDP = 1 as ZeRO-3 (weights, gradients and optimizer state sharded); and for Llama 3.1 405B the embedding and the loss
 * each taking one layer's place in the pipeline split (Megatron-Bridge src/megatron/bridge/recipes/llama/llama31_405b.py
 * @ 3594df94 sets both by default; NVIDIA's layouts need it, as 126 layers do not divide into the p · v chunks of PP 8 ·
 * VP 8 or PP 16 · VP 4, and 128 slots do). The in-sample dgxc-24.11 rows keep Megatron's fp32 main gradients: their
 * calibration stands.
 */
export function profileFor(run: PublishedRun, gradients: RecipeGradients = 'fused-16-bit'): SourceProfile {
  return {
    ...DGXC,
    assumptions: `${DGXC.assumptions} Gradients fused into a 16-bit buffer and reduced in ${PUBLISHED_SOURCES[run.source].gradients}.`,
    network: MACHINES[run.gpu].network,
    scenario: (row) => {
      const base = DGXC.scenario(row);
      const { distributedOptimizer: _sharded, ...parallelism } = base.parallelism ?? {};
      return {
        ...base,
        training: { ...base.training, gradientAccumulation: gradients },
        parallelism: {
          ...(run.fsdp ? { ...parallelism, zeroStage: 3 as const } : base.parallelism),
          ...(run.model === 'llama3.1-405b' && run.pp > 1 && { embeddingInPipelineSplit: true, lossInPipelineSplit: true }),
        },
      };
    },
  };
}

export interface PublishedScore {
  readonly run: PublishedRun;
  readonly scored: ScoredRow;
  /** trainplan's throughput per GPU: gbs · s / (predicted step · N). */
  readonly predictedTokensPerSecondPerGpu: number;
}

/** Every published row, predicted through the dgxc profile on its GPU's machine; out-of-memory estimates are scored too (the 405B section does the same). */
export function scoreNvidiaPerf(gradients: RecipeGradients = 'fused-16-bit'): PublishedScore[] {
  return PUBLISHED_RUNS.map((run, i) => {
    const scored = scoreRow(publishedRow(run, i), profileFor(run, gradients));
    if (!scored) throw new Error(`row ${i} has no measured step time`);
    const predictedTokensPerSecondPerGpu = (run.gbs * run.seqLength) / (scored.predictedStepSeconds * run.gpus);
    return { run, scored, predictedTokensPerSecondPerGpu };
  });
}

export const gpuSummary = (rows: readonly PublishedScore[], gpu: PublishedGpu): ErrorSummary =>
  errorSummary(rows.filter((r) => r.run.gpu === gpu).map((r) => r.scored.error));

const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const abs = (x: number): string => `${(x * 100).toFixed(1)}%`;
const whole = (x: number): string => Math.round(x).toLocaleString('en-US');
const layout = (r: PublishedRun): string => `TP ${r.tp} · PP ${r.pp} · CP ${r.cp} · VP ${r.vp}${r.fsdp ? ' · FSDP' : ''}`;
const modelName = (r: PublishedScore): string => modelById(r.run.model)?.shape.name ?? r.run.model;

/** Whether the Blackwell constants are Hopper's, read from calibration.ts rather than asserted in prose. */
export const blackwellIsHopper = (): boolean => COMPUTE_CALIBRATION.blackwell === COMPUTE_CALIBRATION.hopper;

function verdict(gpu: PublishedGpu, s: ErrorSummary): string {
  const met = s.mape <= SOURCE_MAPE_TARGET;
  const guard = WORST_ROW_GUARD[gpu];
  const kept = guard === undefined ? '' : `; no row beyond ${abs(guard)} (asserted: the guard set when the section was added, when it missed the target)`;
  return met
    ? `target ≤ ${abs(SOURCE_MAPE_TARGET)} met (asserted)${kept}`
    : `target ≤ ${abs(SOURCE_MAPE_TARGET)} **missed**; asserted only that no row exceeds ${abs(guard ?? s.worst)} (the worst row when the section was added, rounded up to the next 5%)`;
}

/**
 * Rows that state the same configuration in two releases: how far the software alone moved the published figure, a floor
 * under what one set of constants can match across releases.
 */
function releaseSpread(rows: readonly PublishedScore[]): string[] {
  const key = (r: PublishedRun) => JSON.stringify([r.model, r.gpu, r.gpus, r.tp, r.pp, r.cp, r.vp, r.mbs, r.gbs, r.seqLength, r.fsdp]);
  const pairs = rows.flatMap((a, i) => rows.slice(i + 1).filter((b) => key(b.run) === key(a.run)).map((b) => [a, b] as const));
  if (pairs.length === 0) return [];
  return [
    '- The same configuration published by two releases: '
    + pairs.map(([a, b]) => {
      const [hi, lo] = a.run.tokensPerSecondPerGpu >= b.run.tokensPerSecondPerGpu ? [a, b] : [b, a];
      return `${modelName(a)} on ${whole(a.run.gpus)} ${GPU_LABEL[a.run.gpu]}, ${whole(hi.run.tokensPerSecondPerGpu)} (${hi.run.table}) `
        + `against ${whole(lo.run.tokensPerSecondPerGpu)} (${lo.run.table}), ${pct(hi.run.tokensPerSecondPerGpu / lo.run.tokensPerSecondPerGpu - 1)}`;
    }).join('; ')
    + '. Software alone moved these rows by that much; trainplan predicts each pair alike, so the whole spread shows in their errors.',
  ];
}

/** "GPT-3 175B +9.1%, +12.2%; …": each model's signed errors on the Blackwell GPUs, in table order. */
function blackwellByModel(rows: readonly PublishedScore[]): string {
  const groups = new Map<string, number[]>();
  for (const r of rows.filter((x) => x.run.gpu !== 'h100-sxm')) groups.set(modelName(r), [...(groups.get(modelName(r)) ?? []), r.scored.error]);
  return [...groups].map(([name, errors]) => `${name} ${errors.map(pct).join(', ')}`).join('; ');
}

export const nvidiaPerfSection: ValidationSection = {
  name: 'nvidia-perf',
  run() {
    const rows = scoreNvidiaPerf();
    const summaries = GPUS.map((gpu) => ({ gpu, s: gpuSummary(rows, gpu) }));
    const tight = rows.filter((r) => !r.scored.fits);
    // The same rows with Megatron's fp32 main gradients (the in-sample profile's): what the recipes' 16-bit reduction changes.
    const fp32 = scoreNvidiaPerf('fused');
    const fitOnlyIn16Bit = rows.filter((r, i) => r.scored.fits && !fp32[i]!.scored.fits);
    const sources = Object.values(PUBLISHED_SOURCES);
    const markdown = [
      '## NVIDIA\'s published Blackwell and FP8 throughput (out of sample)',
      '',
      'Not in the ground truth and not used to fit anything: NVIDIA\'s pre-training throughput tables for DGX GB200, DGX B200 and '
      + `DGX H100 at FP8, ${rows.length} rows, each with the configuration its table states (test/validation/src/nvidia-perf-summary.ts). `
      + (blackwellIsHopper()
        ? 'trainplan has never been fitted on a Blackwell GPU: its Blackwell constants are Hopper\'s (packages/planner/src/calibration.ts, '
          + '`blackwell: HOPPER`), so the GB200 and B200 rows test how the Hopper fit carries to a new generation through the datasheet peaks alone.'
        : 'The Blackwell constants are no longer Hopper\'s (packages/planner/src/calibration.ts): say here what they were fitted on.'),
      '',
      'Sources, as read on 2026-11-29:',
      ...sources.map((s) => `- ${s.id}: ${s.citation}. Precision: ${s.precision}. Gradients reduced in ${s.gradients}.`),
      '',
      'Settings: the dgxc-24.11 profile of the in-sample DGX Cloud rows (NeMo\'s defaults: flash attention, fused cross entropy, sequence '
      + 'parallelism when TP > 1, distributed optimizer, overlapped gradient reduce, TP communication and pipeline sends, FP8 weights, no '
      + 'recompute, dropout for GPT-3 only), on each GPU\'s machine (GB200: trays of 4 in the 72-GPU NVLink domain; B200 and H100: 8 per node, '
      + '8 × 400 Gb/s NDR); the gradients accumulated in the weight-gradient GEMM into a 16-bit buffer and reduced in bf16 '
      + '(`training.gradientAccumulation: "fused-16-bit"`, 2 bytes a parameter where Megatron\'s default under bf16 holds and reduces fp32 ones), '
      + 'as each source\'s performance recipe sets it (the Gradients line of each source above; the in-sample dgxc-24.11 rows keep fp32); FSDP = 1 as ZeRO-3; Llama 3.1 405B with the embedding and the loss each in a layer\'s place in the pipeline split '
      + '(the Megatron-Bridge recipe\'s default; these layouts need it). Left out: MXFP8 and NVFP4 rows (block-scaled FP8/FP4, which trainplan '
      + 'does not model), the 25.09 tables (no precision stated), Megatron-Bridge\'s 25.11 Llama 3 70B on GB200 (its global batch is 128 at an '
      + 'earlier commit of the same file and 256 at the cited one, for the same 4,312 tokens/s) and a tier-C example output.',
      '',
      'Error is on the step time, as everywhere in this report: (predicted − published) / published, where the published step is '
      + 'gbs · s / (tokens/s/GPU · GPUs). A positive error is a prediction too slow (tokens/s too low).',
      '',
      '| model | GPU | GPUs | layout | batch (micro / global × sequence) | published tokens/s/GPU | predicted | error | step breakdown (%) | table |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows.map((r) => `| ${modelName(r)} | ${GPU_LABEL[r.run.gpu]} | ${whole(r.run.gpus)} | ${layout(r.run)} | ${r.run.mbs} / ${whole(r.run.gbs)} × ${whole(r.run.seqLength)} `
        + `| ${whole(r.run.tokensPerSecondPerGpu)} | ${whole(r.predictedTokensPerSecondPerGpu)} | ${pct(r.scored.error)} | ${share(r.scored)} `
        + `| ${r.run.table}${r.scored.fits ? '' : ' (**out of memory** in trainplan, below)'} |`),
      '',
      '| GPU | rows | MAPE | mean signed error | worst row | target |',
      '|---|---|---|---|---|---|',
      ...summaries.map(({ gpu, s }) => `| ${GPU_LABEL[gpu]} | ${s.n} | ${abs(s.mape)} | ${pct(s.bias)} | ${abs(s.worst)} | ${verdict(gpu, s)} |`),
      '',
      `Out of memory in trainplan (${tight.length} row${tight.length === 1 ? '' : 's'}): NVIDIA ran each, so it fitted in the GPU's memory there; `
      + 'the tables publish no memory figure of their own. The step time is scored all the same, from the estimate computed as if '
      + 'memory allowed (the Llama 3.1 405B section does the same).',
      ...tight.map((r) => `- ${modelName(r)} on ${whole(r.run.gpus)} ${GPU_LABEL[r.run.gpu]}, ${layout(r.run)}: trainplan's peak `
        + `${formatBytes(r.scored.estimate.memory.totalBytes)} (activations ${formatBytes(r.scored.estimate.memory.activationsBytes)}, runtime reserve `
        + `and 10% fragmentation allowance ${formatBytes(r.scored.estimate.memory.otherBytes)}) against the ${formatBytes(r.scored.estimate.memory.capacityBytes)} `
        + 'NVIDIA\'s run fitted in.'),
      '- Not CPU activation offload, as far as the recipes show: Megatron-Bridge\'s preset for the 405B GB200 layout sets '
      + 'use_megatron_fsdp False and cpu_offloading_num_layers None (scripts/performance/configs/llama/llama31_workload_base_configs.py @ '
      + '0013c9a8, LLAMA31_405B_PRETRAIN_CONFIG_GB200_FP8_CS_V2). Offload is what the two '
      + 'FSDP rows left out of this table used (Llama 3 70B and Llama 3.1 405B on GB200: cpu_offloading_num_layers 40 and 92 in the same '
      + 'presets), and trainplan does not model it.',
      ...fitOnlyIn16Bit.map((r) => {
        const before = fp32[rows.indexOf(r)]!.scored.estimate.memory;
        return `- Fits only with the recipe's 16-bit gradients: ${modelName(r)} on ${whole(r.run.gpus)} ${GPU_LABEL[r.run.gpu]}, ${layout(r.run)}, `
          + `${formatBytes(r.scored.estimate.memory.totalBytes)} (gradients ${formatBytes(r.scored.estimate.memory.gradientsBytes)}); with Megatron's fp32 `
          + `main gradients ${formatBytes(before.totalBytes)} (gradients ${formatBytes(before.gradientsBytes)}), over the GPU's ${formatBytes(before.capacityBytes)}.`;
      }),
      `- With Megatron's fp32 main gradients instead of the recipes' 16-bit ones, the step-time MAPE by GPU would be `
      + GPUS.map((gpu) => `${GPU_LABEL[gpu]} ${abs(gpuSummary(fp32, gpu).mape)} (mean ${pct(gpuSummary(fp32, gpu).bias)})`).join(', ')
      + ': the 16-bit reduction halves the data-parallel gradient traffic and the gradient buffer the step zeroes, and adds the cast of '
      + '16-bit gradients to fp32 at the optimizer step.',
      '',
      ...releaseSpread(rows),
      `- On Blackwell, by model (signed errors, GB200 and B200 rows together): ${blackwellByModel(rows)}. Hopper's constants carry no `
      + 'Blackwell-specific GEMM or attention fraction, and the errors differ by workload rather than by one factor. The H100 rows, all FP8, '
      + `lean too slow (mean ${pct(summaries.find((x) => x.gpu === 'h100-sxm')!.s.bias)}), as the Llama 3.1 405B FP8 rows above do: the Hopper `
      + 'FP8 GEMM fraction was fitted on GPT-3 175B alone.',
    ];
    const line = (gpu: PublishedGpu, s: ErrorSummary) => `${GPU_LABEL[gpu]} ${s.n} rows MAPE ${abs(s.mape)} (signed ${pct(s.bias)}), worst ${abs(s.worst)}`;
    return {
      markdown,
      summary: summaries.map(({ gpu, s }) => `NVIDIA perf tables (out of sample): ${line(gpu, s)}`),
      readme: [
        `- Out of sample on Blackwell and FP8: NVIDIA's published pre-training throughput (Megatron-Bridge and NeMo performance tables), `
        + `${rows.length} rows with their stated configurations, none fitted on; Blackwell runs on Hopper's constants. Step-time MAPE by GPU: `
        + summaries.map(({ gpu, s }) => `${GPU_LABEL[gpu]} ${abs(s.mape)} (${s.n} rows, mean ${pct(s.bias)}, ${s.mape <= SOURCE_MAPE_TARGET ? 'met' : '**missed**'})`).join(', ')
        + ` against the ${abs(SOURCE_MAPE_TARGET)} target of a source.`,
      ],
    };
  },
};
