import type { TrainingRow } from './ground-truth.ts';

/**
 * Out-of-sample rows: Llama 3.1 405B on H100 from NVIDIA's DGX Cloud benchmarking recipes, the publisher and
 * machine (EOS, DGX H100 with 8 × 400 Gb/s NDR per node) of the dgxc-24.11 rows in ../shared/ground-truth, but
 * a model none of those rows has, and not in the ground truth: the Hopper constants were fitted without them
 * (packages/planner/src/calibration.ts), so these rows test the model rather than the fit.
 *
 * Source: NVIDIA/dgxc-benchmarking llama3.1/README_405b.md, "Expected Performance", the full-model columns
 * (576, 1,152 and 2,304 GPUs; the README calls the smaller columns proxy configurations with fewer layers).
 * Two releases state the same configuration: TP 8 · PP 9 · CP 2 · VP 7 · MBS 1, global batch 252 per 576
 * GPUs, sequence 8,192, BF16 and FP8. Step times as printed ("Training step time (seconds per step)").
 */
export interface Llama405Release {
  readonly release: string;
  /** The commit of the README the step times were read from. */
  readonly commit: string;
  readonly container: string;
  /** Seconds per step by [GPUs, precision]. */
  readonly steps: Readonly<Record<'576' | '1152' | '2304', { readonly bf16: number; readonly fp8: number }>>;
}

export const LLAMA405_RELEASES: readonly Llama405Release[] = [
  {
    release: 'NeMo 24.09', commit: '143b90dd8', container: 'nvcr.io/nvidia/nemo:24.09',
    steps: { 576: { bf16: 17.2, fp8: 11.24 }, 1152: { bf16: 17.52, fp8: 11.31 }, 2304: { bf16: 17.62, fp8: 12.35 } },
  },
  {
    release: 'NeMo 24.12', commit: '8f5cbb379', container: 'nvcr.io/nvidia/nemo:24.12',
    steps: { 576: { bf16: 17.5, fp8: 11.0 }, 1152: { bf16: 17.6, fp8: 11.1 }, 2304: { bf16: 17.7, fp8: 11.2 } },
  },
];

export const LLAMA405_GPUS = [576, 1152, 2304] as const;

/** One configuration as a ground-truth row, measured at `stepSeconds` (for the dgxc profile's scenario). */
export function llama405Row(gpus: number, precision: 'bf16' | 'fp8', stepSeconds: number): TrainingRow {
  return {
    id: `dgxc-llama3.1-405b-${precision}-${gpus}gpu`,
    source: 'NVIDIA/dgxc-benchmarking llama3.1/README_405b.md',
    tier: 'A',
    precision: precision.toUpperCase(),
    notes: 'Out of sample: not in ../shared/ground-truth, not used to fit any constant.',
    model: { name: 'Llama 3.1 405B', layers: 126, hidden: 16384, heads: 128, seq: 8192, vocab: 128256, kv_heads: 8, ffn_hidden: 53248 },
    hardware: { gpu: 'H100-SXM5-80GB', gpus_per_node: 8, nodes: gpus / 8, total_gpus: gpus, inter: '8 × 400 Gb/s NDR per node (EOS)' },
    parallel: { tp: 8, pp: 9, dp: gpus / 144, vp: 7, sp: null, cp: 2, recompute: null, zero: null, mbs: 1, gbs: (gpus * 252) / 576 },
    measured: { step_time_s: stepSeconds, tflops_per_gpu: null, mfu: null, hfu: null, tokens_per_s: null },
  };
}
