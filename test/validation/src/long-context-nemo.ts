import type { ScenarioInput } from '@trainplan/protocol';

/**
 * Out-of-sample long-context rows: NVIDIA NeMo's "Long Sequence Performance" table, Llama 2 7B pre-training in FP8 on
 * DGX-H100 (NeMo 24.03.01), with context parallelism from 32k tokens. Not in ../shared/ground-truth (whose longest
 * sequence is 8,192 tokens) and not used to fit anything.
 *
 * Source: NVIDIA/NeMo docs/source/performance/performance_long_sequence.md @ 0aa267117ae5f1ff9f8d8308ed3d1ba1ce939f82,
 * the "With-CP" columns: sequence (K = 1,024 tokens), GPUs, TP, PP, DP, CP, TFLOP/s per GPU. The table states neither
 * the global batch, the micro-batch nor the recompute setting: the rows are run at micro-batch 1 and eight sequences
 * per data-parallel replica a step (PP 2's bubble then (p − 1)/m = 1/8; one sequence would make it half the step), with
 * no recompute and with full recompute, both reported. NeMo's TFLOP/s counts attention over
 * every (query, key) pair (nemo/utils/flops_formulas.py llama2), as trainplan's model FLOPs do.
 */
export const LONG_CONTEXT_SOURCE = {
  repo: 'NVIDIA/NeMo', path: 'docs/source/performance/performance_long_sequence.md', commit: '0aa267117ae5f1ff9f8d8308ed3d1ba1ce939f82',
  table: 'LLAMA2-7B (FP8), with-CP columns; NeMo 24.03.01, DGX-H100',
} as const;

export interface LongContextRow {
  readonly seqLength: number;
  readonly gpus: number;
  readonly tensor: number;
  readonly pipeline: number;
  readonly data: number;
  readonly context: number;
  /** TFLOP/s per GPU as the table prints it. */
  readonly tflopsPerGpu: number;
}

// Sequence (K), GPUs, TP, PP, DP, CP, TFLOP/s per GPU (with CP): as printed.
const RAW: readonly (readonly [number, number, number, number, number, number, number])[] = [
  [4, 4, 1, 1, 4, 1, 768],
  [8, 8, 1, 2, 4, 1, 730],
  [16, 16, 2, 1, 8, 1, 660],
  [32, 32, 2, 1, 8, 2, 610],
  [64, 64, 4, 1, 8, 2, 574],
  [128, 128, 4, 1, 8, 4, 555],
  [256, 256, 4, 1, 8, 8, 549],
  [512, 512, 8, 1, 4, 16, 549],
  [1024, 1024, 8, 1, 4, 32, 536],
];

export const LONG_CONTEXT_ROWS: readonly LongContextRow[] = RAW.map(([k, gpus, tensor, pipeline, data, context, tflopsPerGpu]) => ({
  seqLength: k * 1024, gpus, tensor, pipeline, data, context, tflopsPerGpu,
}));

/** Sequences each data-parallel replica runs a step (the table states no batch). */
export const SEQUENCES_PER_REPLICA = 8;

/** A row as a contract scenario, with no recompute or full recompute (the table states neither). */
export function longContextScenario(row: LongContextRow, recompute: 'none' | 'full'): ScenarioInput {
  return {
    model: 'llama2-7b',
    cluster: { gpu: 'h100-sxm', gpus: row.gpus },
    training: { globalBatchSize: SEQUENCES_PER_REPLICA * row.data, microBatchSize: 1, precision: 'fp8', seqLength: row.seqLength },
    parallelism: {
      tensor: row.tensor, pipeline: row.pipeline, data: row.data, context: row.context,
      sequenceParallel: row.tensor > 1, recompute, distributedOptimizer: true,
    },
  };
}
