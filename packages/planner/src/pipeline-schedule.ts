import type { Seconds } from '@trainplan/units';

/**
 * Time of one step's pipeline for per-stage micro-batch times t_i (forward + backward of one
 * micro-batch on stage i). 1F1B (Narayanan et al. SC'21 §2.2): the slowest stage sets the pace of
 * the m micro-batches, and warm-up plus cool-down add (p − 1) stage-times, divided by v with the
 * interleaved schedule, so the bubble is (p − 1)/(v·m) of the ideal time when stages are equal.
 */
export function pipelineTime(input: { stageSeconds: readonly Seconds[]; microBatches: number; virtualStages: number }): {
  steadySeconds: Seconds; bubbleSeconds: Seconds;
} {
  const p = input.stageSeconds.length;
  const slowest = Math.max(...input.stageSeconds);
  const mean = input.stageSeconds.reduce((a, b) => a + b, 0) / p;
  return { steadySeconds: input.microBatches * slowest, bubbleSeconds: p > 1 ? ((p - 1) / input.virtualStages) * mean : 0 };
}
