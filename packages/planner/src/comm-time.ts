import {
  collectiveCost, emulatedCollectiveCost, emulatedStageSendCost, nicShareWhenAllSend, p2pSeconds, pipelineSendSeconds, type CommGroup, type CollectiveOp, type GroupLayout,
} from '@trainplan/collectives';
import { BYTES_16BIT, kvWidth, parameterBreakdown } from '@trainplan/model';
import { countOf, type Bytes, type Seconds } from '@trainplan/units';
import { reducedGradientBytes } from './gradient-accumulation.ts';
import type { ParallelGroups } from './groups.ts';
import type { PlanInput } from './plan-input.ts';

/**
 * One collective of `group`: NCCL's closed form, or with `communicationModel: 'emulated'` the
 * emulator running it together with the group's concurrent siblings (laid out as `layout`) on the
 * topology graph (memoised per topology, op, bytes and group).
 */
function collective(input: PlanInput, op: CollectiveOp, bytes: Bytes, group: CommGroup, layout: GroupLayout = 'strided'): Seconds {
  if (group.ranks <= 1 || bytes <= 0) return 0;
  return (emulated(input) ? emulatedOnly(input, op, bytes, group, layout) : undefined)
    ?? collectiveCost({ op, bytes, group, fabric: input.fabric, algorithm: 'auto' }).seconds;
}

/**
 * Where the emulator declined a collective (over its budget, or an algorithm it does not run), the
 * closed form answered: the estimate says so (emulationFallbacks) rather than pass it off as emulated.
 * Kept per plan object, so one estimate's notes never reach another's.
 */
const fallbacks = new WeakMap<PlanInput, Map<string, Set<string>>>();

function noteFallback(input: PlanInput, what: string, reason = 'the emulator declined it'): void {
  let notes = fallbacks.get(input);
  if (!notes) fallbacks.set(input, (notes = new Map()));
  let whats = notes.get(reason);
  if (!whats) notes.set(reason, (whats = new Set()));
  whats.add(what);
}

/**
 * The collectives of this plan that NCCL's closed form costed instead of the emulator, with why: one line a reason, naming
 * every collective it stopped (browser QA: the widget, which declines them all for one reason, listed four to six lines).
 */
export const emulationFallbacks = (input: PlanInput): readonly string[] =>
  [...(fallbacks.get(input) ?? [])].map(([reason, whats]) => `${[...whats].join(', ')}: ${reason}`);

const emulated = (input: PlanInput): boolean => input.communicationModel === 'emulated';

/**
 * One pipeline send of every GPU at a stage boundary at once, emulated: across nodes, every GPU of
 * a stage's nodes sends to its peer a stage's nodes away (crossing the spine when a stage outgrows
 * a leaf); inside a node, pairs of GPUs over NVLink.
 */
function emulatedSend(input: PlanInput, bytes: Bytes, crossNode: boolean): Seconds | undefined {
  const g = input.fabric.gpusPerNode;
  const stageGpus = input.tensor * input.context * input.data;
  if (crossNode && stageGpus % g !== 0) {
    // Stages that do not fill whole nodes share nodes: the emulated stage layout needs whole nodes per stage.
    noteFallback(input, `pipeline sends of ${input.pipeline} stages`, `a stage of ${countOf(stageGpus, 'GPU')} does not fill whole nodes of ${g}`);
    return undefined;
  }
  if (crossNode) {
    const nodesPerStage = stageGpus / g;
    // Every stage boundary at its real node offset: a boundary that crosses a leaf's spine trunk is seen.
    const cost = emulatedStageSendCost({
      fabric: input.fabric, nodesPerStage, bytes, oversubscription: input.oversubscription, stages: input.pipeline,
    });
    if (!cost.emulated) noteFallback(input, `pipeline sends of ${input.pipeline} stages`, cost.reason);
    return cost.emulated ? cost.seconds : undefined;
  }
  const group: CommGroup = { ranks: 2, ranksPerNode: 2, concurrentGroupsPerNode: Math.max(1, Math.floor(g / 2)) };
  return emulatedOnly(input, 'send-recv', bytes, group, 'contiguous');
}

/**
 * A collective emulated, or undefined where the emulator declined it (noted in the estimate's emulationFallbacks): the
 * caller then costs it as its closed form does: `collective` by NCCL's, a point-to-point exchange by p2pSeconds with the
 * NIC share, not as a send/recv collective, whose closed form is nccl-tests' pattern. Else an emulated link the emulator
 * could not run came out under both the closed form and the emulator (widget QA: 4 NICs for 8 GPUs, a pipeline send
 * 464 ms against 917 closed and 1,822 emulated).
 */
function emulatedOnly(input: PlanInput, op: CollectiveOp, bytes: Bytes, group: CommGroup, layout: GroupLayout = 'strided'): Seconds | undefined {
  if (group.ranks <= 1 || bytes <= 0) return 0;
  const cost = emulatedCollectiveCost({ fabric: input.fabric, op, bytes, group, layout, oversubscription: input.oversubscription });
  if (cost.emulated) return cost.seconds;
  noteFallback(input, `${op} of ${countOf(group.ranks, 'GPU')}`, cost.reason);
  return undefined;
}

/**
 * Data-parallel synchronisation for each distinct per-stage parameter count (the middle stages of a
 * pipeline hold the same weights, so a p-stage plan needs two or three evaluations, not p).
 */
export function dataParallelCommByStage(
  input: PlanInput, groups: ParallelGroups, parameters: readonly number[], microBatches: number, gatheredBytesPerParameter?: readonly number[],
): Seconds[] {
  // Keyed by the parameter count alone: stages with as many parameters hold as many layers, so their gathered width is
  // the same too (else an embedding would weigh exactly a whole number of layers, norms included).
  const seen = new Map<number, Seconds>();
  return parameters.map((n, i) => {
    let t = seen.get(n);
    if (t === undefined) seen.set(n, (t = dataParallelComm(input, groups, n, microBatches, gatheredBytesPerParameter?.[i] ?? BYTES_16BIT)));
    return t;
  });
}

/**
 * Bytes per parameter the sharded optimizer all-gathers on each stage: 2 (16-bit weights), or with fp8Params 1 for the
 * weight matrices, which Megatron's --fp8-param-gather gathers as FP8 ("all-gather parameters in FP8", Megatron-LM
 * arguments.py), and 2 for the rest (embeddings, norms, biases), averaged over the stage's parameters.
 */
export function gatheredBytesPerParameter(input: PlanInput, layers: readonly number[], parameters: readonly number[]): number[] | undefined {
  if (input.fp8Params !== true || input.precision !== 'fp8') return undefined;
  const matrices = parameterBreakdown(input.model).perLayerMatrices / input.tensor;
  return parameters.map((n, i) => BYTES_16BIT - (layers[i]! * matrices) / n);
}

/**
 * Tensor-parallel communication of one layer and micro-batch (model reference §4).
 * `backward` is the sum of the backward collectives; the other fields split it by what each
 * collective could overlap with (stage-time.ts): for each of the two column-parallel linears (QKV,
 * fc1), `columnGather` before its input-gradient GEMM and `columnReduce` of that input gradient,
 * and `rowGather`, the rest.
 */
export interface TensorParallelLayerComm {
  readonly forward: Seconds;
  readonly backward: Seconds;
  /** Per column-parallel linear: the re-gather of its input (sequence parallelism only). */
  readonly columnGather: Seconds;
  /** Per column-parallel linear: the all-reduce (or reduce-scatter) of its input gradient. */
  readonly columnReduce: Seconds;
  /** Backward collectives outside the column-parallel linears (sequence parallelism's all-gathers). */
  readonly rowGather: Seconds;
}

/**
 * Two all-reduces of b·s·h 16-bit values forward and two backward (the `g` and `f` operators of
 * Shoeybi et al. 2019, Fig. 3); with sequence parallelism each becomes an all-gather plus a
 * reduce-scatter of the same total volume (Korthikanti §4.2.2).
 */
export function tensorParallelLayerComm(input: PlanInput, groups: ParallelGroups): TensorParallelLayerComm {
  const bytes = (BYTES_16BIT * input.microBatchSize * input.seqLength * input.model.hiddenSize) / input.context;
  if (!input.sequenceParallel) {
    const allReduce = collective(input, 'all-reduce', bytes, groups.tensor, 'contiguous');
    return { forward: 2 * allReduce, backward: 2 * allReduce, columnGather: 0, columnReduce: allReduce, rowGather: 0 };
  }
  const allGather = collective(input, 'all-gather', bytes, groups.tensor, 'contiguous');
  const reduceScatter = collective(input, 'reduce-scatter', bytes, groups.tensor, 'contiguous');
  // Backward: the row-parallel linears' `g` turns into all-gathers of the output gradient; the
  // column-parallel linears reduce-scatter their input gradient and re-gather their input for the
  // weight gradient instead of storing it (Megatron's LinearWithGradAccumulationAndAsyncCommunication).
  return {
    forward: 2 * (allGather + reduceScatter),
    backward: 2 * (allGather + reduceScatter) + 2 * allGather,
    columnGather: allGather,
    columnReduce: reduceScatter,
    rowGather: 2 * allGather,
  };
}

/**
 * Context-parallel ring attention (Megatron-Core / Transformer Engine): c − 1 exchanges of the local
 * K and V chunk forward; backward also returns dK and dV, twice the traffic.
 */
export function contextParallelLayerComm(input: PlanInput, groups: ParallelGroups): { forward: Seconds; backward: Seconds } {
  const c = input.context;
  if (c <= 1) return { forward: 0, backward: 0 };
  const chunk = (2 * BYTES_16BIT * input.microBatchSize * (input.seqLength / c) * kvWidth(input.model)) / input.tensor;
  const crossNode = groups.context.ranksPerNode < c;
  // Emulated: one ring-attention exchange is every rank of every context group sending its chunk to the next at once.
  const step = (emulated(input) ? emulatedOnly(input, 'send-recv', chunk, groups.context) : undefined)
    ?? p2pSeconds({ bytes: chunk, fabric: input.fabric, crossNode, nicShare: crossNode ? nicShareWhenAllSend(input.fabric) : 1 });
  return { forward: (c - 1) * step, backward: 2 * (c - 1) * step };
}

/** One pipeline send of a micro-batch's activations (or their gradient) across a stage boundary. */
export function pipelineSend(input: PlanInput, groups: ParallelGroups): Seconds {
  if (input.pipeline <= 1) return 0;
  const bytes = (BYTES_16BIT * input.microBatchSize * input.seqLength * input.model.hiddenSize) / input.context;
  if (emulated(input)) {
    // Each rank sends its shard (sequence parallelism, or Megatron's scatter), then with
    // scatter-gather the receivers all-gather it over NVLink; without either, the whole tensor. Where the emulator
    // declines the send, the closed form below costs the whole exchange (emulatedOnly).
    const split = input.sequenceParallel || (input.scatterGather && input.tensor > 1);
    const send = emulatedSend(input, split ? bytes / input.tensor : bytes, groups.pipelineCrossesNodes);
    if (send !== undefined) return send + (split && !input.sequenceParallel ? collective(input, 'all-gather', bytes, groups.tensor, 'contiguous') : 0);
  }
  if (input.sequenceParallel) {
    // The activations are already split along the sequence: each rank sends its own shard, every GPU of the node at once,
    // sharing the node's NICs as pipelineSendSeconds has them (QA: 4 NICs for 8 GPUs cost the same as 8).
    return p2pSeconds({ bytes: bytes / input.tensor, fabric: input.fabric, crossNode: groups.pipelineCrossesNodes, nicShare: nicShareWhenAllSend(input.fabric) });
  }
  return pipelineSendSeconds({
    bytes, tensorParallel: input.tensor, fabric: input.fabric, crossNode: groups.pipelineCrossesNodes,
    scatterGather: input.scatterGather,
  });
}

/**
 * Data-parallel synchronisation of one step for a stage holding `parameters` weights per GPU:
 * an all-reduce of the gradients, or with a sharded optimizer a reduce-scatter of the gradients and
 * an all-gather of the updated 16-bit weights (ZeRO-3 gathers weights every micro-batch, twice; ZeRO-2 reduces the
 * gradients every micro-batch). Per reduction, ZeRO stages 1 and 2 move the same 2Ψ as plain data parallelism (Rajbhandari et al. 2020, §7.2.1):
 * each rank receives only its shard's reduced gradients (DeepSpeed's stage_1_and_2 `average_tensor`
 * reduces each partition to its owner), then gathers the updated weights. DeepSpeed's BF16 optimizer,
 * its stage-1 equivalent for bf16, all-reduces instead: at its fp32 width the extra half is under 1%
 * of a BLOOM step (02-28 rows), not modelled.
 */
export function dataParallelComm(input: PlanInput, groups: ParallelGroups, parameters: number, microBatches: number, gatheredBytesPerParameter = BYTES_16BIT): Seconds {
  const grads = parameters * reducedGradientBytes(input);
  const weights = parameters * gatheredBytesPerParameter;
  const dp = groups.data;
  switch (input.sharding) {
    case 'none':
      return collective(input, 'all-reduce', grads, dp);
    case 'zero-1':
    case 'distributed-optimizer':
      return collective(input, 'reduce-scatter', grads, dp) + collective(input, 'all-gather', weights, dp);
    case 'zero-2':
      // Each rank keeps only its partition's accumulated gradients, so every micro-batch's backward reduces them
      // (DeepSpeed's maintainer: "gradient reduction is required after every backward because of gradient partitioning",
      // deepspeedai/DeepSpeed#2252); the updated weights are gathered once a step.
      return microBatches * collective(input, 'reduce-scatter', grads, dp) + collective(input, 'all-gather', weights, dp);
    case 'zero-3':
      return microBatches * (2 * collective(input, 'all-gather', weights, dp) + collective(input, 'reduce-scatter', grads, dp));
  }
}

/**
 * With tied embeddings and p > 1, the first and last stages all-reduce the word-embedding gradient
 * (Megatron's `_allreduce_word_embedding_grads`): V·h/t values between two ranks, on different nodes once the job
 * spans more than one NVLink domain (stages are laid out pp-outermost, groups.ts), else over NVLink inside it
 * (one DGX, or one GB200 NVL72 rack).
 */
export function embeddingSyncComm(input: PlanInput, groups: ParallelGroups): Seconds {
  if (input.pipeline <= 1 || !input.model.tiedEmbeddings) return 0;
  const bytes = ((input.model.vocabSize * input.model.hiddenSize) / input.tensor) * reducedGradientBytes(input);
  const ranksPerNode = groups.pipelineCrossesNodes ? 1 : 2;
  // Whole pairs only: a job on part of a node (3 GPUs of 8, PP 3) holds one pair and a GPU in none (QA: "estimate gpt3-175b
  // on 3 A100 with tp 1" threw 1.5 concurrent groups a node).
  const concurrentGroupsPerNode = Math.max(1, Math.floor(groups.domainGpus / ranksPerNode));
  return collective(input, 'all-reduce', bytes, { ranks: 2, ranksPerNode, concurrentGroupsPerNode }, 'contiguous');
}
