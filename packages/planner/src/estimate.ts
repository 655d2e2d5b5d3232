import { hardwareFlopsPerStep, layersPerStage, modelFlopsPerStep, parameterCount, stageParameters } from '@trainplan/model';
import { formatBytes, formatGrouped, toTFLOPS, type Bytes, type Seconds } from '@trainplan/units';
import { resolveCalibration } from './calibration.ts';
import { checkPlan, refusalKind, type PlanIssue } from './check-plan.ts';
import {
  contextParallelLayerComm, dataParallelCommByStage, embeddingSyncComm, emulationFallbacks, gatheredBytesPerParameter, pipelineSend, tensorParallelLayerComm,
} from './comm-time.ts';
import { gradientAccumulationSeconds } from './gradient-accumulation.ts';
import { exposedBucketParameters } from './gradient-buckets.ts';
import { parallelGroups, weightReplicas } from './groups.ts';
import { kernelContext, peak16 } from './kernel-context.ts';
import { embeddingCost, flashLaunchEfficiency, layerComputeCost, logitsCost } from './layer-time.ts';
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
  return { tokens, seconds, gpuHours: (seconds * gpus) / 3600 };
}

/**
 * Below this share of the full count, an estimate says its MFU with attention counted causal too: a tenth or more apart
 * (from about 16k tokens for a 70B). QA: at 0.8 Llama 3.1 70B at 32k (0.81) said 50.4% where the kernels ran 40.8%.
 */
const CAUSAL_NOTE_RATIO = 0.9;

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
 * The longest flash-attention launch the Hopper attention constants were fitted on (docs/validation.md, flash attention:
 * 2,048–32,768 tokens). Timed past it on an H200 ("Past the fit": 64k and 128k tokens), cuDNN's rate stays at its 32k
 * value where the launch model keeps rising toward the constant, so the estimate charges such launches 5–8% less time
 * than the kernel takes alone: said, not corrected (one GPU, two lengths; no training row this long to refit on).
 */
const FITTED_LAUNCH_TOKENS = 32_768;

function longLaunchWarning(input: PlanInput): string | undefined {
  const local = input.seqLength / input.context;
  if (input.attentionKernel !== 'flash' || local <= FITTED_LAUNCH_TOKENS || (input.gpu.generation !== 'hopper' && input.gpu.generation !== 'blackwell')) return undefined;
  return `each GPU's attention runs over ${formatGrouped(local)} tokens${input.context > 1 ? ` (its share of the ${formatGrouped(input.seqLength)}-token sequence)` : ''}, `
    + `past the ${formatGrouped(FITTED_LAUNCH_TOKENS)} the attention model was fitted on: timed on an H200 at 64k and 128k tokens, cuDNN's kernel took 5–8% `
    + 'longer than charged here (docs/validation.md, "Past the fit")';
}

/**
 * Above this share of HBM a plan that "fits" is warned about: the memory model's allowances (runtime
 * reserve, 10% of activations for fragmentation) are estimates, and measured peaks run above them
 * (docs/validation.md, BLOOM prequel memory against nvidia-smi).
 */
export const TIGHT_MEMORY_SHARE = 0.95;

/** Below this share of the whole sequence's rate, the flash rate context parallelism's chunks leave is said (contextChunkWarning). */
const CHUNK_RATE_NOTE = 0.75;

/**
 * Context parallelism runs flash attention over each GPU's chunk of the sequence: a chunk's thread blocks meet fewer key
 * tiles for their fixed cost, and fewer of them fill the SMs (layer-time.ts's flashLaunchEfficiency), a step cost the
 * search weighs but a user choosing CP for memory may not expect. Said when the chunks run under CHUNK_RATE_NOTE of the
 * rate whole sequences would.
 */
function contextChunkWarning(input: PlanInput, overheadTiles: number): string | undefined {
  // checkPlan refuses context parallelism without flash attention (Transformer Engine's fused attention runs it).
  if (input.context === 1 || overheadTiles <= 0) return undefined;
  const chunk = input.seqLength / input.context;
  const launch = (localTokens: number) => flashLaunchEfficiency({
    localTokens, seqLength: input.seqLength, sequencesTimesHeads: input.microBatchSize * (input.model.attentionHeads / input.tensor),
    smCount: input.gpu.smCount, overheadTiles,
  });
  const chunked = launch(chunk);
  const whole = launch(input.seqLength);
  if (chunked >= CHUNK_RATE_NOTE * whole) return undefined;
  const pct = (x: number) => `${Math.round(100 * x)}%`;
  return `context parallelism of ${input.context} splits each ${formatGrouped(input.seqLength)}-token sequence into ${formatGrouped(chunk)}-token chunks: `
    + `flash attention runs at ${pct(chunked)} of its long-sequence rate on them, ${pct(whole)} on whole sequences (a thread block's fixed cost over `
    + 'fewer key tiles, and fewer blocks to fill the GPU)';
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
  const warnings: string[] = [];
  const ctx = kernelContext(input, resolveCalibration(input));
  const groups = parallelGroups(input);
  const m = input.globalBatchSize / (input.microBatchSize * input.data);
  const gpus = input.nodes * input.gpusPerNode;
  const layers = layersPerStage(input.model.layers, input.pipeline, input.pipelineSlots);
  const params = stageParameters({ shape: input.model, tensorParallel: input.tensor, layersPerStage: layers });

  const layer = layerComputeCost(input, ctx, peak16(input.gpu));
  const tp = tensorParallelLayerComm(input, groups);
  const cp = contextParallelLayerComm(input, groups);
  // Unfused gradient accumulation per stage; the first holds the word embedding, the last the output layer.
  const accumulation = (input.gradientAccumulation ?? 'fused') === 'fused' ? undefined
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
    const passes = input.sharding === 'distributed-optimizer' || input.sharding === 'zero-3' ? time.forward + time.backward : time.backward;
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
  const hardwareFlops = hardwareFlopsPerStep(input.model, {
    globalBatchSize: input.globalBatchSize, seqLength: input.seqLength, recompute: input.recompute,
    recomputedLayers: recomputedLayerCount(input, layers),
  });
  // MFU and HFU against the peak of the training precision (NVIDIA's DGX benchmarks use the FP8 peak for FP8 runs).
  const peak = (input.precision === 'fp8' ? input.gpu.peakFlops.fp8 : peak16(input.gpu)) ?? peak16(input.gpu);
  const tokensPerStep = input.globalBatchSize * input.seqLength;
  const worst = memories.reduce((a, b) => (b.totalBytes > a.totalBytes ? b : a));

  if (groups.tensorCrossesNodes) {
    const domain = input.nvlinkDomainGpus === input.gpusPerNode ? `nodes of ${input.gpusPerNode} GPUs` : `NVLink domains of ${input.nvlinkDomainGpus} GPUs`;
    warnings.push(`tensor parallelism of ${input.tensor} spans ${domain}: its all-reduces cross the network`);
  }
  if (input.sequenceParallel && input.tensor === 1) warnings.push('sequence parallelism has no effect without tensor parallelism');
  // Megatron pads the vocabulary to a multiple of make_vocab_size_divisible_by (128) × TP, so that each rank's embedding and
  // output-layer shard has whole rows (megatron/training/tokenizer/tokenizer.py, _vocab_size_with_padding): a vocabulary TP
  // does not divide is costed as given, V/t rows a rank, and the warning names the size a Megatron run would train.
  const { vocabSize } = input.model;
  if (vocabSize % input.tensor !== 0) {
    const multiple = 128 * input.tensor;
    warnings.push(`vocabSize ${formatGrouped(vocabSize)} is not a multiple of TP ${input.tensor}: costed as given, where Megatron pads it to ${formatGrouped(Math.ceil(vocabSize / multiple) * multiple)}`);
  }
  // A TP × CP block that the NVLink domain is no multiple of tiles across domain edges (TP 4 × CP 4 = 16 on 72-GPU
  // NVL72 racks): the straddling groups' ring attention crosses the network, which groups.ts costs; said, as for TP.
  const block = input.tensor * input.context;
  const placed = groups.domainGpus;
  if (input.context > 1 && !groups.tensorCrossesNodes && block < placed && placed % block !== 0
    && input.nodes * input.gpusPerNode > placed) {
    const domains = placed === input.nvlinkDomainGpus ? `NVLink domains of ${placed}` : `the ${placed}-GPU segments of ${input.nvlinkDomainGpus}-GPU NVLink domains`;
    warnings.push(`tensor × context parallel groups of ${block} GPUs tile ${domains} unevenly: some cross a domain edge, and their context-parallel exchanges the network`);
  }
  // ZeRO (Rajbhandari et al. 2020, §5) and Megatron's distributed optimizer partition states across
  // the ranks that hold the same weights (data × context, weightReplicas): with one, nothing is split.
  if (input.sharding !== 'none' && weightReplicas(input) === 1) {
    const name = input.sharding === 'distributed-optimizer' ? 'the distributed optimizer' : `ZeRO-${input.sharding.slice('zero-'.length)}`;
    warnings.push(`${name} shards the model states across data-parallel (and context-parallel) ranks: with one, it shards nothing`);
  }
  if (input.scatterGather && input.sequenceParallel) warnings.push('scatter-gather is not used together with sequence parallelism (Megatron skips it)');
  for (const fallback of emulationFallbacks(input)) warnings.push(`not emulated, NCCL's closed form used instead: ${fallback}`);
  if ((input.oversubscription ?? 1) > 1 && input.communicationModel !== 'emulated') {
    // NCCL's closed form costs each collective on its own, at its rings' and trees' rates: a leaf's
    // uplinks shared by collectives crossing it at once are the emulator's topology alone.
    warnings.push(`leaf oversubscription ${input.oversubscription}:1 is modelled only by the emulated communication model (communicationModel "emulated"); the closed form used here costs a non-blocking fabric`);
  }
  if (input.overlapPipelineComm && input.pipeline > 1 && input.virtualStages === 1) {
    warnings.push('overlapped pipeline sends need the interleaved schedule (virtualStages > 1): Megatron turns the overlap off without it');
  }
  if (input.recompute === 'full' && input.recomputeLayers !== undefined && input.recomputeLayers > Math.max(...layers)) {
    warnings.push(`recomputeLayers ${input.recomputeLayers} is more than a stage's ${Math.max(...layers)} layers: every layer is recomputed, as with it left out`);
  }
  if (input.pipeline > 1 && m < input.pipeline) warnings.push(`only ${m} micro-batches for ${input.pipeline} pipeline stages: the bubble dominates`);
  const chunked = contextChunkWarning(input, ctx.calibration.attentionBlockOverheadTiles);
  if (chunked !== undefined) warnings.push(chunked);
  const longLaunch = longLaunchWarning(input);
  if (longLaunch !== undefined) warnings.push(longLaunch);
  // MFU counts attention over every (query, key) pair, as Megatron, NVIDIA and the papers count it; at long sequences the
  // causal half the kernels compute (model reference §2) is a much lower figure, said beside it.
  // Attention is about s/(6h) of the rest (Korthikanti 2022; more with grouped-query attention's smaller rest): below 1/6
  // (s < h) halving it cannot cut a tenth, so the second count is skipped there.
  // Only flash attention skips the masked blocks: unfused attention multiplies the whole s × s score matrix and masks it
  // after (Megatron's CoreAttention; layer-time.ts costs its batched GEMMs at the full length), so for it the full count
  // is what runs, and there is no second figure to say (QA: "13.0% counted causal" beside V100's unfused 20.2%).
  const causalFlops = input.attentionKernel === 'flash' && input.seqLength > input.model.hiddenSize ? modelFlopsPerStep(input.model, { globalBatchSize: input.globalBatchSize, seqLength: input.seqLength, attention: 'causal' }) : modelFlops;
  if (causalFlops < CAUSAL_NOTE_RATIO * modelFlops) {
    // HFU too: counted in full it passes 1 at long sequences, a rate above the GPU's peak (QA: 1.05 for a 24-layer,
    // 2,048-wide model at 4,194,304 tokens on 64 H100s, CP 64, and for a 12-layer, 768-wide one at 1,048,576 tokens on 8),
    // since the full count has every (query, key) pair where the causal kernels compute about half of them (model
    // reference §2): attention's share of the FLOPs grows with s/(6h), so the full count tends to twice what runs.
    // Counted causal it is what the kernels execute.
    const causalHardwareFlops = hardwareFlopsPerStep(input.model, {
      globalBatchSize: input.globalBatchSize, seqLength: input.seqLength, recompute: input.recompute,
      recomputedLayers: recomputedLayerCount(input, layers), attention: 'causal',
    });
    warnings.push(`MFU counts attention over every (query, key) pair, as Megatron and NVIDIA count it; counting the causal half the kernels `
      + `compute, it is ${(100 * causalFlops / step / gpus / peak).toFixed(1)}% (HFU ${(100 * causalHardwareFlops / step / gpus / peak).toFixed(1)}%)`);
  }
  const memoryShare = worst.totalBytes / input.gpu.hbmBytes;
  if (memoryShare > TIGHT_MEMORY_SHARE && memoryShare <= 1) {
    warnings.push(`peak memory is ${(memoryShare * 100).toFixed(1)}% of the GPU's: fragmentation beyond the modelled allowance can run it out `
      + 'of memory (the search keeps 5% free by default; memoryFraction 0.9 keeps 10%)');
  }

  return {
    ok: true,
    stepTimeSeconds: step,
    tokensPerSecond: tokensPerStep / step,
    samplesPerSecond: input.globalBatchSize / step,
    modelFlopsPerStep: modelFlops,
    hardwareFlopsPerStep: hardwareFlops,
    modelTflopsPerGpu: toTFLOPS(modelFlops / step / gpus),
    hardwareTflopsPerGpu: toTFLOPS(hardwareFlops / step / gpus),
    mfu: modelFlops / step / gpus / peak,
    hfu: hardwareFlops / step / gpus / peak,
    peakTflopsPerGpu: toTFLOPS(peak),
    parameters: parameterCount(input.model),
    microBatches: m,
    breakdown,
    // Written out rather than spread from `worst` (V8's slow path for a spread with further fields; see plan-memory.ts).
    memory: {
      stage: worst.stage, weightsBytes: worst.weightsBytes, gradientsBytes: worst.gradientsBytes, optimizerBytes: worst.optimizerBytes,
      activationsBytes: worst.activationsBytes, otherBytes: worst.otherBytes, totalBytes: worst.totalBytes,
      capacityBytes: input.gpu.hbmBytes, fits: worst.totalBytes <= input.gpu.hbmBytes,
    },
    stages: times.map((time, i) => ({ time, memory: memories[i]!, layers: layers[i]! })),
    timeToTrain: input.tokens === undefined ? undefined : trainingTime(input.tokens, tokensPerStep, step, gpus),
    warnings,
  };
}
