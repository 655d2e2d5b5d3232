import { peak16 } from '@trainplan/planner';
import { gpuById } from '@trainplan/presets';
import { runInference } from '@trainplan/protocol';
import { kernelCases, type PrefillCase } from './kernel-cases.ts';
import { MEASURED_GPU, mean, readKernelRuns, spreadOf } from './measured-runs.ts';

/**
 * Whole-model prefills run on a real GPU by kernels/decode.py --prefill (this repository), read back and set against
 * the time to first token trainplan's serving model gives a static batch (packages/search/src/inference: the planner's
 * forward layer, layerProfile, over every layer). The files are the script's output as it came back, unedited: two
 * runs, one after the other, on one NVIDIA H200, PyTorch 2.11 with CUDA 13.0, 2026-11-29 (each file's `environment`
 * and `measuredAt`).
 */
export interface MeasuredPrefillRow {
  readonly id: string;
  readonly batch: number;
  readonly prompt: number;
  /** One prefill replayed from a CUDA graph, and the same run eagerly (the host launching every kernel). */
  readonly ms: number;
  readonly eagerMs: number;
  readonly finite: boolean;
  /** Whether attention grouped the query heads natively (enable_gqa) rather than over repeated KV heads. */
  readonly gqaNative: boolean | null;
  readonly weightBytes: number;
  /** One eager prefill under torch.profiler (kernel_profile.py): GPU time by kind of kernel, and the kernels counted. */
  readonly profile: {
    readonly gemmMs: number; readonly attentionMs: number; readonly otherMs: number; readonly kernels: number;
    /** The kernels taking the most GPU time: name (cut to 90 characters) and milliseconds. */
    readonly topKernels: readonly (readonly [string, number])[];
  };
  readonly error?: string;
}

export interface MeasuredPrefill {
  readonly environment: { readonly name: string; readonly torch: string; readonly cuda: string };
  readonly measuredAt: string;
  readonly errors: readonly string[];
  readonly prefill: readonly MeasuredPrefillRow[];
}

export const PREFILL_RUN_FILES = ['prefill-h200.run1.json', 'prefill-h200.run2.json'] as const;

export function loadMeasuredPrefill(): MeasuredPrefill[] {
  return readKernelRuns<MeasuredPrefill>(PREFILL_RUN_FILES);
}

export interface PrefillComparison {
  readonly kase: PrefillCase;
  /** The runs' mean prefill (ms, from the CUDA graph) and their difference over it; the same of the eager run. */
  readonly measuredMs: number;
  readonly spread: number;
  readonly eagerMs: number;
  /** trainplan's time to first token for a static batch of these prompts on one GPU (ms). */
  readonly predictedMs: number;
  /** The profiled kernels by kind (ms, mean of the runs) and their count in one prefill. */
  readonly gemmMs: number;
  readonly attentionMs: number;
  readonly otherMs: number;
  readonly kernels: number;
  /** Grouped-query models: whether every run grouped the query heads natively; null where each head has its own KV head. */
  readonly gqaNative: boolean | null;
  readonly weightBytes: number;
}

/**
 * FLOPs of the prefill's linears: every token through each layer's QKV, projection and gated MLP (2 FLOPs a weight a
 * token), and the last token's logits.
 */
export function prefillLinearFlops(k: PrefillCase): number {
  const tokens = k.batch * k.prompt;
  const perLayer = (k.heads + 2 * k.kvHeads) * k.headDim * k.hidden + k.heads * k.headDim * k.hidden + 3 * k.ffn * k.hidden;
  return 2 * tokens * k.layers * perLayer + 2 * k.batch * k.vocab * k.hidden;
}

/** The GEMMs' rate over the H200's dense 16-bit peak, and how fast they stream the weights over its HBM bandwidth. */
export function prefillGemmRates(r: PrefillComparison): { peakFraction: number; weightsHbmFraction: number } {
  const gpu = gpuById(MEASURED_GPU)!;
  const seconds = r.gemmMs * 1e-3;
  return { peakFraction: prefillLinearFlops(r.kase) / seconds / peak16(gpu), weightsHbmFraction: r.weightBytes / seconds / gpu.hbmBandwidth };
}

/** trainplan's first token for the case: static batching of `batch` prompts on one GPU, one output token. */
export function predictedPrefillMs(kase: PrefillCase): number {
  const answer = runInference({
    model: kase.model, cluster: { gpu: MEASURED_GPU }, precision: 'bf16', promptTokens: kase.prompt, outputTokens: 1,
    tensor: [1], pipeline: [1], batches: [kase.batch],
  });
  if (!answer.ok || answer.best === undefined) throw new Error(`no plan for prefill case ${kase.id}: ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.best.prefillSeconds * 1e3;
}


export function prefillComparisons(runs = loadMeasuredPrefill()): PrefillComparison[] {
  return kernelCases().prefill.flatMap((kase) => {
    const rows = runs.map((r) => r.prefill.find((d) => d.id === kase.id));
    if (rows.some((r) => r === undefined || r.error !== undefined)) return [];
    const ok = rows as MeasuredPrefillRow[];
    const times = ok.map((r) => r.ms);
    const measuredMs = mean(times);
    return [{
      kase,
      measuredMs,
      spread: spreadOf(times),
      eagerMs: mean(ok.map((r) => r.eagerMs)),
      predictedMs: predictedPrefillMs(kase),
      gemmMs: mean(ok.map((r) => r.profile.gemmMs)),
      attentionMs: mean(ok.map((r) => r.profile.attentionMs)),
      otherMs: mean(ok.map((r) => r.profile.otherMs)),
      kernels: ok[0]!.profile.kernels,
      gqaNative: kase.kvHeads === kase.heads ? null : ok.every((r) => r.gqaNative === true),
      weightBytes: ok[0]!.weightBytes,
    }];
  });
}
