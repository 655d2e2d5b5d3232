import { runEstimate, runScale, runSearch, type EstimateOk, type ScenarioInput, type SearchOkJson } from '@trainplan/protocol';
import { spearman } from './correlation.ts';
import { scoreAll } from './score.ts';

export interface SweepRow {
  readonly id: string;
  readonly label: string;
  readonly measuredTokensPerSecond: number;
  readonly predictedTokensPerSecond: number;
}

/**
 * The BLOOM topology sweep (bigscience tr11 chronicles-prequel, 2022-02-25): one 181B shape (72 layers,
 * h 14336, 64 heads) on 384 A100, eleven TP/PP/DP/micro-batch choices. Throughput is tokens/s
 * (the batches differ slightly), measured from the row's step time and predicted by the planner through
 * the same source profile as docs/validation.md.
 */
export function bloomTopologySweep(): { rows: SweepRow[]; spearman: number; measuredBestPredictedRank: number } {
  const rows = scoreAll()
    .filter((r) => r.source === 'bloom-prequel' && r.id.includes('L72h14336') && r.id.includes('nh64') && r.estimate.resolved.gpus === 384)
    .map((r): SweepRow => {
      const tokens = r.estimate.resolved.globalBatchSize * r.estimate.resolved.seqLength;
      const e = r.estimate.resolved;
      return {
        id: r.id,
        label: `TP ${e.tensor} · PP ${e.pipeline} · DP ${e.data} · mbs ${e.microBatchSize} · batch ${e.globalBatchSize}`,
        measuredTokensPerSecond: tokens / r.measuredStepSeconds,
        predictedTokensPerSecond: tokens / r.predictedStepSeconds,
      };
    });
  const rho = spearman(rows.map((r) => r.measuredTokensPerSecond), rows.map((r) => r.predictedTokensPerSecond));
  const measuredBest = rows.reduce((a, b) => (b.measuredTokensPerSecond > a.measuredTokensPerSecond ? b : a));
  const predictedOrder = [...rows].sort((a, b) => b.predictedTokensPerSecond - a.predictedTokensPerSecond);
  return { rows, spearman: rho, measuredBestPredictedRank: predictedOrder.indexOf(measuredBest) + 1 };
}

const estimate = (s: ScenarioInput): EstimateOk => {
  const e = runEstimate(s);
  if (Array.isArray(e) || !e.ok) throw new Error(`findings scenario failed: ${JSON.stringify(e)}`);
  return e;
};

/**
 * NeMo Megatron GPT-3 20B (44 layers, h 6144, 48 heads; NeMo-Megatron-Launcher conf/training/gpt3/20b)
 * on 32 Azure NDm A100 v4 nodes, batch 2048 (an assumption: the Azure blog states no batch): the best
 * plan with TP × PP = 8 held at each split, the rest (micro-batch, recompute, SP, v, optimizer) searched.
 */
export function twentyBTensorPipeline(): { tensor: number; pipeline: number; stepTimeSeconds: number }[] {
  const model = { name: 'NeMo GPT-3 20B', layers: 44, hiddenSize: 6144, attentionHeads: 48, vocabSize: 51200, seqLength: 2048 };
  const scale = runScale({
    model, cluster: { gpu: 'azure-ndm-a100-v4' }, training: { globalBatchSize: 2048 }, nodes: [32], tradeOff: true,
    constraints: { maxTensor: 8 },
  });
  if (!scale.ok) throw new Error(scale.message);
  return (scale.tradeOff ?? [])
    .filter((c) => c.tensor * c.pipeline === 8 && c.stepTimeSeconds !== undefined)
    .map((c) => ({ tensor: c.tensor, pipeline: c.pipeline, stepTimeSeconds: c.stepTimeSeconds! }))
    .sort((a, b) => a.tensor - b.tensor);
}

/** SC'21 §5 setting for GPT-3 175B on Selene: fp16, unfused attention with dropout, scatter-gather, full recompute. */
const SC21: Pick<ScenarioInput, 'model' | 'cluster'> = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 } };
const sc21 = (globalBatchSize: number, parallelism: ScenarioInput['parallelism'], tokens?: number): ScenarioInput => ({
  ...SC21,
  training: { globalBatchSize, microBatchSize: 1, precision: 'fp16', attentionKernel: 'unfused', dropout: true, ...(tokens !== undefined && { tokens }) },
  parallelism: { tensor: 8, pipeline: 8, recompute: 'full', scatterGather: true, ...parallelism },
});

/**
 * Interleaving's gain (1F1B → interleaved, v = 4) for GPT-3 175B, TP 8, PP 8 on 1024 A100 (the time-to-train check's
 * setting) as the batch grows: the trend of Narayanan et al. SC'21 §5.3.2 / Fig. 12, which measures it on 96 GPUs (TP 8,
 * PP 12), shrinking as the bubble (p−1)/(v·m) shrinks with m.
 */
export function interleavingGains(): { globalBatchSize: number; gain: number }[] {
  return [256, 512, 1024, 1536, 3072].map((b) => ({
    globalBatchSize: b,
    gain: estimate(sc21(b, { virtualStages: 1 })).stepTimeSeconds / estimate(sc21(b, { virtualStages: 4 })).stepTimeSeconds - 1,
  }));
}

/**
 * Scatter-gather's gain for GPT-3 175B on 96 A100 (TP 8, PP 12, interleaved v 2): SC'21 §5.7 / Fig. 18 reports "up to 11%
 * in throughput for communication-intensive schedules (large batch size with interleaving)".
 */
export function scatterGatherGains(): { globalBatchSize: number; gain: number }[] {
  const s = (b: number, scatterGather: boolean): ScenarioInput => ({
    model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 12 },
    training: { globalBatchSize: b, microBatchSize: 1, precision: 'fp16', attentionKernel: 'unfused', dropout: true },
    parallelism: { tensor: 8, pipeline: 12, virtualStages: 2, recompute: 'full', scatterGather },
  });
  return [12, 24, 36, 48, 60].map((b) => ({ globalBatchSize: b, gain: estimate(s(b, false)).stepTimeSeconds / estimate(s(b, true)).stepTimeSeconds - 1 }));
}

/** The two recompute settings the 530B scaling check is run under: the Azure blog states neither. */
export const SCALING_530B_SETTINGS = {
  /** SC'21's setting for 530B-class models. */
  'full recompute': { recompute: 'full' },
  /** The NeMo-Megatron launcher's GPT-3 configs (conf/training/gpt3/175b.yaml: selective, sequence_parallel True). */
  'selective recompute + SP': { recompute: 'selective', sequenceParallel: true },
} as const satisfies Record<string, { recompute: 'full' | 'selective'; sequenceParallel?: boolean }>;
export type Scaling530BSetting = keyof typeof SCALING_530B_SETTINGS;

/**
 * MT-NLG 530B on Azure NDm A100 v4, TP 8, PP 35, batch 1920 (MT-NLG's, arXiv:2201.11990 §2.4), 105 →
 * 140 → 175 nodes. The measured steps are the Azure HPC blog's (ground truth, tier C: it states neither
 * the batch nor the recompute setting), so the absolute error is shown for each assumed setting and only
 * the scaling efficiency is a target.
 */
export function scaling530B(setting: Scaling530BSetting = 'full recompute'): {
  nodes: number; stepTimeSeconds: number; efficiency: number; measuredStepSeconds: number;
}[] {
  const measured: Record<number, number> = { 105: 88.2, 140: 67.4, 175: 55.7 };
  const a = runScale({
    model: 'mt-nlg-530b', cluster: { gpu: 'azure-ndm-a100-v4' }, training: { globalBatchSize: 1920 }, nodes: [105, 140, 175],
    parallelism: { tensor: 8, pipeline: 35, ...SCALING_530B_SETTINGS[setting] },
  });
  if (!a.ok) throw new Error(a.message);
  return a.points.map((p) => ({ nodes: p.nodes, stepTimeSeconds: p.stepTimeSeconds!, efficiency: p.efficiency!, measuredStepSeconds: measured[p.nodes]! }));
}

/**
 * GPT-3 175B on 300B tokens with 1024 A100: the paper's configuration (SC'21 §5.1: TP 8, PP 8, full
 * recompute, batch 1536; "34 days"), and the best configuration the search finds with the same
 * software, against the 24 days NVIDIA reports with sequence parallelism and selective recompute.
 */
export function gpt3TimeToTrain(): { paperDays: number; best: SearchOkJson['best']; bestDays: number } {
  const tokens = 300e9;
  const paper = estimate(sc21(1536, { virtualStages: 1 }, tokens));
  const search = runSearch({
    ...SC21, training: { globalBatchSize: 1536, precision: 'fp16', attentionKernel: 'unfused', dropout: true, tokens },
    settings: { scatterGather: true }, top: 1,
  });
  if (!search.ok) throw new Error(search.message);
  return { paperDays: paper.timeToTrain!.days, best: search.best, bestDays: search.best.days! };
}

export const SEARCH_TARGETS = {
  spearman: 0.8,
  measuredBestInTop: 3,
  scatterGatherMaxGain: 0.11,
  scalingEfficiency: 0.9,
  paperDays: 34,
  paperDaysTolerance: 0.1,
  nvidiaDays: 24,
  nvidiaDaysTolerance: 0.1,
} as const;
