import { readFileSync } from 'node:fs';
import { runInference } from '@trainplan/protocol';
import { gpuById } from '@trainplan/presets';
import { kernelCases, type DecodeCase } from './kernel-cases.ts';

/**
 * Whole-model decode steps run on a real GPU by kernels/decode.py (this repository), read back and set against the
 * decode step trainplan's serving model costs (packages/search/src/inference: decodeLayer's roofline per layer, the
 * logits, a kernel's fixed cost). The files are the script's output as it came back, unedited: two runs, one after the
 * other, on one NVIDIA H200, PyTorch 2.11 with CUDA 13.0, 2026-11-28 (each file's `environment` and `measuredAt`).
 */
export interface MeasuredDecodeRow {
  readonly id: string;
  readonly batch: number;
  readonly context: number;
  /** One step replayed from a CUDA graph, and the same step run eagerly (the host launching every kernel). */
  readonly ms: number;
  readonly eagerMs: number;
  readonly finite: boolean;
  /** What the step reads once: the layers' and the logits' weights, and the KV cache. */
  readonly weightBytes: number;
  readonly kvCacheBytes: number;
  readonly error?: string;
}

export interface MeasuredDecode {
  readonly environment: { readonly name: string; readonly torch: string; readonly cuda: string };
  readonly measuredAt: string;
  readonly errors: readonly string[];
  readonly decode: readonly MeasuredDecodeRow[];
}

export const DECODE_GPU = 'h200';
export const DECODE_RUN_FILES = ['decode-h200.json', 'decode-h200.run2.json'] as const;

export function loadMeasuredDecode(): MeasuredDecode[] {
  return DECODE_RUN_FILES.map((f) => JSON.parse(readFileSync(new URL(`../kernels/${f}`, import.meta.url), 'utf8')) as MeasuredDecode);
}

export interface DecodeComparison {
  readonly kase: DecodeCase;
  /** The runs' mean step (ms) and their difference over it. */
  readonly measuredMs: number;
  readonly spread: number;
  readonly eagerMs: number;
  readonly weightBytes: number;
  readonly kvCacheBytes: number;
  /** trainplan's decode step at this batch with every sequence at `context` tokens (ms), and whether it is HBM-bound. */
  readonly predictedMs: number;
  readonly memoryBound: boolean;
}

/**
 * trainplan's step for a case: static batching on one GPU, a prompt of context − 1 tokens and 2 output tokens, so the
 * step's mean context (prompt + output / 2, estimateInference) is the case's.
 */
export function predictedDecode(kase: DecodeCase): { ms: number; memoryBound: boolean } {
  const answer = runInference({
    model: kase.model, cluster: { gpu: DECODE_GPU }, precision: 'bf16', promptTokens: kase.context - 1, outputTokens: 2,
    tensor: [1], pipeline: [1], batches: [kase.batch],
  });
  if (!answer.ok || answer.best === undefined) throw new Error(`no plan for decode case ${kase.id}: ${JSON.stringify(answer).slice(0, 300)}`);
  return { ms: answer.best.decodeStepSeconds * 1e3, memoryBound: answer.best.memoryBound };
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

export function decodeComparisons(runs = loadMeasuredDecode()): DecodeComparison[] {
  return kernelCases().decode.flatMap((kase) => {
    const rows = runs.map((r) => r.decode.find((d) => d.id === kase.id));
    if (rows.some((r) => r === undefined || r.error !== undefined)) return [];
    const ok = rows as MeasuredDecodeRow[];
    const times = ok.map((r) => r.ms);
    const measuredMs = mean(times);
    const predicted = predictedDecode(kase);
    return [{
      kase,
      measuredMs,
      spread: (Math.max(...times) - Math.min(...times)) / measuredMs,
      eagerMs: mean(ok.map((r) => r.eagerMs)),
      weightBytes: ok[0]!.weightBytes,
      kvCacheBytes: ok[0]!.kvCacheBytes,
      predictedMs: predicted.ms,
      memoryBound: predicted.memoryBound,
    }];
  });
}

/**
 * A model's steps at batches of 8 and more as a + b · KV bytes (least squares): b is the time a KV byte costs, so
 * 1 / (b · bandwidth) is the fraction of the datasheet's HBM bandwidth the cache streams at; a is the step without a
 * cache, the weights streamed plus every kernel's fixed cost, and weights / (a · bandwidth) a lower bound on the
 * fraction they stream at. Batch 1 is left out: one sequence's attention runs on a few thread blocks (one per KV head,
 * scaled_dot_product_attention does not split the cache), far under the GPU's bandwidth.
 */
export function streamingFit(rows: readonly DecodeComparison[]): { kvFraction: number; weightFraction: number; noCacheMs: number; points: number } {
  const points = rows.filter((r) => r.kase.batch >= 8);
  if (points.length < 2) throw new Error('streamingFit needs two points');
  const x = points.map((r) => r.kvCacheBytes);
  const y = points.map((r) => r.measuredMs * 1e-3);
  const mx = mean(x);
  const my = mean(y);
  const slope = x.reduce((s, xi, i) => s + (xi - mx) * (y[i]! - my), 0) / x.reduce((s, xi) => s + (xi - mx) ** 2, 0);
  const intercept = my - slope * mx;
  const bandwidth = gpuById(DECODE_GPU)!.hbmBandwidth;
  return {
    kvFraction: 1 / (slope * bandwidth),
    weightFraction: points[0]!.weightBytes / (intercept * bandwidth),
    noCacheMs: intercept * 1e3,
    points: points.length,
  };
}
