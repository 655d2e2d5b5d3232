import { formatBytes } from '@trainplan/units';
import { loadTrainingRows } from './ground-truth.ts';
import { LLAMA405_GPUS, LLAMA405_RELEASES, llama405Row } from './llama405-dgxc.ts';
import { share, TARGETS } from './render.ts';
import { errorSummary, scoreRow, type CalibrationOverrides, type ErrorSummary, type ScoredRow } from './score.ts';
import type { ValidationSection } from './sections.ts';
import { SOURCES } from './sources.ts';

const DGXC = SOURCES.find((s) => s.id === 'dgxc-24.11')!;
const PRECISIONS = ['bf16', 'fp8'] as const;
/** Issue #2's targets for any source, applied unchanged: a source within 8% MAPE and no row above 15%. */
export const SOURCE_MAPE_TARGET = TARGETS.sourceMape;
export const ROW_TARGET = TARGETS.rowError;

export interface OutOfSampleRow {
  readonly gpus: number;
  readonly precision: 'bf16' | 'fp8';
  readonly release: string;
  readonly measuredSeconds: number;
  readonly scored: ScoredRow;
}

/** Every (configuration, release) pair, each predicted through the dgxc-24.11 profile (NeMo's defaults, EOS), or with some constants replaced (a what-if). */
export function scoreLlama405(overrides: CalibrationOverrides = {}): OutOfSampleRow[] {
  const out: OutOfSampleRow[] = [];
  for (const precision of PRECISIONS) {
    for (const gpus of LLAMA405_GPUS) {
      for (const r of LLAMA405_RELEASES) {
        const measuredSeconds = r.steps[String(gpus) as '576'][precision];
        const scored = scoreRow(llama405Row(gpus, precision, measuredSeconds), DGXC, overrides);
        if (scored) out.push({ gpus, precision, release: r.release, measuredSeconds, scored });
      }
    }
  }
  return out;
}

export const outOfSampleSummary = (rows: readonly OutOfSampleRow[], precision: 'bf16' | 'fp8'): ErrorSummary =>
  errorSummary(rows.filter((r) => r.precision === precision).map((r) => r.scored.error));

const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const abs = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** "+4.7% to +7.4%": the smallest and largest signed error of one precision's rows. */
function errorRange(rows: readonly OutOfSampleRow[], precision: 'bf16' | 'fp8'): string {
  const errors = rows.filter((r) => r.precision === precision).map((r) => r.scored.error);
  return `${pct(Math.min(...errors))} to ${pct(Math.max(...errors))}`;
}

/** The in-sample dgxc-24.11 rows' mean error by model and precision ("GPT-3 175B BF16": −2.9%), for comparison. */
function inSampleBiases(): Map<string, number> {
  const groups = new Map<string, number[]>();
  for (const r of loadTrainingRows().filter((row) => DGXC.matches(row))) {
    const key = `${r.model.name} ${r.precision}`;
    groups.set(key, [...(groups.get(key) ?? []), scoreRow(r, DGXC)!.error]);
  }
  return new Map([...groups].map(([key, errors]) => [key, errors.reduce((s, e) => s + e, 0) / errors.length]));
}

export const outOfSampleSection: ValidationSection = {
  name: 'out-of-sample',
  run() {
    const rows = scoreLlama405();
    const bf16 = outOfSampleSummary(rows, 'bf16');
    const fp8 = outOfSampleSummary(rows, 'fp8');
    const verdict = (s: { mape: number; worst: number }) =>
      `MAPE ${abs(s.mape)} (target ≤ ${abs(SOURCE_MAPE_TARGET)} ${s.mape <= SOURCE_MAPE_TARGET ? 'met' : '**missed**'}), `
      + `worst ${abs(s.worst)} (≤ ${abs(ROW_TARGET)} ${s.worst <= ROW_TARGET ? 'met' : '**missed**'})`;
    const first = rows.find((r) => r.gpus === LLAMA405_GPUS[0] && r.precision === 'bf16')!.scored.estimate;
    const fragmentation = first.memory.otherBytes;
    const [a, b] = LLAMA405_RELEASES;
    const biases = inSampleBiases();
    const byModel = [...biases].map(([key, bias]) => `${key} ${pct(bias)}`).join(', ');
    const markdown = [
      '## Out of sample: Llama 3.1 405B on H100 (NVIDIA DGX Cloud recipes, NeMo 24.09 and 24.12)',
      '',
      `Not in the ground truth and not used to fit anything: NVIDIA/dgxc-benchmarking llama3.1/README_405b.md at ${a!.commit} (${a!.release}) and `
      + `${b!.commit} (${b!.release}), "Expected Performance", the full-model columns. The same publisher and machine (EOS) as the dgxc-24.11 rows, `
      + 'a model none of them has. Configuration as stated: TP 8 · PP 9 · CP 2 · VP 7 · micro-batch 1, global batch 252 per 576 GPUs, '
      + 'sequence 8,192; everything else as the dgxc-24.11 profile assumes (NeMo defaults: flash attention, fused cross entropy, sequence '
      + 'parallelism, distributed optimizer, overlapped gradient reduce, TP communication and pipeline sends, no recompute, no dropout).',
      '',
      `| GPUs | precision | ${a!.release} measured | ${b!.release} measured | predicted | error (${a!.release}) | error (${b!.release}) | step breakdown (%) | memory (fits) |`,
      '|---|---|---|---|---|---|---|---|---|',
      ...PRECISIONS.flatMap((precision) => LLAMA405_GPUS.map((gpus) => {
        const [x, y] = rows.filter((r) => r.gpus === gpus && r.precision === precision);
        const e = x!.scored.estimate;
        return `| ${gpus.toLocaleString('en-US')} | ${precision.toUpperCase()} | ${x!.measuredSeconds} s | ${y!.measuredSeconds} s | ${e.stepTimeSeconds.toFixed(2)} s `
          + `| ${pct(x!.scored.error)} | ${pct(y!.scored.error)} | ${share(x!.scored)} | ${formatBytes(e.memory.totalBytes)} (${e.memory.fits ? 'yes' : '**no**'}) |`;
      })),
      '',
      `- BF16, ${bf16.n} measurements: ${verdict(bf16)}, bias ${pct(bf16.bias)}.`,
      `- FP8, ${fp8.n} measurements: ${verdict(fp8)}, bias ${pct(fp8.bias)}. The in-sample FP8 rows, all GPT-3 175B, are the only ones the `
      + 'Hopper FP8 GEMM fraction was fitted on; serving ties FP8 GEMMs to the 16-bit constant by the kernels\' measured ratio instead (0.52), since with the fitted one H100 FP8 prefills came out 21–30% slow. It is one constant per '
      + 'generation: fitting it to these rows would make them in-sample. FP8 GEMMs timed on an H100 (the kernels section below) keep to '
      + 'one fraction of the FP8 peak across shapes, well above the fitted one; tying the FP8 constant to the 16-bit one by their '
      + 'measured ratio meets the targets here but misses the in-sample GPT-3 FP8 rows (the what-if there). Two physical corrections '
      + 'of 2026-11-28 lengthened these already long predictions: flash launches costed as their thread blocks run (these plans\' CP 2 '
      + 'halves the keys and blocks of each launch) and SwiGLU\'s backward traffic at five widths of the MLP rather than four '
      + '(packages/planner/src/calibration.ts records the errors at each refit since).',
      `- A hint at the cause: in sample, the dgxc-24.11 rows already split by model family (mean error ${byModel}). GPT-3's steps, with `
      + 'dropout, GeLU and LayerNorm, are predicted too short, and Llama 3.1 70B\'s, without dropout, too long: one set of Hopper '
      + 'constants compromises between their element-wise work and their GEMMs. FP8 shrinks the GEMMs, so what the compromise '
      + 'misplaces weighs more, and the FP8 constant, fitted on GPT-3 alone, carries the compromise to a Llama model.',
      `- Memory: at ${LLAMA405_GPUS[0]} GPUs the predicted peak is ${formatBytes(first.memory.totalBytes)} against ${formatBytes(first.memory.capacityBytes)}, `
      + `although NVIDIA ran it; ${formatBytes(fragmentation)} of it is the runtime reserve and the 10% fragmentation allowance, which this `
      + 'run evidently did not need in full. The step time is scored all the same (the out-of-memory estimate is the one reported).',
    ];
    return {
      markdown,
      summary: [`Llama 3.1 405B (out of sample): BF16 MAPE ${abs(bf16.mape)} worst ${abs(bf16.worst)}; FP8 MAPE ${abs(fp8.mape)} worst ${abs(fp8.worst)}`],
      readme: [
        `- Out of sample (rows no constant was fitted on): Llama 3.1 405B on ${LLAMA405_GPUS[0].toLocaleString('en-US')}–${LLAMA405_GPUS.at(-1)!.toLocaleString('en-US')} `
        + `H100, NVIDIA's DGX Cloud recipes of ${a!.release} and ${b!.release}, stated configuration: BF16 ${errorRange(rows, 'bf16')} `
        + `(MAPE ${abs(bf16.mape)}, target ${abs(SOURCE_MAPE_TARGET)} ${bf16.mape <= SOURCE_MAPE_TARGET ? 'met' : '**missed**'}); FP8 ${errorRange(rows, 'fp8')} `
        + `(MAPE ${abs(fp8.mape)}, ${fp8.mape <= SOURCE_MAPE_TARGET ? 'met' : '**missed**'}): the Hopper FP8 GEMM fraction, fitted on GPT-3 175B alone, `
        + 'does not carry to this model (nor to serving, which ties it to the 16-bit constant by the kernels\' ratio), while FP8 GEMMs timed on an H100 run as fast relative to BF16 on '
        + 'GPT-3\'s shapes as on Llama\'s: what the two sources differ in lies outside the GEMMs.',
      ],
    };
  },
};
