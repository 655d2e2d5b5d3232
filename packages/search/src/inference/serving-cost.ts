import { hours, million } from '@trainplan/units';
import type { InferenceEstimate } from './inference-estimate.ts';

/** What a serving point costs, in the currency of the price per GPU-hour given. */
export interface ServingCost {
  /** A million generated tokens: at the point's own throughput, or with a request rate at the load it serves. */
  readonly perMillionOutputTokens: number;
  /** With a request rate: an hour of the GPUs it needs (load.gpus × the price). */
  readonly perHour?: number;
}

/**
 * A serving point's cost at `pricePerGpuHour`: its GPUs' time over the tokens they generate in it, at the
 * point's tokens/s per GPU, which counts the prompts' prefill (continuous batching's iterations carry it;
 * static batching's figure is over a batch's whole life), so prompts have no price of their own. With a
 * request rate (`load`) the replicas the rate needs are paid busy or idle: their hour over the λ·O tokens
 * they generate in it, 1/ρ of the full-throughput figure at a utilization ρ.
 */
export function servingCost(e: InferenceEstimate, pricePerGpuHour: number): ServingCost {
  const perGpuSecond = pricePerGpuHour / hours(1);
  if (e.load !== undefined) {
    const tokensPerSecond = e.load.requestsPerSecond * e.shape.outputTokens;
    return { perMillionOutputTokens: (million(1) * e.load.gpus * perGpuSecond) / tokensPerSecond, perHour: e.load.gpus * pricePerGpuHour };
  }
  return { perMillionOutputTokens: (million(1) * perGpuSecond) / e.tokensPerSecondPerGpu };
}
