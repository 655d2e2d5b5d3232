import {
  BYTES_16BIT, activationBytesPerLayer, embeddingActivationBytes, fp8WeightCopyBytes, inFlightMicroBatches, layerActivationTerms, modelStateBytes,
  parameterBreakdown, workingBytesPerLayer, type ActivationInput, type ModelShape, type StateSharding,
} from '@trainplan/model';
import { GiB, type Bytes } from '@trainplan/units';
import { heldGradientBytes, optimizerGradientCopyBytes } from './gradient-accumulation.ts';
import { weightReplicas } from './groups.ts';
import type { PlanInput, TrainingPrecision } from './plan-input.ts';

/**
 * Memory per GPU, stage by stage; the estimate reports the most loaded stage (model reference §3).
 */
export interface StageMemory {
  readonly stage: number;
  /** 16-bit weights, plus FP8 training's cast copies (fp8WeightCopiesPerGpu). */
  readonly weightsBytes: Bytes;
  readonly gradientsBytes: Bytes;
  readonly optimizerBytes: Bytes;
  readonly activationsBytes: Bytes;
  /** The sum of otherParts. */
  readonly otherBytes: Bytes;
  /** What otherBytes holds, in whole bytes: fragmentation and buffers "as a separate, named term" (model reference §3). */
  readonly otherParts: OtherMemoryParts;
  readonly totalBytes: Bytes;
}

/**
 * The parts of a stage's "other" memory, whole bytes that add up to otherBytes exactly. Forward/backward and the
 * optimizer step are two peaks that never meet: the first holds the activations, their fragmentation and ZeRO-3's gathered
 * unit (Rajbhandari et al. 2020 §5.3: gathered only while the unit runs); the step, with those freed, the fp32 copy of the
 * 16-bit gradients (gradient-accumulation.ts optimizerGradientCopyBytes). The larger sets the total, so the step's part
 * is only what its copy needs beyond the first peak's.
 */
export interface OtherMemoryParts {
  /** TRAINING_RUNTIME_RESERVE: CUDA context, cuBLAS workspaces, NCCL buffers. */
  readonly runtimeReserveBytes: Bytes;
  /** ⌈FRAGMENTATION × activationsBytes⌉: the caching allocator's fragmentation. */
  readonly fragmentationBytes: Bytes;
  /** ZeRO-3's largest unit of the stage gathered whole, its 16-bit weights and gradient; 0 under any other sharding. */
  readonly zero3GatheredBytes: Bytes;
  /** max(0, ⌈fp32 gradient copy⌉ − activations − fragmentation − gathered unit): 0 where forward/backward peaks higher. */
  readonly optimizerStepBytes: Bytes;
}

/**
 * CUDA context, cuBLAS workspaces and NCCL channel buffers: resident whatever the model. An allowance, not fitted to
 * any row: the CUDA context with PyTorch's kernels loaded takes some hundreds of MiB; each cuBLAS handle 32 MiB of
 * workspace (PyTorch's default CUBLAS_WORKSPACE_CONFIG=:4096:8, "Reproducibility" notes); NCCL 4 MiB per channel and
 * peer for its Simple protocol (NCCL_BUFFSIZE's default, NCCL's environment variables docs) over up to 32 channels
 * (MAXCHANNELS) in each of a plan's communicators (tensor, data, pipeline, context).
 */
export const TRAINING_RUNTIME_RESERVE: Bytes = GiB(1.5);
/**
 * Caching-allocator fragmentation, as a share of the activation peak (PyTorch's allocator rounds requests up and splits
 * cached blocks, "CUDA memory management" notes): an allowance, not fitted, for the blocks freed between micro-batches
 * that a larger request cannot reuse.
 */
export const FRAGMENTATION = 0.1;

/**
 * Bytes per element of the linear layers' saved inputs: 1 under FP8, which Transformer Engine keeps cast
 * (packages/model/src/activations.ts, `linearInputBytes`), else 2.
 */
export const savedLinearInputBytes = (precision: TrainingPrecision): number => (precision === 'fp8' ? 1 : 2);

/**
 * FP8 copies of a stage's linear weights per GPU (packages/model/src/fp8-weights.ts), 0 unless FP8. None with
 * `fp8Params`: the weight is then the FP8 copy, and with its transpose it takes the 2 bytes a 16-bit weight
 * would (the copies replace the 16-bit weight instead of joining it; NVIDIA/TransformerEngine#1764: "directly
 * cast fp32 master weight in distributed optimizer into FP8 weight, so each layer in TE doesn't store the high
 * precision bf16 copy"). Left out under ZeRO-3, whose weights are gathered layer by layer: the copies of one
 * gathered layer are transient.
 */
export function fp8WeightCopiesPerGpu(
  input: { precision: TrainingPrecision; fp8Params?: boolean; sharding: StateSharding; model: ModelShape; tensor: number }, layers: number,
): Bytes {
  if (input.precision !== 'fp8' || input.fp8Params === true || input.sharding === 'zero-3') return 0;
  return fp8WeightCopyBytes({ shape: input.model, tensorParallel: input.tensor, layers });
}

export function activationInput(input: PlanInput): ActivationInput {
  return {
    shape: input.model,
    microBatchSize: input.microBatchSize,
    seqLength: input.seqLength,
    tensorParallel: input.tensor,
    contextParallel: input.context,
    sequenceParallel: input.sequenceParallel,
    recompute: input.recompute,
    attentionKernel: input.attentionKernel,
    dropout: input.dropout,
    linearInputBytes: savedLinearInputBytes(input.precision),
  };
}

/**
 * ZeRO-3 gathers each unit's whole 16-bit weights before it runs, and in the backward pass holds the unit's whole
 * gradient until it is reduce-scattered (Rajbhandari et al. 2020, §5.3: parameters "broadcast ... and discarded
 * after use"): at the activation peak, the first backward, the largest unit of the stage is live in full: a
 * transformer layer, or the word embedding on the first stage and the output layer on the last (split t ways).
 * With one replica (`replicas` 1) the weights gather nothing: a rank's partition is the whole parameter, and DeepSpeed
 * uses it in place (partition_parameters.py, `Init.all_gather_coalesced`: "if self.num_partitions == 1: return
 * _no_gather_coalesced(params)", whose NoGatherHandle sets `param.data = param.ds_tensor.data.to(device).view(
 * param.ds_shape)`, a view, not a copy). The unit's fresh gradient is still whole until it is moved into its partition.
 */
function zero3GatheredBytes(input: PlanInput, gradientBytes: number, replicas: number): { first: Bytes; middle: Bytes; last: Bytes } {
  if (input.sharding !== 'zero-3') return { first: 0, middle: 0, last: 0 };
  const parts = parameterBreakdown(input.model);
  const t = input.tensor;
  const layer = parts.perLayerTensorParallel / t + parts.perLayerReplicated;
  const first = Math.max(layer, parts.wordEmbedding / t + parts.positionEmbedding);
  const last = Math.max(layer, (input.model.tiedEmbeddings ? parts.wordEmbedding : parts.outputLayer) / t);
  // One stage is first and last at once: the larger of the two.
  const width = (replicas > 1 ? BYTES_16BIT : 0) + gradientBytes;
  return { first: width * (input.pipeline === 1 ? Math.max(first, last) : first), middle: width * layer, last: width * last };
}

/** Memory of every pipeline stage; the per-layer terms are computed once and shared by the stages. */
export function stageMemories(
  input: PlanInput, layers: readonly number[], parameters: readonly number[], microBatches: number,
): StageMemory[] {
  const act = activationInput(input);
  const stored = activationBytesPerLayer(act);
  const working = workingBytesPerLayer(act);
  // Layers not recomputed keep everything a layer holds without recompute: its working set.
  const full = input.recompute === 'full' ? working : stored;
  // Selective recompute rebuilds the attention core of the layer in its backward pass: 5·as²b/t unfused (Korthikanti
  // §5), nothing beyond what is kept with flash attention.
  const coreRebuild = input.recompute === 'selective' ? layerActivationTerms(act, 'none').attentionCore - layerActivationTerms(act).attentionCore : 0;
  // The first stage's embedding term grows linearly with the micro-batches it holds; the last's only under GPipe.
  const embedding = embeddingActivationBytes(act); // one micro-batch in flight
  const gradientBytes = heldGradientBytes(input);
  const replicas = weightReplicas(input);
  // Per-layer and per-stage constants, computed once rather than for every stage (this runs for every estimate).
  const fp8CopiesPerLayer = fp8WeightCopiesPerGpu(input, 1);
  const gathered = zero3GatheredBytes(input, gradientBytes, replicas);
  return layers.map((count, stage) => {
    const states = modelStateBytes({ parameters: parameters[stage]!, sharding: input.sharding, dataParallel: replicas, gradientBytes });
    const held = inFlightMicroBatches({
      schedule: input.schedule, pipeline: input.pipeline, microBatches, virtualStages: input.virtualStages, stage,
    });
    // Layers of this stage recomputed: min(v·N, count) for Megatron's per-chunk N (stage-time.ts).
    const recomputed = input.recompute === 'full' ? Math.min(count, input.recomputeLayers ?? count) : 0;
    let activations = held * (recomputed * stored + (count - recomputed) * full);
    // Recomputing a layer rebuilds its whole working set for the backward pass.
    if (recomputed > 0) activations += working;
    else if (count > 0) activations += coreRebuild;
    if (stage === 0) activations += held * embedding.first;
    // The last stage's logits and output-layer inputs: one micro-batch's under 1F1B and interleaving (each micro-batch's
    // backward follows its forward through the loss before the next reaches it), every micro-batch's under GPipe, whose
    // forwards all run before any backward (Huang et al. 2019), as the first stage holds its embedding term (QA: GPipe
    // counted 4sbV/t once, 1 GiB, where m = 8 micro-batches hold 7.8 GiB).
    if (stage === input.pipeline - 1) activations += (input.schedule === 'gpipe' ? held : 1) * embedding.last;
    const unit = stage === 0 ? gathered.first : stage === input.pipeline - 1 ? gathered.last : gathered.middle;
    // Whole bytes, each rounded up (a share such as 12/d bytes per parameter or 10% of the activations is fractional),
    // so the parts add up to the totals exactly. The two peaks that never meet (OtherMemoryParts): the step's part is
    // what its fp32 gradient copy needs beyond the activations, their fragmentation and the gathered unit it replaces.
    // (Fields written out, not spread: V8 builds a spread literal with further fields on its slow path, and
    // this runs for every stage of every estimate.)
    const weightsBytes = Math.ceil(states.weights + fp8CopiesPerLayer * count);
    const gradientsBytes = Math.ceil(states.gradients);
    const optimizerBytes = Math.ceil(states.optimizer);
    const activationsBytes = Math.ceil(activations);
    const fragmentationBytes = Math.ceil(FRAGMENTATION * activationsBytes);
    const zero3GatheredBytes = Math.ceil(unit);
    const optimizerStepBytes = Math.max(0,
      Math.ceil(optimizerGradientCopyBytes(input, parameters[stage]!, replicas)) - activationsBytes - fragmentationBytes - zero3GatheredBytes);
    const otherBytes = TRAINING_RUNTIME_RESERVE + fragmentationBytes + zero3GatheredBytes + optimizerStepBytes;
    return {
      stage, weightsBytes, gradientsBytes, optimizerBytes, activationsBytes, otherBytes,
      otherParts: { runtimeReserveBytes: TRAINING_RUNTIME_RESERVE, fragmentationBytes, zero3GatheredBytes, optimizerStepBytes },
      totalBytes: weightsBytes + gradientsBytes + optimizerBytes + activationsBytes + otherBytes,
    };
  });
}
