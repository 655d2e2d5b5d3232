import { hardwareFlopsPerStep, modelFlopsPerStep } from '@trainplan/model';
import { formatBytes, formatGrouped, formatPercent, type Flop, type Ratio } from '@trainplan/units';
import { emulationFallbacks } from './comm-time.ts';
import { weightReplicas, type ParallelGroups } from './groups.ts';
import type { KernelContext } from './kernel-time.ts';
import { flashLaunchEfficiency } from './layer-time.ts';
import type { PlanInput } from './plan-input.ts';
import { stageMemories, type StageMemory } from './plan-memory.ts';

/**
 * Below this share of the full count, an estimate says its MFU with attention counted causal too: a tenth or more apart
 * (from about 16k tokens for a 70B). QA: at 0.8 Llama 3.1 70B at 32k (0.81) said 50.4% where the kernels ran 40.8%.
 */
const CAUSAL_NOTE_RATIO = 0.9;

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
 * The estimate's warnings about `input`, in the order they are said, from what computeEstimate worked out: the kernel
 * context, the parallel groups, the layers and parameters on each stage, the micro-batches per step, the layers full recompute repeats
 * (undefined: every one), the model FLOPs per step (attention over every (query, key) pair), `shareOfPeak` (a step's
 * FLOPs as a share of the GPUs' peak over the step: MFU for the model FLOPs) and the most loaded stage's memory.
 * Positional rather than one object: an object of these cost the widget's bundle about 40 B of its 80 kB gzip budget.
 */
export function estimateWarnings(
  input: PlanInput, ctx: KernelContext, groups: ParallelGroups, layers: readonly number[], params: readonly number[], m: number, recomputedLayers: number | undefined,
  modelFlops: Flop, shareOfPeak: (flops: Flop) => Ratio, worst: StageMemory,
): string[] {
  const gpus = input.nodes * input.gpusPerNode;
  const warnings: string[] = [];
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
    && gpus > placed) {
    const domains = placed === input.nvlinkDomainGpus ? `NVLink domains of ${placed}` : `the ${placed}-GPU segments of ${input.nvlinkDomainGpus}-GPU NVLink domains`;
    warnings.push(`tensor × context parallel groups of ${block} GPUs tile ${domains} unevenly: some cross a domain edge, and their context-parallel exchanges the network`);
  }
  // ZeRO (Rajbhandari et al. 2020, §5) and Megatron's distributed optimizer partition states across
  // the ranks that hold the same weights (data × context, weightReplicas): with one, nothing is split.
  if (input.sharding !== 'none' && weightReplicas(input) === 1) {
    const name = input.sharding === 'distributed-optimizer' ? 'the distributed optimizer' : `ZeRO-${input.sharding.slice('zero-'.length)}`;
    // ZeRO-3 with one rank still holds each unit's whole fresh gradient (plan-memory.ts zero3GatheredBytes), where ZeRO-2,
    // the same states unsharded, holds none: said with what it costs here, the two plans' peaks apart. Not under fp8Params,
    // which trainplan plans with no ZeRO-2 (check-plan.ts).
    const more = input.sharding === 'zero-3' && input.fp8Params !== true
      ? worst.totalBytes - Math.max(...stageMemories({ ...input, sharding: 'zero-2' }, layers, params, m).map((s) => s.totalBytes)) : 0;
    warnings.push(`${name} shards the model states across data-parallel (and context-parallel) ranks: with one, it shards nothing`
      + (more > 0 ? `, and holds each unit's whole gradient: ${formatBytes(more)} more per GPU than ZeRO-2 here` : ''));
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
      recomputedLayers, attention: 'causal',
    });
    warnings.push(`MFU counts attention over every (query, key) pair, as Megatron and NVIDIA count it; counting the causal half the kernels `
      + `compute, it is ${shareOfPeak(100 * causalFlops).toFixed(1)}% (HFU ${shareOfPeak(100 * causalHardwareFlops).toFixed(1)}%)`);
  }
  const memoryShare = worst.totalBytes / input.gpu.hbmBytes;
  if (memoryShare > TIGHT_MEMORY_SHARE && memoryShare <= 1) {
    warnings.push(`peak memory is ${(memoryShare * 100).toFixed(1)}% of the GPU's: fragmentation beyond the modelled allowance can run it out `
      + `of memory (the search keeps ${formatPercent(1 - TIGHT_MEMORY_SHARE, 0)} free by default; memoryFraction 0.9 keeps 10%)`);
  }
  return warnings;
}
