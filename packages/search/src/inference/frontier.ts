import type { InferenceAnswer, InferenceBase, InferenceEstimate } from './inference-plan.ts';
import { estimateInference } from './inference-plan.ts';
import { powersOfTwoUpTo } from '../search-space.ts';

export interface InferenceSearch {
  readonly promptTokens: number;
  readonly outputTokens: number;
  readonly tensor?: readonly number[];
  readonly pipeline?: readonly number[];
  /** Batches tried (default powers of two up to each shape's largest batch that fits). */
  readonly batches?: readonly number[];
  /** Keep plans whose per-token decode latency is at most this. */
  readonly maxDecodeSecondsPerToken?: number;
  /** Keep plans whose time to first token is at most this. */
  readonly maxPrefillSeconds?: number;
}

export interface InferencePlanResult {
  /** Every runnable (TP, PP, batch) point tried. */
  readonly points: readonly InferenceEstimate[];
  /** The throughput-versus-latency frontier: no other point is both faster per token and higher in tokens/s/GPU. */
  readonly frontier: readonly InferenceEstimate[];
  /** The highest tokens/s per GPU that meets the latency bounds. */
  readonly best?: InferenceEstimate;
  /** Per (TP, PP): the largest batch and its figures, or why it cannot serve. */
  readonly byShape: readonly { readonly tensor: number; readonly pipeline: number; readonly answer: InferenceAnswer }[];
  /** When no point meets the bounds: the one with the lowest decode latency, and why it misses. */
  readonly closest?: { readonly point: InferenceEstimate; readonly why: string };
}

/** Pareto frontier over (decode latency ↓, tokens/s/GPU ↑), sorted by latency. */
export function latencyThroughputFrontier(points: readonly InferenceEstimate[]): InferenceEstimate[] {
  const sorted = [...points].sort((a, b) => a.decodeStepSeconds - b.decodeStepSeconds || b.tokensPerSecondPerGpu - a.tokensPerSecondPerGpu);
  const out: InferenceEstimate[] = [];
  let bestThroughput = -Infinity;
  for (const p of sorted) {
    if (p.tokensPerSecondPerGpu > bestThroughput) {
      out.push(p);
      bestThroughput = p.tokensPerSecondPerGpu;
    }
  }
  return out;
}

/**
 * Inference planning: for each TP × PP shape of one replica, the batches that fit, their prefill and
 * decode latency and tokens/s per GPU; the frontier; and the best plan under the latency bounds.
 */
export function planInference(base: InferenceBase, search: InferenceSearch): InferencePlanResult {
  const domain = base.nvlinkDomainGpus;
  const tensors = search.tensor ?? powersOfTwoUpTo(domain);
  const pipelines = search.pipeline ?? [1, 2, 4, 8].filter((p) => p <= base.model.layers);
  const points: InferenceEstimate[] = [];
  const byShape: { tensor: number; pipeline: number; answer: InferenceAnswer }[] = [];
  for (const tensor of tensors) {
    for (const pipeline of pipelines) {
      const shape = { tensor, pipeline, promptTokens: search.promptTokens, outputTokens: search.outputTokens };
      const probe = estimateInference(base, { ...shape, batch: 1 });
      if (!probe.ok) { byShape.push({ tensor, pipeline, answer: probe }); continue; }
      const batches = (search.batches ?? powersOfTwoUpTo(probe.maxBatch)).filter((b) => b <= probe.maxBatch);
      if (probe.maxBatch > 0 && search.batches === undefined && !batches.includes(probe.maxBatch)) batches.push(probe.maxBatch);
      let largest: InferenceAnswer = probe;
      for (const batch of batches) {
        const e = estimateInference(base, { ...shape, batch });
        if (e.ok) { points.push(e); largest = e; }
      }
      byShape.push({ tensor, pipeline, answer: largest });
    }
  }
  const meets = (p: InferenceEstimate) => (search.maxDecodeSecondsPerToken === undefined || p.decodeStepSeconds <= search.maxDecodeSecondsPerToken)
    && (search.maxPrefillSeconds === undefined || p.prefillSeconds <= search.maxPrefillSeconds);
  const ok = points.filter(meets);
  const best = ok.reduce<InferenceEstimate | undefined>((a, b) => (!a || b.tokensPerSecondPerGpu > a.tokensPerSecondPerGpu ? b : a), undefined);
  let closest: InferencePlanResult['closest'];
  if (!best && points.length > 0) {
    const fastest = points.reduce((a, b) => (b.decodeStepSeconds + b.prefillSeconds < a.decodeStepSeconds + a.prefillSeconds ? b : a));
    closest = {
      point: fastest,
      why: `no plan meets the latency bounds; the fastest (TP ${fastest.shape.tensor}, PP ${fastest.shape.pipeline}, batch ${fastest.shape.batch}) decodes a token in ${(fastest.decodeStepSeconds * 1000).toFixed(1)} ms with a first token after ${(fastest.prefillSeconds * 1000).toFixed(0)} ms`,
    };
  }
  return { points, frontier: latencyThroughputFrontier(points), best, byShape, closest };
}
