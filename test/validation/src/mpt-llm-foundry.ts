import type { ScenarioInput } from '@trainplan/protocol';

/**
 * Out-of-sample rows on A100 with flash attention: MosaicML's MPT throughput benchmarks, one node of 8 A100 80GB,
 * PyTorch FSDP (FULL_SHARD, ZeRO-3-like) in Composer, bf16 autocast (amp_bf16, FSDP mixed precision DEFAULT), no
 * tensor or pipeline parallelism. No A100 row of ../shared/ground-truth uses flash attention or ZeRO-3: the Ampere
 * attention fraction (0.55, from FlashAttention-2's paper) and the ZeRO-3 costs were fitted on none of these.
 *
 * Source: mosaicml/llm-foundry scripts/train/benchmarking/README.md @ c90b9b312c644dbde5c9e6eef75c6f1c117d8782,
 * table "A100 80GB with 1600 Gbps node-node interconnect (RoCE)", every row on 8 GPUs (one node: the fabric between
 * nodes plays no part). Columns kept: model, sequence, micro-batch, global batch (sequences), throughput (tokens/s),
 * MFU (%), activation checkpointing, parameter count. The README's MFU is (6·N + 12·L·d·s) × tokens/s ÷ (GPUs × 312
 * TFLOP/s), attention counted without causal halving (scripts/train/benchmarking/collect_results.py).
 *
 * The MPT shapes of these runs (scripts/train/yamls/pretrain/mpt-*.yaml, llmfoundry/models/mpt/configuration_mpt.py
 * defaults): GELU MLP of 4d, vocabulary 50,368, learned positions (a table of s × d, so the count grows with s),
 * biases, LayerNorm, tied embeddings, no dropout. The stated parameter counts are L·(12d² + 13d) + 50368·d + s·d + 2d
 * exactly, which the tests hold trainplan's count to.
 */
export const MPT_SOURCE = {
  repo: 'mosaicml/llm-foundry', path: 'scripts/train/benchmarking/README.md', commit: 'c90b9b312c644dbde5c9e6eef75c6f1c117d8782',
  table: 'A100 80GB with 1600 Gbps node-node interconnect (RoCE)',
} as const;

export const MPT_GPUS = 8;
const MPT_VOCAB = 50368;

/** Layers, width and heads of each MPT size (the yamls; head width 64 up to 350m, 128 from 760m). */
export const MPT_SHAPES: Readonly<Record<string, readonly [layers: number, hiddenSize: number, heads: number]>> = {
  '125m': [12, 768, 12], '350m': [24, 1024, 16], '760m': [24, 1536, 12], '1b': [24, 2048, 16], '3b': [32, 2560, 20],
  '7b': [32, 4096, 32], '13b': [40, 5120, 40], '30b': [48, 7168, 56],
};

export interface MptRow {
  readonly model: string;
  readonly seqLength: number;
  readonly microBatchSize: number;
  readonly globalBatchSize: number;
  readonly tokensPerSecond: number;
  /** The README's MFU, in per cent, by its own convention (above). */
  readonly mfuPercent: number;
  readonly activationCheckpointing: boolean;
  readonly parameters: number;
}

type RawRow = readonly [string, number, number, number, number, number, boolean, number];

// model, sequence, micro-batch, global batch (sequences), tokens/s, MFU %, activation checkpointing, parameters: as printed.
const RAW: readonly RawRow[] = [
  ['30b', 8192, 1, 168, 4594, 39.38, true, 30019254272],
  ['30b', 4096, 1, 168, 6513, 51.37, true, 29989894144],
  ['30b', 2048, 3, 504, 7330, 55.3, true, 29975214080],
  ['30b', 1024, 6, 1008, 7571, 55.82, true, 29967874048],
  ['30b', 512, 12, 2016, 7739, 56.4, true, 29964204032],
  ['13b', 32768, 1, 24, 8134, 51.69, true, 13011240960],
  ['13b', 16384, 3, 72, 11454, 54.07, true, 12927354880],
  ['13b', 8192, 5, 120, 14362, 56.07, true, 12885411840],
  ['13b', 4096, 10, 240, 16482, 57.62, true, 12864440320],
  ['13b', 2048, 2, 48, 18097, 59.57, false, 12853954560],
  ['13b', 1024, 40, 960, 18647, 59.48, true, 12848711680],
  ['7b', 65536, 1, 16, 8108, 46.97, true, 6918905856],
  ['7b', 32768, 2, 32, 13382, 49.46, true, 6784688128],
  ['7b', 16384, 4, 64, 19629, 51.96, true, 6717579264],
  ['7b', 8192, 8, 128, 25655, 54.47, true, 6684024832],
  ['7b', 4096, 16, 256, 29472, 54.84, true, 6667247616],
  ['7b', 2048, 6, 96, 37130, 64.23, false, 6658859008],
  ['7b', 1024, 64, 1024, 34857, 58.01, true, 6654664704],
  ['3b', 65536, 1, 16, 14137, 46.05, true, 2814366720],
  ['3b', 32768, 3, 144, 24235, 47.18, true, 2730480640],
  ['3b', 16384, 1, 48, 44233, 57.13, false, 2688537600],
  ['3b', 8192, 3, 144, 61567, 59.34, false, 2667566080],
  ['3b', 4096, 5, 240, 75658, 60.53, false, 2657080320],
  ['3b', 2048, 10, 160, 86491, 62.11, false, 2651837440],
  ['3b', 1024, 20, 960, 92643, 62.73, false, 2649216000],
  ['3b', 512, 40, 1920, 97019, 63.71, false, 2647905280],
  ['1b', 65536, 1, 16, 24353, 46.18, true, 1445974016],
  ['1b', 32768, 1, 32, 50207, 55.52, false, 1378865152],
  ['1b', 16384, 2, 64, 79650, 56.6, false, 1345310720],
  ['1b', 8192, 3, 96, 110516, 56.69, false, 1328533504],
  ['1b', 4096, 7, 224, 142457, 59.0, false, 1320144896],
  ['1b', 2048, 14, 448, 164109, 59.86, false, 1315950592],
  ['1b', 1024, 18, 576, 176898, 60.15, false, 1313853440],
  ['1b', 512, 56, 1792, 185186, 60.68, false, 1312804864],
  ['760m', 65536, 1, 16, 33150, 45.34, true, 857988096],
  ['760m', 32768, 1, 16, 70417, 54.57, false, 807656448],
  ['760m', 16384, 3, 48, 114198, 54.64, false, 782490624],
  ['760m', 8192, 6, 96, 167471, 55.31, false, 769907712],
  ['760m', 4096, 12, 192, 218808, 56.05, false, 763616256],
  ['760m', 2048, 24, 384, 259472, 56.85, false, 760470528],
  ['760m', 1024, 48, 768, 238122, 47.76, false, 758897664],
  ['760m', 512, 96, 1536, 235571, 45.07, false, 758111232],
  ['350m', 65536, 1, 16, 60195, 52.7, false, 420997120],
  ['350m', 32768, 2, 32, 109222, 52.46, false, 387442688],
  ['350m', 16384, 4, 64, 188478, 53.28, false, 370665472],
  ['350m', 8192, 8, 128, 292559, 53.8, false, 362276864],
  ['350m', 4096, 16, 256, 396442, 53.31, false, 358082560],
  ['350m', 2048, 32, 512, 470263, 51.62, false, 355985408],
  ['350m', 1024, 64, 1024, 518504, 50.51, false, 354936832],
  ['350m', 512, 128, 2048, 554643, 50.61, false, 354412544],
  ['125m', 65536, 1, 16, 162946, 54.13, false, 174070272],
  ['125m', 32768, 2, 32, 291256, 52.71, false, 148904448],
  ['125m', 16384, 4, 64, 480322, 50.61, false, 136321536],
  ['125m', 8192, 8, 128, 723142, 48.85, false, 130030080],
  ['125m', 4096, 16, 256, 947172, 46.08, false, 126884352],
  ['125m', 2048, 40, 640, 1142641, 44.79, false, 125311488],
  ['125m', 2048, 32, 512, 1133901, 44.45, false, 125311488],
  ['125m', 1024, 64, 1024, 1251751, 43.15, false, 124525056],
  ['125m', 512, 128, 2048, 1325455, 42.56, false, 124131840],
];

export const MPT_ROWS: readonly MptRow[] = RAW.map(([model, seqLength, microBatchSize, globalBatchSize, tokensPerSecond, mfuPercent, activationCheckpointing, parameters]) =>
  ({ model, seqLength, microBatchSize, globalBatchSize, tokensPerSecond, mfuPercent, activationCheckpointing, parameters }));

/** The measured step: a global batch of tokens at the stated throughput. */
export const measuredStepSeconds = (r: MptRow): number => (r.globalBatchSize * r.seqLength) / r.tokensPerSecond;

/**
 * One row as a scenario: the MPT shape at the row's sequence, 8 A100 80GB, ZeRO-3 with the reduction overlapped
 * (FSDP prefetches and reduce-scatters during the backward pass), full recompute where the row checkpointed
 * activations (FSDP wraps each block), flash attention, no dropout, and PyTorch's cross entropy, which autocast runs
 * in fp32 on the logits (modelled as Megatron's unfused fp32 cross entropy, the nearest kernel trainplan has).
 */
export function mptScenario(r: MptRow): ScenarioInput {
  const [layers, hiddenSize, attentionHeads] = MPT_SHAPES[r.model]!;
  return {
    model: {
      name: `MPT ${r.model}`, layers, hiddenSize, attentionHeads, vocabSize: MPT_VOCAB, seqLength: r.seqLength,
      gatedMlp: false, tiedEmbeddings: true, positionEmbedding: 'learned', linearBias: true, normalization: 'layernorm',
    },
    cluster: { gpu: 'a100-80gb', gpus: MPT_GPUS },
    training: {
      globalBatchSize: r.globalBatchSize, microBatchSize: r.microBatchSize, precision: 'bf16', dropout: false,
      attentionKernel: 'flash', crossEntropyKernel: 'unfused',
    },
    parallelism: { tensor: 1, pipeline: 1, zeroStage: 3, recompute: r.activationCheckpointing ? 'full' : 'none', overlapGradReduce: true },
  };
}
