import { hardwareFlopsPerStep, layersPerStage, modelFlopsPerStep, parameterCount, stageParameters } from '@trainplan/model';
import { formatBytes, toHours, toTFLOPS, type Bytes, type Flop, type Ratio, type Seconds } from '@trainplan/units';
import { resolveCalibration } from './calibration.ts';
import { checkPlan, refusalKind, type PlanIssue } from './check-plan.ts';
import {
  contextParallelLayerComm, dataParallelCommByStage, embeddingSyncComm, gatheredBytesPerParameter, pipelineSend, tensorParallelLayerComm,
} from './comm-time.ts';
import { estimateWarnings } from './estimate-warnings.ts';
import { fusedAccumulation, gradientAccumulationSeconds } from './gradient-accumulation.ts';
import { exposedBucketParameters } from './gradient-buckets.ts';
import { parallelGroups } from './groups.ts';
import { kernelContext, peak16 } from './kernel-context.ts';
import { embeddingCost, layerComputeCost, logitsCost } from './layer-time.ts';
import { optimizerStepSeconds } from './optimizer-time.ts';
import type { PlanInput } from './plan-input.ts';
import { stageMemories, type StageMemory } from './plan-memory.ts';
import { pipelineTime } from './pipeline-schedule.ts';
import { stageTimes, type StageTime } from './stage-time.ts';


/** " on pipeline stage 3", naming the most loaded stage where there are several (QA: "stage 0" of a plan with no pipeline). */
export const stageText = (pipeline: number, stage: number): string => (pipeline > 1 ? ` on pipeline stage ${stage}` : '');

export interface StepBreakdown {
  readonly computeSeconds: Seconds;
  readonly tensorParallelCommSeconds: Seconds;
  readonly pipelineBubbleSeconds: Seconds;
  readonly pipelineCommSeconds: Seconds;
  readonly dataParallelCommSeconds: Seconds;
  readonly optimizerSeconds: Seconds;
  readonly contextParallelCommSeconds: Seconds;
  /** Context-parallel exchanges before they overlap attention: contextParallelCommSeconds is what they leave exposed. */
  readonly contextParallelCommTotalSeconds: Seconds;
  readonly recomputeSeconds: Seconds;
  readonly dataParallelCommTotalSeconds: Seconds;
}

export interface PlanEstimate {
  readonly ok: true;
  readonly stepTimeSeconds: Seconds;
  readonly tokensPerSecond: number;
  readonly samplesPerSecond: number;
  readonly modelFlopsPerStep: number;
  readonly hardwareFlopsPerStep: number;
  readonly modelTflopsPerGpu: number;
  readonly hardwareTflopsPerGpu: number;
  readonly mfu: number;
  readonly hfu: number;
  /** The peak FLOP/s per GPU that mfu and hfu divide by, in TFLOP/s: the FP8 peak for an FP8 run, else the 16-bit one. */
  readonly peakTflopsPerGpu: number;
  readonly parameters: number;
  readonly microBatches: number;
  readonly breakdown: StepBreakdown;
  /** The most loaded stage's memory, and every stage's. */
  readonly memory: StageMemory & { readonly capacityBytes: Bytes; readonly fits: boolean };
  readonly stages: readonly { readonly time: StageTime; readonly memory: StageMemory; readonly layers: number }[];
  readonly timeToTrain?: { readonly tokens: number; readonly seconds: Seconds; readonly gpuHours: number };
  readonly warnings: readonly string[];
}

export interface PlanInfeasible {
  readonly ok: false;
  readonly reason: 'out-of-memory' | 'indivisible' | 'invalid';
  readonly message: string;
  readonly issues?: readonly PlanIssue[];
  readonly neededBytes?: Bytes;
  readonly availableBytes?: Bytes;
  /** For 'out-of-memory': the estimate as if memory were unlimited, so callers can still rank it. */
  readonly estimate?: PlanEstimate;
}


/**
 * Optimizer steps to train `tokens`: each step consumes a whole global batch (the weights are updated once
 * per batch, after all its micro-batches: Narayanan et al. 2021, SC'21, §2.2), so ceil(tokens / tokens per step).
 */
const stepsToTrain = (tokens: number, tokensPerStep: number): number => Math.ceil(tokens / tokensPerStep);

/** Whole optimizer steps for `tokens`, their time and GPU-hours. */
function trainingTime(tokens: number, tokensPerStep: number, stepSeconds: Seconds, gpus: number): { tokens: number; seconds: Seconds; gpuHours: number } {
  const seconds = stepsToTrain(tokens, tokensPerStep) * stepSeconds;
  return { tokens, seconds, gpuHours: toHours(seconds * gpus) };
}

/**
 * A training plan → step time, throughput, MFU/HFU and memory per GPU. Pure: the same input gives
 * the same answer on every runtime.
 */

export function estimatePlan(input: PlanInput): PlanEstimate | PlanInfeasible {
  const issues = checkPlan(input);
  if (issues.length > 0) {
    return { ok: false, reason: refusalKind(issues), message: issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues };
  }
  // Memory does not depend on how communication is costed: an emulated plan that cannot fit is refused on the
  // closed form's estimate (microseconds) rather than after its emulation (seconds on a large cluster).
  const closedForm = input.communicationModel === 'emulated' ? computeEstimate({ ...input, communicationModel: 'closed-form' }) : undefined;
  const result = closedForm !== undefined && closedForm.memory.fits ? computeEstimate(input) : closedForm ?? computeEstimate(input);
  if (!result.memory.fits) {
    return {
      ok: false,
      reason: 'out-of-memory',
      message: `needs ${formatBytes(result.memory.totalBytes)} per GPU${stageText(input.pipeline, result.memory.stage)}, the ${input.gpu.name} has ${formatBytes(result.memory.capacityBytes)}`,
      neededBytes: result.memory.totalBytes,
      availableBytes: result.memory.capacityBytes,
      estimate: result,
    };
  }
  return result;
}

/**
 * Layers whose forward full recompute repeats, over the whole pipeline: each stage recomputes at most its own layers
 * (stage-time.ts and plan-memory.ts cap recomputeLayers the same way; Megatron's block method recomputes
 * `layer_number < recompute_num_layers`, all of them when the number is larger). Undefined: every layer.
 */
function recomputedLayerCount(input: PlanInput, layers: readonly number[]): number | undefined {
  const n = input.recomputeLayers;
  if (n === undefined) return undefined;
  let total = 0;
  for (const count of layers) total += Math.min(count, n);
  return total;
}

function computeEstimate(input: PlanInput): PlanEstimate {
  const ctx = kernelContext(input, resolveCalibration(input));
  const groups = parallelGroups(input);
  const m = input.globalBatchSize / (input.microBatchSize * input.data);
  const gpus = input.nodes * input.gpusPerNode;
  const layers = layersPerStage(input.model.layers, input.pipeline, input.pipelineSlots);
  const params = stageParameters({ shape: input.model, tensorParallel: input.tensor, layersPerStage: layers });

  const layer = layerComputeCost(input, ctx, peak16(input.gpu));
  const tp = tensorParallelLayerComm(input, groups);
  const cp = contextParallelLayerComm(input, groups);
  // Unfused gradient accumulation per stage (gradient-accumulation.ts); the first holds the word embedding, the last the
  // output layer. None where fused, the default: no per-stage pass on the estimate's hot path.
  const accumulation = fusedAccumulation(input.gradientAccumulation) ? undefined
    : params.map((n, i) => gradientAccumulationSeconds(input, ctx, n, layers[i]!, i === 0 || i === input.pipeline - 1));
  const times = stageTimes({
    input, layers, layer, tp, cp, logits: logitsCost(input, ctx), embedding: embeddingCost(input, ctx), accumulation,
  });
  const memories = stageMemories(input, layers, params, m);

  const slowest = times.reduce((a, b) => (b.total > a.total ? b : a));
  const bubble = pipelineTime({ stageSeconds: times.map((t) => t.total), microBatches: m, virtualStages: input.virtualStages }).bubbleSeconds;

  const send = pipelineSend(input, groups);
  // Megatron overlaps pipeline sends with compute only in the interleaved schedule: without it, arguments.py
  // sets overlap_p2p_comm False ("non-interleaved schedule does not support overlapping p2p communication").
  const overlapSends = input.overlapPipelineComm && input.virtualStages > 1;
  // Sends on the step's critical path, derived from the schedules of Narayanan et al. 2021 (SC'21, Fig. 4): the stage
  // that sets the pace sends each of its v·m micro-batch chunks once forward and once backward (2vm), and the fill and
  // drain cross the other p − 1 boundaries once each way (2(p − 1)). Overlapped, the steady state's sends hide under
  // compute and only the fill and drain's stay exposed.
  const sends = overlapSends ? 2 * (input.pipeline - 1) : 2 * (input.virtualStages * m + input.pipeline - 1);
  const pipelineComm = input.pipeline > 1 ? sends * send : 0;

  // Data-parallel synchronisation runs on every stage at once; the slowest stage's counts.
  let dpTotal = 0;
  let dpExposed = 0;
  // FP8 weights (fp8Params) are gathered as FP8: 1 byte a matrix parameter (gatheredBytesPerParameter).
  const widths = gatheredBytesPerParameter(input, layers, params);
  const dpByStage = dataParallelCommByStage(input, groups, params, m, widths);
  // ZeRO-2 reduces the gradients and ZeRO-3 also gathers the weights every micro-batch (dataParallelComm), each behind
  // that micro-batch's own passes: m windows, and m exposed tails, as DeepSpeed's overlap_comm and PyTorch FSDP wait for
  // the last bucket at the end of each backward (stage_1_and_2.py overlapping_partition_gradients_reduce_epilogue, FSDP's
  // _post_backward_final_callback). The others reduce once, behind the last micro-batch's backward (the distributed
  // optimizer's gather also behind the next forward).
  const everyMicroBatch = input.sharding === 'zero-2' || input.sharding === 'zero-3' ? m : 1;
  // With overlap, the last bucket's reduction (and the first one's gather) still stays exposed (gradient-buckets.ts): that
  // bucket's collectives as dataParallelComm counts them over the micro-batches that expose it (ZeRO-2's gather of the
  // updated weights once a step, its reductions m times; ZeRO-3's all of them m times).
  const tails = input.overlapGradReduce ? dataParallelCommByStage(input, groups, exposedBucketParameters(input, params), everyMicroBatch, widths) : undefined;
  times.forEach((time, i) => {
    const total = dpByStage[i]!;
    // The window is the passes' wall-clock time (stage-time.ts: compute, recompute and the TP/CP exchanges they leave
    // exposed), not their compute alone: Megatron's overlap_grad_reduce launches each bucket's all-reduce (reduce-scatter
    // under the distributed optimizer) from a backward hook as its gradients are ready, on a separate stream, and the
    // param all-gather (overlap_param_gather) runs while the next forward proceeds; PyTorch FSDP and DeepSpeed's
    // overlap_comm issue theirs the same way. They keep running while the compute stream waits on a TP or CP exchange, so a
    // faster GPU, or FP8's faster GEMMs, which expose more of those exchanges, does not lengthen the step by exposing the
    // reduction too (QA: compute alone as the window made 461 of 28,800 plans slower on a GPU twice as fast, by up to 11.7%).
    const passes = input.sharding === 'distributed-optimizer' || input.sharding === 'zero-3'
      ? time.forwardWallSeconds + time.backwardWallSeconds : time.backwardWallSeconds;
    const exposed = tails ? Math.max(tails[i]!, total - everyMicroBatch * passes) : total;
    dpTotal = Math.max(dpTotal, total);
    dpExposed = Math.max(dpExposed, exposed);
  });
  const embeddingSync = embeddingSyncComm(input, groups);
  const optimizer = optimizerStepSeconds(input, ctx, Math.max(...params));

  const breakdown: StepBreakdown = {
    computeSeconds: m * slowest.compute,
    tensorParallelCommSeconds: m * slowest.tensorParallelComm,
    contextParallelCommSeconds: m * slowest.contextParallelComm,
    contextParallelCommTotalSeconds: m * slowest.contextParallelCommTotal,
    pipelineBubbleSeconds: bubble,
    pipelineCommSeconds: pipelineComm,
    dataParallelCommSeconds: dpExposed + embeddingSync,
    dataParallelCommTotalSeconds: dpTotal + embeddingSync,
    optimizerSeconds: optimizer,
    recomputeSeconds: m * slowest.recompute,
  };
  const step = breakdown.computeSeconds + breakdown.tensorParallelCommSeconds + breakdown.contextParallelCommSeconds
    + bubble + pipelineComm + breakdown.dataParallelCommSeconds + optimizer;

  const flopInput = { globalBatchSize: input.globalBatchSize, seqLength: input.seqLength };
  const modelFlops = modelFlopsPerStep(input.model, flopInput);
  const recomputedLayers = recomputedLayerCount(input, layers);
  const hardwareFlops = hardwareFlopsPerStep(input.model, {
    globalBatchSize: input.globalBatchSize, seqLength: input.seqLength, recompute: input.recompute, recomputedLayers,
  });
  // MFU and HFU against the peak of the training precision (NVIDIA's DGX benchmarks use the FP8 peak for FP8 runs).
  const peak = (input.precision === 'fp8' ? input.gpu.peakFlops.fp8 : peak16(input.gpu)) ?? peak16(input.gpu);
  const tokensPerStep = input.globalBatchSize * input.seqLength;
  const worst = memories.reduce((a, b) => (b.totalBytes > a.totalBytes ? b : a));

  // A step's FLOPs as a share of the GPUs' peak over the step: MFU for the model FLOPs, HFU for the hardware FLOPs.
  const shareOfPeak = (flops: Flop): Ratio => flops / step / gpus / peak;
  const warnings = estimateWarnings(input, ctx, groups, layers, params, m, recomputedLayers, modelFlops, shareOfPeak, worst);

  return {
    ok: true,
    stepTimeSeconds: step,
    tokensPerSecond: tokensPerStep / step,
    samplesPerSecond: input.globalBatchSize / step,
    modelFlopsPerStep: modelFlops,
    hardwareFlopsPerStep: hardwareFlops,
    modelTflopsPerGpu: toTFLOPS(modelFlops / step / gpus),
    hardwareTflopsPerGpu: toTFLOPS(hardwareFlops / step / gpus),
    mfu: shareOfPeak(modelFlops),
    hfu: shareOfPeak(hardwareFlops),
    peakTflopsPerGpu: toTFLOPS(peak),
    parameters: parameterCount(input.model),
    microBatches: m,
    breakdown,
    // Written out rather than spread from `worst` (V8's slow path for a spread with further fields; see plan-memory.ts).
    memory: {
      stage: worst.stage, weightsBytes: worst.weightsBytes, gradientsBytes: worst.gradientsBytes, optimizerBytes: worst.optimizerBytes,
      activationsBytes: worst.activationsBytes, otherBytes: worst.otherBytes, otherParts: worst.otherParts, totalBytes: worst.totalBytes,
      capacityBytes: input.gpu.hbmBytes, fits: worst.totalBytes <= input.gpu.hbmBytes,
    },
    stages: times.map((time, i) => ({ time, memory: memories[i]!, layers: layers[i]! })),
    timeToTrain: input.tokens === undefined ? undefined : trainingTime(input.tokens, tokensPerStep, step, gpus),
    warnings,
  };
}
