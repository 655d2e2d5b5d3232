import { hours, million } from '@trainplan/units';
import type { InferenceEstimate } from './inference-plan.ts';

/** What a serving point costs, in the currency of the price per GPU-hour given. */
export interface ServingCost {
  /** A million generated tokens: at the point's own throughput, or with a request rate at the load it serves. */
  readonly perMillionOutputTokens: number;
  /** With a request rate: an hour of the GPUs it needs (load.gpus × the price). */
  readonly perHour?: number;
}

/**
 * A serving point's cost at `pricePerGpuHour`: its GPUs' time over the tokens they generate in it. A
 * generated token's time includes the prompts prefilled beside it, so prompts have no price of their own.
 * - Continuous batching: the point's tokens/s per GPU, whose iterations already carry the prompts' prefill.
 * - Static batching: a batch's b·O tokens over its prefill and O − 1 decode steps (the steady decode's
 *   tokens/s per GPU leaves the prefill out).
 * - With a request rate (`load`): the replicas the rate needs are paid busy or idle, so their hour over the
 *   λ·O tokens they generate in it; at a utilization ρ that is 1/ρ of the full-throughput figure.
 */
export function servingCost(e: InferenceEstimate, pricePerGpuHour: number): ServingCost {
  const perGpuSecond = pricePerGpuHour / hours(1);
  const { batch, outputTokens, tensor, pipeline } = e.shape;
  if (e.load !== undefined) {
    const tokensPerSecond = e.load.requestsPerSecond * outputTokens;
    return { perMillionOutputTokens: (million(1) * e.load.gpus * perGpuSecond) / tokensPerSecond, perHour: e.load.gpus * pricePerGpuHour };
  }
  const tokensPerSecondPerGpu = e.batching === 'continuous' ? e.tokensPerSecondPerGpu
    : (batch * outputTokens) / (e.prefillSeconds + (outputTokens - 1) * e.decodeStepSeconds) / (tensor * pipeline);
  return { perMillionOutputTokens: (million(1) * perGpuSecond) / tokensPerSecondPerGpu };
}
