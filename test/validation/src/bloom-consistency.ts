import { networkById } from '@trainplan/presets';
import { loadTrainingRows, type TrainingRow } from './ground-truth.ts';
import { scoreRow, type FabricOverride, type ScoredRow } from './score.ts';
import { spearman } from './correlation.ts';
import { SOURCES } from './sources.ts';

/**
 * Every 181B configuration (72 layers, h 14336, 64 heads, 384 A100) the BLOOM prequel measured on
 * 2022-02-25, as its tables print them (bigscience-workshop/bigscience
 * train/tr11-176B-ml/chronicles-prequel.md @59a90eec, sections "GBS Variations" and "Tweaking TP"):
 * the ground truth keeps eleven of them; the others are the same table's neighbours. Scored with the
 * same source profile, they show what of the BLOOM error is the source's own scatter. Not part of
 * the scored ground truth: a diagnostic only. `memory` is the table's "Mem" column where it has one:
 * the most any GPU used, read from nvidia-smi ("GB" as printed), so it includes the CUDA context and
 * what PyTorch's caching allocator holds.
 */
const FEB25_TABLES: readonly { dp: number; tp: number; pp: number; mbs: number; gbs: number; seconds: number; memory?: number }[] = [
  { dp: 8, tp: 8, pp: 6, mbs: 4, gbs: 1568, seconds: 113.01, memory: 56 },
  { dp: 8, tp: 8, pp: 6, mbs: 4, gbs: 2048, seconds: 114.11, memory: 55 },
  { dp: 8, tp: 8, pp: 6, mbs: 6, gbs: 2016, seconds: 123.57, memory: 66 },
  { dp: 4, tp: 8, pp: 12, mbs: 4, gbs: 1568, seconds: 92.75 },
  { dp: 4, tp: 8, pp: 12, mbs: 4, gbs: 2048, seconds: 117.07, memory: 49 },
  { dp: 4, tp: 8, pp: 12, mbs: 2, gbs: 1568, seconds: 99.93 },
  { dp: 4, tp: 8, pp: 12, mbs: 2, gbs: 2048, seconds: 128.82 },
  { dp: 6, tp: 8, pp: 8, mbs: 4, gbs: 2016, seconds: 113.16, memory: 52 },
  { dp: 12, tp: 8, pp: 4, mbs: 2, gbs: 2016, seconds: 125.52, memory: 53 },
  { dp: 12, tp: 8, pp: 4, mbs: 4, gbs: 2016, seconds: 114.81, memory: 59 },
  { dp: 24, tp: 8, pp: 2, mbs: 1, gbs: 2016, seconds: 145.45, memory: 65 },
  { dp: 24, tp: 8, pp: 2, mbs: 2, gbs: 2016, seconds: 136.13, memory: 76 },
  { dp: 8, tp: 4, pp: 12, mbs: 4, gbs: 2048, seconds: 111.89, memory: 60 },
  { dp: 8, tp: 4, pp: 12, mbs: 2, gbs: 2048, seconds: 110.48, memory: 44 },
  { dp: 8, tp: 4, pp: 12, mbs: 2, gbs: 2048, seconds: 113.54, memory: 38 },
  { dp: 16, tp: 4, pp: 6, mbs: 4, gbs: 2048, seconds: 117.11, memory: 75 },
  { dp: 16, tp: 4, pp: 6, mbs: 2, gbs: 2048, seconds: 111.71, memory: 57 },
  { dp: 16, tp: 2, pp: 12, mbs: 2, gbs: 2048, seconds: 112.5, memory: 63 },
  { dp: 8, tp: 2, pp: 24, mbs: 1, gbs: 2048, seconds: 119.53, memory: 44 },
  { dp: 8, tp: 2, pp: 24, mbs: 2, gbs: 2048, seconds: 122.75, memory: 53 },
  { dp: 4, tp: 4, pp: 24, mbs: 1, gbs: 2048, seconds: 130.6 },
];

export interface ConsistencyRow {
  readonly label: string;
  readonly dataParallel: number;
  readonly tensor: number;
  readonly inGroundTruth: boolean;
  readonly scored: ScoredRow;
  /** The source's "Mem" column (nvidia-smi, "GB" as printed), where it has one. */
  readonly measuredMemoryGB?: number;
}

export interface BloomConsistency {
  readonly rows: readonly ConsistencyRow[];
  /** The configuration measured at two batches (dp 8, tp 8, pp 6, mbs 4): step-time growth measured and predicted. */
  readonly sameConfiguration: {
    readonly measuredGrowth: number; readonly predictedGrowth: number; readonly batchGrowth: number;
    /** Measured seconds per added sample between the two batches, and per sample at the larger batch. */
    readonly marginalSecondsPerSample: number; readonly averageSecondsPerSample: number;
    /** trainplan's step-time error at each batch. */
    readonly errors: readonly [number, number];
  };
  /** Mean signed step-time error by data-parallel degree, ascending. */
  readonly errorByDataParallel: readonly { readonly dataParallel: number; readonly rows: number; readonly meanError: number }[];
  /** Spearman rank correlation of tokens/s over all the configurations. */
  readonly spearmanAll: number;
  /** Predicted peak memory per GPU (GiB) against the source's nvidia-smi figure, over the rows that print one. */
  readonly memory: { readonly rows: number; readonly meanRatio: number; readonly minRatio: number; readonly maxRatio: number };
  /** The table rescored with fewer NICs per node: first as modelled, then 2, then 1. */
  readonly nicSensitivity: readonly NicSensitivity[];
}

export interface NicSensitivity {
  readonly nicsPerNode: number;
  /** Mean absolute step-time error over the 21 configurations. */
  readonly mape: number;
  readonly spearman: number;
  /** Mean signed error of the DP ≤ 8 rows, of the DP 24 rows, and of the TP 2 rows (the most pipeline traffic). */
  readonly meanErrorUpToDp8: number;
  readonly meanErrorDp24: number;
  readonly meanErrorTp2: number;
}

/** The 21 configurations, scored with the BLOOM profile (and, for what-ifs, a changed fabric). */
function scoreTable(fabric?: FabricOverride): ConsistencyRow[] {
  const all = loadTrainingRows();
  const template = all.find((r) => r.id.startsWith('bloom-prequel-02-25-00'));
  if (!template) throw new Error('the BLOOM prequel rows are missing from the ground truth');
  const profile = SOURCES.find((s) => s.id === 'bloom-prequel')!;
  const kept = all.filter((r) => r.id.startsWith('bloom-prequel-02-25'));
  return FEB25_TABLES.map((c): ConsistencyRow => {
    const row: TrainingRow = {
      ...template,
      id: `bloom-prequel-02-25-table-dp${c.dp}tp${c.tp}pp${c.pp}mbs${c.mbs}gbs${c.gbs}`,
      parallel: { ...template.parallel, dp: c.dp, tp: c.tp, pp: c.pp, mbs: c.mbs, gbs: c.gbs },
      measured: { ...template.measured, step_time_s: c.seconds },
    };
    const inGroundTruth = kept.some((k) => k.parallel.dp === c.dp && k.parallel.tp === c.tp && k.parallel.pp === c.pp
      && k.parallel.mbs === c.mbs && k.parallel.gbs === c.gbs && k.measured.step_time_s === c.seconds);
    return {
      label: `TP ${c.tp} · PP ${c.pp} · DP ${c.dp} · mbs ${c.mbs} · batch ${c.gbs}`, dataParallel: c.dp, tensor: c.tp, inGroundTruth,
      scored: scoreRow(row, profile, {}, fabric)!,
      ...(c.memory !== undefined && { measuredMemoryGB: c.memory }),
    };
  });
}

const tokensPerSecond = (r: ScoredRow, seconds: number) => (r.estimate.resolved.globalBatchSize * r.estimate.resolved.seqLength) / seconds;
const meanError = (rows: readonly ConsistencyRow[]) => rows.reduce((s, r) => s + r.scored.error, 0) / rows.length;

function tableSpearman(rows: readonly ConsistencyRow[]): number {
  return spearman(
    rows.map((r) => tokensPerSecond(r.scored, r.scored.measuredStepSeconds)),
    rows.map((r) => tokensPerSecond(r.scored, r.scored.predictedStepSeconds)),
  );
}

/** Predicted peak memory per GPU in GiB over the measured figure taken as GiB (nvidia-smi's MiB / 1024). */
export const memoryRatio = (r: ConsistencyRow): number | undefined =>
  r.measuredMemoryGB === undefined ? undefined : r.scored.estimate.memory.totalBytes / 2 ** 30 / r.measuredMemoryGB;

function memoryAgainstMeasured(rows: readonly ConsistencyRow[]): BloomConsistency['memory'] {
  const ratios = rows.map(memoryRatio).filter((x): x is number => x !== undefined);
  return {
    rows: ratios.length,
    meanRatio: ratios.reduce((s, x) => s + x, 0) / ratios.length,
    minRatio: Math.min(...ratios),
    maxRatio: Math.max(...ratios),
  };
}

/**
 * The table rescored as if NCCL drove fewer of each node's four Omni-Path NICs (the same as a
 * uniform cut of the fabric's bandwidth): does slower inter-node communication, everywhere, explain
 * the trend in data-parallel degree? It would also slow the pipeline sends, which weigh most where
 * TP is small.
 */
function nicSensitivity(asModelled: readonly ConsistencyRow[]): NicSensitivity[] {
  const profile = SOURCES.find((s) => s.id === 'bloom-prequel')!;
  const modelledNics = networkById(profile.network)!.nicsPerNode;
  return [modelledNics, 2, 1].filter((n, i, all) => n <= modelledNics && all.indexOf(n) === i).map((nicsPerNode) => {
    const rows = nicsPerNode === modelledNics ? asModelled : scoreTable((f) => ({ ...f, nicsPerNode }));
    return {
      nicsPerNode,
      mape: rows.reduce((s, r) => s + Math.abs(r.scored.error), 0) / rows.length,
      spearman: tableSpearman(rows),
      meanErrorUpToDp8: meanError(rows.filter((r) => r.dataParallel <= 8)),
      meanErrorDp24: meanError(rows.filter((r) => r.dataParallel === 24)),
      meanErrorTp2: meanError(rows.filter((r) => r.tensor === 2)),
    };
  });
}

export function bloomConsistency(): BloomConsistency {
  const rows = scoreTable();
  const pair = rows.filter((r) => r.dataParallel === 8 && r.scored.estimate.resolved.tensor === 8 && r.scored.estimate.resolved.microBatchSize === 4);
  const [small, large] = [...pair].sort((a, b) => a.scored.estimate.resolved.globalBatchSize - b.scored.estimate.resolved.globalBatchSize);
  const growth = (f: (r: ScoredRow) => number) => f(large!.scored) / f(small!.scored) - 1;
  const degrees = [...new Set(rows.map((r) => r.dataParallel))].sort((a, b) => a - b);
  return {
    rows,
    sameConfiguration: {
      measuredGrowth: growth((r) => r.measuredStepSeconds),
      predictedGrowth: growth((r) => r.predictedStepSeconds),
      batchGrowth: growth((r) => r.estimate.resolved.globalBatchSize),
      marginalSecondsPerSample: (large!.scored.measuredStepSeconds - small!.scored.measuredStepSeconds)
        / (large!.scored.estimate.resolved.globalBatchSize - small!.scored.estimate.resolved.globalBatchSize),
      averageSecondsPerSample: large!.scored.measuredStepSeconds / large!.scored.estimate.resolved.globalBatchSize,
      errors: [small!.scored.error, large!.scored.error],
    },
    errorByDataParallel: degrees.map((d) => {
      const group = rows.filter((r) => r.dataParallel === d);
      return { dataParallel: d, rows: group.length, meanError: group.reduce((s, r) => s + r.scored.error, 0) / group.length };
    }),
    spearmanAll: tableSpearman(rows),
    memory: memoryAgainstMeasured(rows),
    nicSensitivity: nicSensitivity(rows),
  };
}
