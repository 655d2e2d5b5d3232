import {
  activationBytesPerLayer, embeddingActivationBytes, inFlightMicroBatches, modelStateBytes, workingBytesPerLayer, type ActivationInput,
} from '@trainplan/model';
import { GiB, type Bytes } from '@trainplan/units';
import { heldGradientBytes, optimizerGradientCopyBytes } from './gradient-accumulation.ts';
import { weightReplicas } from './groups.ts';
import type { PlanInput } from './plan-input.ts';

/**
 * Memory per GPU, stage by stage; the estimate reports the most loaded stage (model reference §3).
 */
export interface StageMemory {
  readonly stage: number;
  readonly weightsBytes: Bytes;
  readonly gradientsBytes: Bytes;
  readonly optimizerBytes: Bytes;
  readonly activationsBytes: Bytes;
  readonly otherBytes: Bytes;
  readonly totalBytes: Bytes;
}

/** CUDA context, cuBLAS workspaces and NCCL channel buffers: resident whatever the model. */
const RUNTIME_RESERVE: Bytes = GiB(1.5);
/** Caching-allocator fragmentation, as a share of the activation peak (PyTorch's allocator rounds and splits blocks). */
const FRAGMENTATION = 0.1;

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
  };
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
  // The first stage's embedding term grows linearly with the micro-batches it holds; the last's does not.
  const embedding = embeddingActivationBytes(act); // one micro-batch in flight
  const gradientBytes = heldGradientBytes(input);
  const replicas = weightReplicas(input);
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
    if (stage === 0) activations += held * embedding.first;
    if (stage === input.pipeline - 1) activations += embedding.last;
    const fragmentation = FRAGMENTATION * activations;
    // At the optimizer step the activations are freed and an fp32 copy of 16-bit gradients is built:
    // where that copy is the larger, the peak is the step's, and the difference shows here.
    const stepExtra = Math.max(0, optimizerGradientCopyBytes(input, parameters[stage]!, replicas) - activations - fragmentation);
    // Whole bytes, each rounded up (a share such as 12/d bytes per parameter or 10% of the activations
    // is fractional), so the parts add up to the total exactly.
    // (Fields written out, not spread: V8 builds a spread literal with further fields on its slow path, and
    // this runs for every stage of every estimate.)
    const weightsBytes = Math.ceil(states.weights);
    const gradientsBytes = Math.ceil(states.gradients);
    const optimizerBytes = Math.ceil(states.optimizer);
    const activationsBytes = Math.ceil(activations);
    const otherBytes = Math.ceil(RUNTIME_RESERVE + fragmentation + stepExtra);
    return {
      stage, weightsBytes, gradientsBytes, optimizerBytes, activationsBytes, otherBytes,
      totalBytes: weightsBytes + gradientsBytes + optimizerBytes + activationsBytes + otherBytes,
    };
  });
}
