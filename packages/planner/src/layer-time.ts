import { BYTES_16BIT, BYTES_FP32, kvWidth, type ModelShape } from '@trainplan/model';
import type { Seconds } from '@trainplan/units';
import {
  elementwiseSeconds, flashAttentionSeconds, gemmComputeSeconds, gemmForwardBackwardSeconds, gemmSeconds,
  type GemmShape, type KernelContext,
} from './kernel-time.ts';
import type { PlanInput } from './plan-input.ts';

/**
 * One transformer layer, one micro-batch, one GPU: the kernels Megatron-LM runs (ParallelMLP,
 * ParallelAttention, fused bias-dropout-add, LayerNorm), costed one by one. Communication is costed
 * separately (comm-time.ts).
 */
export interface LayerComputeCost {
  readonly forward: Seconds;
  readonly backward: Seconds;
  /** GEMM time, forward and backward, against which tensor-parallel communication may overlap. */
  readonly gemmForward: Seconds;
  readonly gemmBackward: Seconds;
  /** The forward GEMMs' tensor-core time alone (gemmComputeSeconds): what they add to a serving iteration that fuses them into the decode's. */
  readonly gemmForwardCompute: Seconds;
  /**
   * The attention core (Q·Kᵀ, softmax, dropout, ·V): what selective recompute re-runs, and the
   * compute that context-parallel K/V exchange overlaps.
   */
  readonly attentionForward: Seconds;
  readonly attentionBackward: Seconds;
  /**
   * The backward GEMMs of the two column-parallel linears (QKV, then fc1): the input gradient
   * (dgrad) and the weight gradient (wgrad), which Megatron's asynchronous tensor-parallel
   * communication overlaps with that linear's backward collectives (stage-time.ts).
   */
  readonly columnParallelBackward: readonly { readonly dgrad: Seconds; readonly wgrad: Seconds }[];
}

/** Bytes of a dropout mask element: PyTorch keeps dropout masks as 1-byte bools (Korthikanti 2022 §4 counts them so). */
const MASK = 1;
/** Flash attention's backward does 5 matmuls to the forward's 2 (Dao 2023, FlashAttention-2 §3.2). */
const FLASH_BACKWARD_MATMUL_RATIO = 2.5;
/**
 * Flash attention's tile edge in tokens, queries and keys alike: FlashAttention-3's Hopper kernel runs 128 × 128 blocks
 * at head dimension 128 when causal (hopper/tile_size.h, tile_size_fwd_sm90); FlashAttention-2 runs 128-query blocks
 * (Dao 2023 §3.3: blocks of {64, 128} × {64, 128}; csrc run_mha_fwd_hdim128 takes 128 × 64 on A100 and H100 without
 * dropout). The launch model below (flashBlockEfficiency's per-block cost) was fitted in tiles of this edge, and the
 * attention FLOPs count tiles of it (causalAttentionTiles).
 */
const ATTENTION_TILE_TOKENS = 128;

/**
 * The share of the score matrix's tiles a causal flash kernel computes: it skips the tiles above the diagonal and
 * computes the diagonal ones whole under a mask (FlashAttention-2 §3.1, "causal masking"), so (T + 1) / 2T of
 * T × T tiles: 0.53 at 2k tokens, 0.5 in the limit.
 */
export function causalTileFraction(seqLength: number): number {
  const tiles = Math.ceil(seqLength / ATTENTION_TILE_TOKENS);
  return (tiles + 1) / (2 * tiles);
}

/**
 * The score tiles (ATTENTION_TILE_TOKENS square) one GPU's causal flash attention computes for one sequence and head,
 * over all its launches. A kernel computes whole tiles: a sequence's partial last tile of queries or keys is computed as
 * a whole one under a mask, as the diagonal tiles are (FlashAttention-2 §3.1), so one more token past a tile's edge costs
 * a row of tiles, and never less work than one token fewer (QA: the tile share applied to s² instead made 4,098 tokens
 * cheaper than 4,096, and a 129-token prompt's attention 0.75 × 129² against 128²'s 1 × 128²).
 *
 * One GPU: the T(T + 1)/2 tiles on and below the diagonal of T = ⌈s/128⌉ query and key tiles. Context parallelism c
 * (Transformer Engine's load-balanced ring, context_parallel.py AttnFuncWithCPAndKVP2P): a GPU holds two chunks of s/2c
 * tokens; its first ring step is a causal launch over its own s/c tokens, and each of the other c − 1 steps a full one
 * of its s/c queries over a peer's first key chunk (steps i ≤ rank) or of its second query chunk over a peer's s/c keys
 * (i > rank): ⌈s/c/128⌉ · ⌈s/2c/128⌉ tiles either way. With chunks of whole tiles the c GPUs' tiles sum to one GPU's.
 */
export function causalAttentionTiles(seqLength: number, context: number): number {
  const localTiles = Math.ceil(seqLength / context / ATTENTION_TILE_TOKENS);
  const chunkTiles = Math.ceil(seqLength / (2 * context) / ATTENTION_TILE_TOKENS);
  return (localTiles * (localTiles + 1)) / 2 + (context - 1) * localTiles * chunkTiles;
}

/**
 * The share of a flash kernel's long-sequence rate its thread blocks reach: each block (one query tile) runs k̄ key tiles
 * after a fixed cost of `overheadTiles` iterations (FlashAttention-2 §3.3: one thread block per query tile, looping over
 * key tiles), so k̄ / (k̄ + overheadTiles). k̄ is the key tiles a query tile meets, on average, in one launch: the local
 * keys' tiles under the causal share of the whole sequence (context parallelism launches one kernel per ring step, each
 * over the local chunk). The cost is measured, not assumed: with the last wave's tail (flashWaveEfficiency), cuDNN's and
 * FlashAttention-2's causal rates at 2k–32k tokens on an H100 and an H200 fit it within 2.9%, but cuDNN's on the H200's
 * second run within 3.8%, its points having moved up to 1.7% from its first (docs/validation.md, kernels section;
 * test/validation flashBlockFit).
 */
export function flashBlockEfficiency(localTokens: number, seqLength: number, overheadTiles: number): number {
  if (overheadTiles <= 0) return 1;
  const keyTiles = Math.ceil(localTokens / ATTENTION_TILE_TOKENS) * causalTileFraction(seqLength);
  return keyTiles / (keyTiles + overheadTiles);
}

/**
 * A causal flash launch's blocks are unequal (a query tile meets as many key tiles as precede it), so its last wave over
 * the SMs runs, on average, half full: B blocks on S SMs take the time of B/S + 1/2 waves of full ones. Half a wave is
 * that average, not a fit: with it, the H100's and H200's cuDNN rates at 8,192 tokens predict 8 heads' per-head time
 * within 1.5% of 64 heads' (docs/validation.md, kernels section), which one rate for every launch size misses by 12%.
 */
export const FLASH_TAIL_WAVES = 0.5;

export function flashWaveEfficiency(blocks: number, smCount: number): number {
  return 1 / (1 + (FLASH_TAIL_WAVES * smCount) / blocks);
}

/**
 * The share of the long-sequence rate one GPU's flash launch reaches: its blocks' fixed cost and its last wave. Both
 * belong to the launch model measured on Hopper; a generation whose calibration charges no per-block cost (Ampere: no
 * flash kernel timed here) takes one rate for every launch, its fraction standing for both.
 */
export function flashLaunchEfficiency(launch: {
  readonly localTokens: number; readonly seqLength: number; readonly sequencesTimesHeads: number; readonly smCount: number; readonly overheadTiles: number;
}): number {
  if (launch.overheadTiles <= 0) return 1;
  const blocks = launch.sequencesTimesHeads * Math.ceil(launch.localTokens / ATTENTION_TILE_TOKENS);
  return flashBlockEfficiency(launch.localTokens, launch.seqLength, launch.overheadTiles) * flashWaveEfficiency(blocks, launch.smCount);
}

/** The four linear layers of a transformer layer, in the order Megatron runs them. */
export type LinearName = 'qkv' | 'proj' | 'fc1' | 'fc2';

/**
 * A layer's linear GEMMs on one GPU, for T tokens and tensor-parallel size t: [T, in] × [in, out/t]
 * (column parallel: QKV, fc1) and [T, in/t] × [in/t, out] (row parallel: the attention projection, fc2);
 * Megatron-LM's ColumnParallelLinear and RowParallelLinear (Shoeybi et al. 2019, §3).
 */
export function linearGemmShapes(model: ModelShape, t: number, T: number): readonly (GemmShape & { readonly name: LinearName })[] {
  const h = model.hiddenSize;
  const f = model.ffnHiddenSize;
  const kv = kvWidth(model);
  return [
    { name: 'qkv', m: T, n: (h + 2 * kv) / t, k: h },
    { name: 'proj', m: T, n: h, k: h / t },
    { name: 'fc1', m: T, n: (model.gatedMlp ? 2 * f : f) / t, k: h },
    { name: 'fc2', m: T, n: h, k: f / t },
  ];
}

export function layerComputeCost(input: PlanInput, ctx: KernelContext, peak16: number): LayerComputeCost {
  const { model, tensor: t, microBatchSize: b } = input;
  const sLocal = input.seqLength / input.context;
  const T = b * sLocal;
  const h = model.hiddenSize;
  const f = model.ffnHiddenSize;
  const kv = kvWidth(model);
  const heads = model.attentionHeads / t;
  const headDim = h / model.attentionHeads;
  // Regions outside the tensor-parallel GEMMs: replicated, or split t ways by sequence parallelism.
  const Trep = input.sequenceParallel ? T / t : T;
  const drop = input.dropout ? MASK : 0;

  const shapes = linearGemmShapes(model, t, T);
  const gemms = shapes.map((g) => gemmForwardBackwardSeconds(ctx, g));
  const gemmForward = gemms.reduce((sum, g) => sum + g.forward, 0);
  const gemmBackward = gemms.reduce((sum, g) => sum + g.backward, 0);

  // Element-wise kernels, by their HBM traffic (reads + writes).
  const layerNorm = { fwd: 2 * BYTES_16BIT * Trep * h, bwd: 3 * BYTES_16BIT * Trep * h };
  const biasDropoutAdd = { fwd: (3 * BYTES_16BIT + drop) * Trep * h, bwd: (2 * BYTES_16BIT + drop) * Trep * h };
  // GeLU reads fc1's output and writes its own; SwiGLU reads both halves of fc1's (2f wide) output. Backward reads the
  // input(s) and the output gradient and writes the input gradient(s): 3 widths of f for GeLU, 5 for SwiGLU.
  const activationIn = model.gatedMlp ? 2 : 1;
  const activation = { fwd: (activationIn + 1) * BYTES_16BIT * T * (f / t), bwd: (2 * activationIn + 1) * BYTES_16BIT * T * (f / t) };
  const rotary = model.positionEmbedding === 'rotary' ? 2 * BYTES_16BIT * T * ((h + kv) / t) : 0;
  let elementForward = 2 * elementwiseSeconds(ctx, layerNorm.fwd) + 2 * elementwiseSeconds(ctx, biasDropoutAdd.fwd)
    + elementwiseSeconds(ctx, activation.fwd);
  let elementBackward = 2 * elementwiseSeconds(ctx, layerNorm.bwd) + 2 * elementwiseSeconds(ctx, biasDropoutAdd.bwd)
    + elementwiseSeconds(ctx, activation.bwd);
  if (rotary > 0) {
    elementForward += elementwiseSeconds(ctx, rotary);
    elementBackward += elementwiseSeconds(ctx, rotary);
  }
  // Backward: autograd sums the residual and branch gradients (two adds: read 2, write 1), and
  // bias gradients are column sums of each GEMM's output gradient (one more read of it).
  elementBackward += 2 * elementwiseSeconds(ctx, 3 * BYTES_16BIT * Trep * h);
  if (model.linearBias) {
    const outputs = (h + 2 * kv) / t + h + (model.gatedMlp ? 2 * f : f) / t + h;
    elementBackward += 4 * elementwiseSeconds(ctx, (BYTES_16BIT * T * outputs) / 4);
  }

  // Attention core. Keys span the whole sequence (with context parallelism, over all ring steps).
  let attentionForward: Seconds;
  let attentionBackward: Seconds;
  if (input.attentionKernel === 'flash') {
    // Two matmuls (Q·Kᵀ, P·V) of 2·d FLOPs per score, over the whole tiles the kernel computes (causalAttentionTiles).
    const scores = causalAttentionTiles(input.seqLength, input.context) * ATTENTION_TILE_TOKENS ** 2;
    const flops = 4 * b * heads * headDim * scores;
    const rate = peak16 * flashLaunchEfficiency({
      localTokens: sLocal, seqLength: input.seqLength, sequencesTimesHeads: b * heads, smCount: ctx.gpu.smCount,
      overheadTiles: ctx.calibration.attentionBlockOverheadTiles,
    });
    attentionForward = flashAttentionSeconds(ctx, flops, rate);
    attentionBackward = flashAttentionSeconds(ctx, FLASH_BACKWARD_MATMUL_RATIO * flops, rate);
  } else {
    // Megatron 2021–22: two batched GEMMs around a fused scale-mask-softmax and a dropout.
    const scores = b * heads * sLocal * input.seqLength;
    const bmm = { m: sLocal, n: input.seqLength, k: headDim, batch: b * heads };
    const bmm2 = { m: sLocal, n: headDim, k: input.seqLength, batch: b * heads };
    const qk = gemmSeconds(ctx, bmm);
    const pv = gemmSeconds(ctx, bmm2);
    const softmax = { fwd: 2 * BYTES_16BIT * scores, bwd: 3 * BYTES_16BIT * scores };
    const dropout = input.dropout ? { fwd: (2 * BYTES_16BIT + MASK) * scores, bwd: (2 * BYTES_16BIT + MASK) * scores } : { fwd: 0, bwd: 0 };
    // Megatron's unfused path also permutes Q, K, V into [b·a, s, d] and the context back (copies).
    const layout = elementwiseSeconds(ctx, 2 * BYTES_16BIT * T * ((2 * h + 2 * kv) / t));
    attentionForward = qk + pv + layout + elementwiseSeconds(ctx, softmax.fwd) + (dropout.fwd ? elementwiseSeconds(ctx, dropout.fwd) : 0);
    attentionBackward = 2 * (qk + pv) + layout + elementwiseSeconds(ctx, softmax.bwd) + (dropout.bwd ? elementwiseSeconds(ctx, dropout.bwd) : 0);
  }

  return {
    forward: gemmForward + elementForward + attentionForward,
    backward: gemmBackward + elementBackward + attentionBackward,
    gemmForward,
    gemmBackward,
    gemmForwardCompute: shapes.reduce((sum, g) => sum + gemmComputeSeconds(ctx, g), 0),
    attentionForward,
    attentionBackward,
    columnParallelBackward: [gemms[0]!, gemms[2]!],
  };
}

/**
 * HBM bytes per logit of the loss, forward and backward. Fused (Megatron-Core fusions/
 * fused_cross_entropy.py, on in NeMo): read the 16-bit logits and write fp32 once, two reduction
 * passes; backward reads fp32 and writes the 16-bit gradient. Unfused (megatron/core/tensor_parallel/
 * cross_entropy.py after GPTModel's `logits.float()`, Megatron-LM's default): cast (2 + 4), max (4),
 * subtract the max in place (4 + 4), exp in place (4 + 4), sum (4), normalise in place (4 + 4) = 38;
 * backward: scale the saved softmax in place (4 + 4) and cast back to 16 bits (4 + 2) = 14.
 */
const LOSS_BYTES = { fused: { forward: 2 + 4 + 4 + 4, backward: 4 + 2 }, unfused: { forward: 38, backward: 14 } } as const;

/**
 * The output layer and loss on the last stage: logits GEMM [T, h] × [h, V/t], then Megatron's
 * vocabulary-parallel cross entropy in fp32 (cast, max, exp-sum, and the gradient), by traffic.
 */
export function logitsCost(input: PlanInput, ctx: KernelContext): { forward: Seconds; backward: Seconds } {
  const T = (input.microBatchSize * input.seqLength) / input.context;
  const vLocal = input.model.vocabSize / input.tensor;
  const gemm = gemmForwardBackwardSeconds(ctx, { m: T, n: vLocal, k: input.model.hiddenSize });
  const logits = T * vLocal;
  const loss = LOSS_BYTES[input.crossEntropyKernel ?? 'fused'];
  const lossForward = elementwiseSeconds(ctx, loss.forward * logits);
  const lossBackward = elementwiseSeconds(ctx, loss.backward * logits);
  return { forward: gemm.forward + lossForward, backward: gemm.backward + lossBackward };
}

/** The embedding on the first stage: a gather forward, a scatter-add into fp32 gradients backward. */
export function embeddingCost(input: PlanInput, ctx: KernelContext): { forward: Seconds; backward: Seconds } {
  const T = (input.microBatchSize * input.seqLength) / input.context;
  const h = input.model.hiddenSize;
  return {
    forward: elementwiseSeconds(ctx, 2 * BYTES_16BIT * T * h),
    backward: elementwiseSeconds(ctx, (BYTES_16BIT + BYTES_FP32) * T * h),
  };
}
