import { runInference } from '@trainplan/protocol';
import { kernelCases, type DecodeCase } from './kernel-cases.ts';
import { MEASURED_GPU, mean, measuredGpuHbmBandwidth, readKernelRuns, spreadOf } from './measured-runs.ts';

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
  /** One eager step under torch.profiler (kernel_profile.py): GPU time by kind of kernel, and the kernels counted. */
  readonly profile: { readonly gemmMs: number; readonly attentionMs: number; readonly otherMs: number; readonly kernels: number };
  readonly error?: string;
}

export interface MeasuredDecode {
  readonly environment: { readonly name: string; readonly torch: string; readonly cuda: string };
  readonly measuredAt: string;
  readonly errors: readonly string[];
  readonly decode: readonly MeasuredDecodeRow[];
}

export const DECODE_RUN_FILES = ['decode-h200.json', 'decode-h200.run2.json'] as const;
/** The same steps with RMSNorm and SiLU · up each compiled into one kernel (decode.py --fused), two runs, 2026-11-29. */
export const FUSED_DECODE_RUN_FILES = ['decode-h200.fused.run1.json', 'decode-h200.fused.run2.json'] as const;

export const loadMeasuredDecode = (): MeasuredDecode[] => readKernelRuns<MeasuredDecode>(DECODE_RUN_FILES);
export const loadFusedDecode = (): MeasuredDecode[] => readKernelRuns<MeasuredDecode>(FUSED_DECODE_RUN_FILES);

export interface DecodeComparison {
  readonly kase: DecodeCase;
  /** The runs' mean step (ms) and their difference over it; the same of the eager step, which varies more (the host's launches). */
  readonly measuredMs: number;
  readonly spread: number;
  readonly eagerMs: number;
  readonly eagerSpread: number;
  readonly weightBytes: number;
  readonly kvCacheBytes: number;
  /** trainplan's decode step at this batch with every sequence at `context` tokens (ms), and whether it is HBM-bound. */
  readonly predictedMs: number;
  readonly memoryBound: boolean;
  /** The profiled kernels by kind (ms, mean of the runs) and their count in one step. */
  readonly gemmMs: number;
  readonly attentionMs: number;
  readonly otherMs: number;
  readonly kernels: number;
  /** The fused runs' mean step (ms, from the CUDA graph), their element-wise and other kernels (ms) and kernel count. */
  readonly fusedMs: number;
  readonly fusedOtherMs: number;
  readonly fusedKernels: number;
}


/**
 * How fast each kind of kernel streams what it reads, as a fraction of the datasheet's HBM bandwidth: the GEMMs the
 * weights (the layers' linears and the logits), attention the KV cache.
 */
export function streamingFractions(r: DecodeComparison): { weights: number; kvCache: number } {
  const bandwidth = measuredGpuHbmBandwidth();
  return { weights: r.weightBytes / (r.gemmMs * 1e-3) / bandwidth, kvCache: r.kvCacheBytes / (r.attentionMs * 1e-3) / bandwidth };
}

/**
 * trainplan's step for a case: static batching on one GPU, a prompt of context − 1 tokens and 2 output tokens, so the
 * step's mean context (prompt + output / 2, estimateInference) is the case's.
 */
export function predictedDecode(kase: DecodeCase): { ms: number; memoryBound: boolean } {
  const answer = runInference({
    model: kase.model, cluster: { gpu: MEASURED_GPU }, precision: 'bf16', promptTokens: kase.context - 1, outputTokens: 2,
    tensor: [1], pipeline: [1], batches: [kase.batch],
  });
  if (!answer.ok || answer.best === undefined) throw new Error(`no plan for decode case ${kase.id}: ${JSON.stringify(answer).slice(0, 300)}`);
  return { ms: answer.best.decodeStepSeconds * 1e3, memoryBound: answer.best.memoryBound };
}


const caseRows = (runs: readonly MeasuredDecode[], id: string): MeasuredDecodeRow[] | undefined => {
  const rows = runs.map((r) => r.decode.find((d) => d.id === id));
  return rows.some((r) => r === undefined || r.error !== undefined) ? undefined : rows as MeasuredDecodeRow[];
};

export function decodeComparisons(runs = loadMeasuredDecode(), fusedRuns = loadFusedDecode()): DecodeComparison[] {
  return kernelCases().decode.flatMap((kase) => {
    const ok = caseRows(runs, kase.id);
    const fused = caseRows(fusedRuns, kase.id);
    if (ok === undefined || fused === undefined) return [];
    const times = ok.map((r) => r.ms);
    const measuredMs = mean(times);
    const predicted = predictedDecode(kase);
    return [{
      kase,
      measuredMs,
      spread: spreadOf(times),
      eagerMs: mean(ok.map((r) => r.eagerMs)),
      eagerSpread: spreadOf(ok.map((r) => r.eagerMs)),
      weightBytes: ok[0]!.weightBytes,
      kvCacheBytes: ok[0]!.kvCacheBytes,
      predictedMs: predicted.ms,
      memoryBound: predicted.memoryBound,
      gemmMs: mean(ok.map((r) => r.profile.gemmMs)),
      attentionMs: mean(ok.map((r) => r.profile.attentionMs)),
      otherMs: mean(ok.map((r) => r.profile.otherMs)),
      kernels: ok[0]!.profile.kernels,
      fusedMs: mean(fused.map((r) => r.ms)),
      fusedOtherMs: mean(fused.map((r) => r.profile.otherMs)),
      fusedKernels: fused[0]!.profile.kernels,
    }];
  });
}
