import { fp8Peak, peakShareText, runsFlashAttention, type EstimateInfeasible, type EstimateOk } from '@trainplan/protocol';
import { gpuById } from '@trainplan/presets';
import { countOf, formatBytes, formatGrouped, formatSeconds } from '@trainplan/units';
import { compactCount, formatDays } from '../format.ts';
import type { AnswerFigure } from './answer-types.ts';
import { refusalWords } from './issue-words.ts';

/** "NVIDIA H100 SXM5 80GB" → "H100 SXM5 80GB". */
export const gpuName = (id: string): string => gpuById(id)?.name.replace(/^NVIDIA\s+/, '') ?? id;

/** What takes a layer's place in the pipeline split besides the layers, in words (Megatron's --account-for-* flags). */
function splitWords(r: EstimateOk['resolved']): string {
  const both = r.embeddingInPipelineSplit === true && r.lossInPipelineSplit === true;
  if (both) return ' (the embedding and the loss each count as a layer)';
  if (r.embeddingInPipelineSplit === true) return ' (the embedding counts as a layer)';
  return r.lossInPipelineSplit === true ? ' (the loss counts as a layer)' : '';
}

/**
 * A plan's layout in the words and order the Configuration line uses: "TP 2 · PP 8 · VP 5 · CP 4 · DP 32 · micro-batch 1 ·
 * no recompute · sequence parallel · distributed optimizer". `globalBatch` adds the global batch and the sequence length
 * after the micro-batch, as the Configuration line has them. A headline that names the plan says it so (QA: the search's
 * label, "DP 32 · CP 4 · v 5 · mbs 1 · SP · … · distributed-optimizer", wrote the same plan another way one line above the
 * Configuration line).
 */
export function planWords(e: EstimateOk, options: { globalBatch?: boolean } = {}): string {
  const r = e.resolved;
  const parts = [`TP ${r.tensor}`, `PP ${r.pipeline}${splitWords(r)}`];
  if (r.virtualStages > 1) parts.push(`VP ${r.virtualStages}`);
  if (r.context > 1) parts.push(`CP ${r.context}`);
  parts.push(`DP ${r.data.toLocaleString('en-US')}`, `micro-batch ${r.microBatchSize}`);
  // The sequence length beside the batch, as the CLI's search header has it ("global batch 1,536 · seq 2,048"): a length read
  // from the question, or the model's own where none was, shows in every plan (QA: "at 128k" dropped, and an 8k plan read as 128k's).
  if (options.globalBatch === true) parts.push(`global batch ${r.globalBatchSize.toLocaleString('en-US')}`, `seq ${r.seqLength.toLocaleString('en-US')}`);
  const some = r.recomputeLayers !== undefined ? ` of ${r.recomputeLayers} layer${r.recomputeLayers === 1 ? '' : 's'}/stage` : '';
  parts.push(r.recompute === 'none' ? 'no recompute' : `${r.recompute} recompute${some}`);
  if (r.sequenceParallel) parts.push('sequence parallel');
  if (r.distributedOptimizer) parts.push('distributed optimizer');
  else if (r.zeroStage > 0) parts.push(`ZeRO-${r.zeroStage}`);
  return parts.join(' · ');
}

/**
 * The plan's settings a question turns from their defaults, as its estimate resolved them: the GPipe schedule (1F1B and
 * the interleaved one show as VP), FP8 weights, the unfused attention kernel on a GPU that runs flash attention (the
 * default on a V100: said there by no word), and collectives emulated. So an answer shows the setting asked was planned.
 */
function settingWords(r: EstimateOk['resolved']): string[] {
  const gpu = gpuById(r.gpu);
  return [
    ...(r.schedule === 'gpipe' ? ['GPipe'] : []),
    ...(r.fp8Params === true ? ['FP8 weights'] : []),
    ...(r.attentionKernel === 'unfused' && gpu !== undefined && runsFlashAttention(gpu) ? ['unfused attention'] : []),
    ...(r.communicationModel === 'emulated' ? ['collectives emulated'] : []),
  ];
}

/** The parallel configuration of an estimate, in Megatron's terms. */
export function describeConfiguration(e: EstimateOk): string {
  const r = e.resolved;
  const plan = [planWords(e, { globalBatch: true }), ...settingWords(r)].join(' · ');
  return `${plan} · ${r.precision.toUpperCase()} on ${r.nodes.toLocaleString('en-US')} × ${r.gpusPerNode} ${gpuName(r.gpu)} (${countOf(r.gpus, 'GPU')}, ${r.network})`;
}

/** "61.2 GiB of 79.3 GiB (fits)". */
export function describeMemory(e: EstimateOk): string {
  const m = e.memory;
  return `${formatBytes(m.totalBytes)} of ${formatBytes(m.capacityBytes)} (${m.fits ? 'fits' : 'does not fit'})`;
}

/**
 * An estimate's MFU with its denominator where it is not the 16-bit peak: an FP8 plan's MFU is of the GPU's FP8 peak (the
 * planner's, estimate.ts), twice the BF16 one on Hopper, so "30.1%" beside a BF16 plan's "44.0%" reads as FP8 doing worse
 * when it trains faster (QA). Said as "30.1% of the FP8 peak (60.2% of the BF16 peak)"; a 16-bit plan's alone, as before.
 * `word` follows the percentage ("30.1% MFU of the FP8 peak …", "44.0% MFU").
 */
export function mfuText(e: EstimateOk, word = ''): string {
  return peakShareText(e.mfu, fp8Peak(e.resolved.gpu, e.resolved.precision), word);
}

/** The figures every training answer shows, in reading order. */
export function estimateFigures(e: EstimateOk): AnswerFigure[] {
  const figures: AnswerFigure[] = [
    { label: 'Step time', value: formatSeconds(e.stepTimeSeconds) },
    { label: 'MFU', value: mfuText(e) },
    { label: 'Memory per GPU', value: describeMemory(e) },
    { label: 'Throughput', value: `${compactCount(e.tokensPerSecond)} tokens/s · ${formatGrouped(e.modelTflopsPerGpu)} TFLOP/s per GPU` },
  ];
  if (e.timeToTrain !== undefined) {
    figures.push({
      label: 'Time to train',
      value: `${formatDays(e.timeToTrain.days)} for ${compactCount(e.timeToTrain.tokens)} tokens · ${compactCount(e.timeToTrain.gpuHours)} GPU-hours`,
    });
  }
  return figures;
}

/** The numeric fields an Answer carries next to its figures. */
export function estimateNumbers(e: EstimateOk): { stepTimeSeconds: number; mfu: number; memoryPerGpuBytes: number; memoryCapacityBytes: number } {
  return { stepTimeSeconds: e.stepTimeSeconds, mfu: e.mfu, memoryPerGpuBytes: e.memory.totalBytes, memoryCapacityBytes: e.memory.capacityBytes };
}

/** One sentence for an estimate that has no numbers (out of memory, indivisible, invalid). */
export function describeInfeasible(e: EstimateInfeasible): string {
  if (e.reason === 'out-of-memory' && e.neededBytes !== undefined && e.availableBytes !== undefined) {
    return `does not fit: needs ${formatBytes(e.neededBytes)} per GPU, ${formatBytes(e.availableBytes)} available`;
  }
  return refusalWords(e);
}
