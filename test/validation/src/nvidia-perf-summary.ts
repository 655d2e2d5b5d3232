import { modelById } from '@trainplan/presets';
import type { TrainingRow } from './ground-truth.ts';

/**
 * Out-of-sample rows: NVIDIA's published pre-training throughput for Blackwell (DGX B200, GB200 NVL72) and for newer
 * H100 FP8 runs, each with its stated configuration. None is in ../shared/ground-truth and no constant was fitted on
 * any of them: the Blackwell calibration is Hopper's (packages/planner/src/calibration.ts, `blackwell: HOPPER`), fitted
 * on H100 rows only, so these rows test the model and its transfer to a GPU generation it has never been fitted on.
 *
 * Every row was read from its source at the commit or release named below (2026-11-29). Left out, and why: rows whose
 * precision is MXFP8 ("FP8-MX": 32-element block scaling, which trainplan does not model) or NVFP4; the 25.09 tables,
 * which state no precision column; Llama 3 70B on GB200 from Megatron-Bridge's 25.11 table, whose global batch the
 * same file states as 128 at an earlier commit and 256 at the cited one for the same 4,312 tokens/s; the DGX Cloud
 * recipes' "example output" of Nemotron-4 340B (tier C: an example, the GPU not named).
 */

/** Where a row was read. */
export interface PublishedSource {
  readonly id: 'megatron-bridge' | 'nemo-25.04' | 'nemo-25.02' | 'nemo-24.07';
  /** Repository, path and commit, or URL and release, as read. */
  readonly citation: string;
  /** The FP8 recipe as the source states it, or why the recipe is per-tensor where it does not. */
  readonly precision: string;
  /**
   * Where the source's recipes reduce the gradients in 16 bits, as read: a 16-bit main-gradient buffer fused into the
   * weight-gradient GEMM (the scenario's gradientAccumulation 'fused-16-bit'), not Megatron's fp32 default under bf16.
   */
  readonly gradients: string;
}

/**
 * NeMo 2's performance scripts, behind every NeMo 25.x FP8 row: NVIDIA/NeMo scripts/performance/helpers.py @ e8509a92,
 * set_precision_configs (called by each pretrain_*.py through set_primary_perf_configs) sets
 * `recipe.trainer.plugins.grad_reduce_in_fp32 = False` (at 02a0e6a5, under compute_dtype fp8 alone); an earlier version
 * of pretrain_gpt3_175b.py and of pretrain_nemotron4_340b.py set it in their own override_recipe_configs ("if
 * args.compute_dtype.lower() == 'fp8': recipe.trainer.plugins = bf16_with_fp8_mixed();
 * recipe.trainer.plugins.grad_reduce_in_fp32 = False"). Versions around, not at, the 25.02 and 25.04 releases, which
 * were not read.
 */
const NEMO2_GRADIENTS = 'bf16, by NeMo 2\'s performance scripts (NVIDIA/NeMo scripts/performance/helpers.py @ e8509a92, set_precision_configs: '
  + '"recipe.trainer.plugins.grad_reduce_in_fp32 = False", which every pretrain_*.py reaches through set_primary_perf_configs; earlier, '
  + 'pretrain_gpt3_175b.py and pretrain_nemotron4_340b.py set it themselves for compute_dtype fp8). Versions near the release, not its own';

export const PUBLISHED_SOURCES: Readonly<Record<PublishedSource['id'], PublishedSource>> = {
  'megatron-bridge': {
    id: 'megatron-bridge',
    citation: 'NVIDIA-NeMo/Megatron-Bridge docs/performance-summary.md @ df0289c180dd20ff26933455c7a0a11084f6a36f '
      + '(https://docs.nvidia.com/nemo/megatron-bridge/latest/performance-summary.html)',
    precision: 'FP8-CS, per-tensor FP8 with current scaling (the recipes\' fp8_cs, "FP8 current-scaling"); the FP8-MX (MXFP8) and NVFP4 rows are left out',
    // Megatron-Bridge's performance configs for the Llama rows: "cfg.mixed_precision.grad_reduce_in_fp32 = False" and
    // "cfg.ddp.grad_reduce_in_fp32 = False" in set_llama31_common_configs (llama31_llm_pretrain.py @ 0013c9a8) and
    // set_llama3_common_configs (llama3_llm_pretrain.py @ 2a0d46e2). The FSDP row's gradients are 16-bit either way (ZeRO-3).
    gradients: 'bf16, by Megatron-Bridge\'s performance configs (scripts/performance/configs/llama/llama31_llm_pretrain.py @ 0013c9a8, '
      + 'set_llama31_common_configs, and llama3_llm_pretrain.py @ 2a0d46e2, set_llama3_common_configs: "cfg.ddp.grad_reduce_in_fp32 = False")',
  },
  'nemo-25.04': {
    id: 'nemo-25.04',
    citation: 'https://docs.nvidia.com/nemo-framework/user-guide/latest/performance/archive/25.04-performance-summary.html (Container NeMo 25.04)',
    precision: '"per-tensor FP8 quantization, leveraging scaling factors computed in the current step"',
    gradients: NEMO2_GRADIENTS,
  },
  'nemo-25.02': {
    id: 'nemo-25.02',
    citation: 'https://docs.nvidia.com/nemo-framework/user-guide/latest/performance/performance_summary.html, the "Container: NeMo 25.02" '
      + 'edition (pre-training "at FP8 precision (using NeMo 2.0)")',
    precision: 'FP8, recipe not stated. Kept as per-tensor FP8: NeMo\'s performance scripts run FP8 as delayed scaling unless '
      + 'MXFP8 is asked for (NVIDIA/NeMo scripts/performance/helpers.py @ e8509a92, set_precision_configs: fp8_recipe None → "ds"; a '
      + 'later version than 25.02\'s, which was not read), and on the H100 it is per-tensor in any case (Hopper has no MXFP8: '
      + 'https://nvidia.github.io/TransformerEngine/support_matrix.html)',
    gradients: NEMO2_GRADIENTS,
  },
  'nemo-24.07': {
    id: 'nemo-24.07',
    citation: 'NVIDIA/NeMo docs/source/performance/performance_summary.md @ 070a0bb168d405d653b9734c0017cf5078e77c0d (Container NeMo 24.07, DGX-H100)',
    precision: '"FP8 precision"; on the H100 per-tensor (Hopper has no MXFP8: https://nvidia.github.io/TransformerEngine/support_matrix.html)',
    // NeMo 1.x reads optim.grad_sync_dtype into Megatron-Core's grad_reduce_in_fp32 (export-gradients.ts nemoGradientText),
    // with gradient_accumulation_fusion on: the fused 16-bit buffer. The 24.07 table's own recipes were not read; these are
    // the NeMo-Framework-Launcher's configuration of the same layout and its H100 FP8 examples, at the commits named. (An
    // earlier llama2_7b_fp8.sh, @ 5bf099e0, does not pass the key; the one named does.)
    gradients: 'bf16, by the NeMo-Framework-Launcher (launcher_scripts/conf/training/nemotron/nemotron_340b.yaml @ 3be81fc1, TP 8 · PP 8 · '
      + 'VP 12: "gradient_accumulation_fusion: True", optim "grad_sync_dtype: bf16"; the H100 FP8 examples pass '
      + '"+training.model.optim.grad_sync_dtype=bf16": examples/training/gpt/h100/175b_fp8_16node.sh and llama/h100/llama2_70b_fp8.sh @ 1ee3eb3e, '
      + 'llama3_70b_fp8.sh @ 4a9b61bc, llama3_8b_fp8.sh @ 329df4af, llama2_7b_fp8.sh @ 7d6e2df9). The 24.07 table\'s own recipes were not read',
  },
};

export type PublishedGpu = 'gb200' | 'b200' | 'h100-sxm';

/** One published row, as its table states it. */
export interface PublishedRun {
  /** trainplan's preset of the model (packages/presets), whose shape the run trained. */
  readonly model: 'llama2-7b' | 'llama2-70b' | 'llama3-8b' | 'llama3-70b' | 'llama3.1-405b' | 'gpt3-175b' | 'nemotron4-15b' | 'nemotron4-340b';
  readonly gpu: PublishedGpu;
  readonly gpus: number;
  readonly tp: number;
  readonly pp: number;
  readonly cp: number;
  /** Virtual pipeline stages; 1 where the table says "n/a" or 1. */
  readonly vp: number;
  readonly mbs: number;
  readonly gbs: number;
  readonly seqLength: number;
  /** The table's FSDP column is 1 (Megatron FSDP: weights, gradients and optimizer state sharded over the data-parallel ranks). */
  readonly fsdp: boolean;
  readonly tokensPerSecondPerGpu: number;
  readonly source: PublishedSource['id'];
  /** The table within the source: release and system. */
  readonly table: string;
}

const run = (r: Omit<PublishedRun, 'fsdp'> & { fsdp?: boolean }): PublishedRun => ({ fsdp: false, ...r });

export const PUBLISHED_RUNS: readonly PublishedRun[] = [
  // GB200 NVL72
  run({ model: 'llama3-8b', gpu: 'gb200', gpus: 8, tp: 1, pp: 1, cp: 1, vp: 1, mbs: 2, gbs: 128, seqLength: 8192, tokensPerSecondPerGpu: 31508, source: 'megatron-bridge', table: 'Megatron-Bridge 25.11, DGX-GB200' }),
  run({ model: 'llama3.1-405b', gpu: 'gb200', gpus: 256, tp: 4, pp: 16, cp: 1, vp: 4, mbs: 1, gbs: 1536, seqLength: 8192, tokensPerSecondPerGpu: 813, source: 'megatron-bridge', table: 'Megatron-Bridge 25.11, DGX-GB200' }),
  run({ model: 'gpt3-175b', gpu: 'gb200', gpus: 128, tp: 4, pp: 4, cp: 1, vp: 12, mbs: 2, gbs: 256, seqLength: 2048, tokensPerSecondPerGpu: 1804, source: 'nemo-25.04', table: 'NeMo 25.04, DGX-GB200' }),
  run({ model: 'llama3.1-405b', gpu: 'gb200', gpus: 128, tp: 4, pp: 8, cp: 2, vp: 8, mbs: 1, gbs: 64, seqLength: 8192, tokensPerSecondPerGpu: 665, source: 'nemo-25.04', table: 'NeMo 25.04, DGX-GB200' }),
  run({ model: 'nemotron4-15b', gpu: 'gb200', gpus: 64, tp: 1, pp: 1, cp: 1, vp: 1, mbs: 2, gbs: 256, seqLength: 4096, tokensPerSecondPerGpu: 17809, source: 'nemo-25.04', table: 'NeMo 25.04, DGX-GB200' }),
  run({ model: 'nemotron4-340b', gpu: 'gb200', gpus: 128, tp: 8, pp: 4, cp: 1, vp: 12, mbs: 1, gbs: 32, seqLength: 4096, tokensPerSecondPerGpu: 737, source: 'nemo-25.04', table: 'NeMo 25.04, DGX-GB200' }),
  // DGX B200
  run({ model: 'llama3-8b', gpu: 'b200', gpus: 8, tp: 1, pp: 1, cp: 1, vp: 1, mbs: 2, gbs: 128, seqLength: 8192, tokensPerSecondPerGpu: 30624, source: 'megatron-bridge', table: 'Megatron-Bridge 25.11, DGX-B200' }),
  run({ model: 'llama3.1-405b', gpu: 'b200', gpus: 128, tp: 4, pp: 8, cp: 2, vp: 8, mbs: 1, gbs: 64, seqLength: 8192, tokensPerSecondPerGpu: 661, source: 'megatron-bridge', table: 'Megatron-Bridge 25.11, DGX-B200' }),
  run({ model: 'gpt3-175b', gpu: 'b200', gpus: 512, tp: 4, pp: 4, cp: 1, vp: 6, mbs: 2, gbs: 2048, seqLength: 2048, tokensPerSecondPerGpu: 1600, source: 'nemo-25.02', table: 'NeMo 25.02, DGX-B200' }),
  run({ model: 'llama3-8b', gpu: 'b200', gpus: 8, tp: 1, pp: 1, cp: 1, vp: 1, mbs: 2, gbs: 128, seqLength: 8192, tokensPerSecondPerGpu: 26006, source: 'nemo-25.02', table: 'NeMo 25.02, DGX-B200' }),
  run({ model: 'llama3-70b', gpu: 'b200', gpus: 64, tp: 2, pp: 4, cp: 2, vp: 5, mbs: 1, gbs: 128, seqLength: 8192, tokensPerSecondPerGpu: 3062, source: 'nemo-25.02', table: 'NeMo 25.02, DGX-B200' }),
  run({ model: 'llama3.1-405b', gpu: 'b200', gpus: 128, tp: 4, pp: 8, cp: 2, vp: 8, mbs: 1, gbs: 64, seqLength: 8192, tokensPerSecondPerGpu: 625, source: 'nemo-25.02', table: 'NeMo 25.02, DGX-B200' }),
  run({ model: 'nemotron4-15b', gpu: 'b200', gpus: 64, tp: 1, pp: 1, cp: 1, vp: 1, mbs: 2, gbs: 256, seqLength: 4096, tokensPerSecondPerGpu: 14760, source: 'nemo-25.02', table: 'NeMo 25.02, DGX-B200' }),
  run({ model: 'nemotron4-340b', gpu: 'b200', gpus: 128, tp: 8, pp: 4, cp: 1, vp: 12, mbs: 1, gbs: 32, seqLength: 4096, tokensPerSecondPerGpu: 602, source: 'nemo-25.02', table: 'NeMo 25.02, DGX-B200' }),
  // DGX H100, FP8
  run({ model: 'llama3-8b', gpu: 'h100-sxm', gpus: 8, tp: 1, pp: 1, cp: 1, vp: 1, mbs: 1, gbs: 128, seqLength: 8192, fsdp: true, tokensPerSecondPerGpu: 14451, source: 'megatron-bridge', table: 'Megatron-Bridge 25.11, DGX-H100' }),
  run({ model: 'llama3-70b', gpu: 'h100-sxm', gpus: 64, tp: 4, pp: 8, cp: 1, vp: 5, mbs: 1, gbs: 128, seqLength: 8192, tokensPerSecondPerGpu: 1602, source: 'megatron-bridge', table: 'Megatron-Bridge 25.11, DGX-H100' }),
  run({ model: 'llama3.1-405b', gpu: 'h100-sxm', gpus: 1024, tp: 8, pp: 8, cp: 2, vp: 8, mbs: 1, gbs: 512, seqLength: 8192, tokensPerSecondPerGpu: 292, source: 'megatron-bridge', table: 'Megatron-Bridge 25.11, DGX-H100' }),
  run({ model: 'llama3-70b', gpu: 'h100-sxm', gpus: 64, tp: 4, pp: 8, cp: 1, vp: 5, mbs: 1, gbs: 256, seqLength: 8192, tokensPerSecondPerGpu: 1621, source: 'megatron-bridge', table: 'Megatron-Bridge 26.02, DGX-H100' }),
  run({ model: 'llama3.1-405b', gpu: 'h100-sxm', gpus: 1024, tp: 8, pp: 8, cp: 2, vp: 8, mbs: 1, gbs: 1536, seqLength: 8192, tokensPerSecondPerGpu: 311, source: 'megatron-bridge', table: 'Megatron-Bridge 26.02, DGX-H100' }),
  run({ model: 'gpt3-175b', gpu: 'h100-sxm', gpus: 512, tp: 4, pp: 8, cp: 1, vp: 6, mbs: 2, gbs: 2048, seqLength: 2048, tokensPerSecondPerGpu: 866, source: 'nemo-25.02', table: 'NeMo 25.02, DGX-H100' }),
  run({ model: 'gpt3-175b', gpu: 'h100-sxm', gpus: 512, tp: 4, pp: 8, cp: 1, vp: 6, mbs: 2, gbs: 2048, seqLength: 2048, tokensPerSecondPerGpu: 782, source: 'nemo-24.07', table: 'NeMo 24.07, DGX-H100' }),
  run({ model: 'llama2-7b', gpu: 'h100-sxm', gpus: 8, tp: 1, pp: 1, cp: 1, vp: 1, mbs: 1, gbs: 128, seqLength: 4096, tokensPerSecondPerGpu: 16847, source: 'nemo-24.07', table: 'NeMo 24.07, DGX-H100' }),
  run({ model: 'llama2-70b', gpu: 'h100-sxm', gpus: 64, tp: 4, pp: 4, cp: 1, vp: 20, mbs: 1, gbs: 128, seqLength: 4096, tokensPerSecondPerGpu: 1707, source: 'nemo-24.07', table: 'NeMo 24.07, DGX-H100' }),
  run({ model: 'nemotron4-340b', gpu: 'h100-sxm', gpus: 128, tp: 8, pp: 8, cp: 1, vp: 12, mbs: 1, gbs: 32, seqLength: 4096, tokensPerSecondPerGpu: 322, source: 'nemo-24.07', table: 'NeMo 24.07, DGX-H100' }),
  run({ model: 'llama3-8b', gpu: 'h100-sxm', gpus: 8, tp: 1, pp: 1, cp: 2, vp: 1, mbs: 1, gbs: 128, seqLength: 8192, tokensPerSecondPerGpu: 12036, source: 'nemo-24.07', table: 'NeMo 24.07, DGX-H100' }),
  run({ model: 'llama3-70b', gpu: 'h100-sxm', gpus: 64, tp: 4, pp: 4, cp: 2, vp: 5, mbs: 1, gbs: 128, seqLength: 8192, tokensPerSecondPerGpu: 1533, source: 'nemo-24.07', table: 'NeMo 24.07, DGX-H100' }),
];

/**
 * The machine of each GPU as NVIDIA benchmarks it: a GB200 compute tray holds 4 GPUs in a 72-GPU NVLink domain (the
 * `nvl72` fabric); DGX B200 and DGX H100 hold 8, with 8 × 400 Gb/s NDR InfiniBand per node (trainplan's system presets).
 */
export const MACHINES: Readonly<Record<PublishedGpu, { readonly name: string; readonly gpusPerNode: number; readonly network: string }>> = {
  gb200: { name: 'GB200', gpusPerNode: 4, network: 'nvl72' },
  b200: { name: 'B200', gpusPerNode: 8, network: 'ndr-ib-8x' },
  'h100-sxm': { name: 'H100-SXM5-80GB', gpusPerNode: 8, network: 'ndr-ib-8x' },
};

/**
 * The step time a published throughput implies: a step trains gbs sequences of s tokens over all N GPUs, so
 * t = gbs · s / (tokens/s/GPU · N).
 */
export const stepSecondsOf = (r: PublishedRun): number => (r.gbs * r.seqLength) / (r.tokensPerSecondPerGpu * r.gpus);

/** A published run as a ground-truth row (for the dgxc profile's scenario), measured at the step time its throughput implies. */
export function publishedRow(r: PublishedRun, index: number): TrainingRow {
  const preset = modelById(r.model);
  if (!preset) throw new Error(`no preset ${r.model}`);
  const s = preset.shape;
  const machine = MACHINES[r.gpu];
  return {
    id: `nvidia-perf-${index}-${r.model}-${r.gpu}-${r.gpus}gpu`,
    source: PUBLISHED_SOURCES[r.source].citation,
    tier: 'A',
    precision: 'FP8',
    notes: 'Out of sample: not in ../shared/ground-truth, not used to fit any constant.',
    model: {
      name: s.name, layers: s.layers, hidden: s.hiddenSize, heads: s.attentionHeads, seq: r.seqLength,
      vocab: s.vocabSize, kv_heads: s.kvHeads, ffn_hidden: s.ffnHiddenSize,
    },
    hardware: { gpu: machine.name, gpus_per_node: machine.gpusPerNode, nodes: r.gpus / machine.gpusPerNode, total_gpus: r.gpus, inter: machine.network },
    parallel: {
      tp: r.tp, pp: r.pp, dp: r.gpus / (r.tp * r.pp * r.cp), vp: r.vp, sp: null, cp: r.cp, recompute: null,
      zero: r.fsdp ? 3 : null, mbs: r.mbs, gbs: r.gbs,
    },
    measured: { step_time_s: stepSecondsOf(r), tflops_per_gpu: null, mfu: null, hfu: null, tokens_per_s: r.tokensPerSecondPerGpu * r.gpus },
  };
}
