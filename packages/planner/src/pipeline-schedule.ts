import type { Seconds } from '@trainplan/units';

/**
 * Time of one step's pipeline for per-stage micro-batch times t_i (forward + backward of one
 * micro-batch on stage i). 1F1B (Narayanan et al. SC'21 §2.2): the slowest stage sets the pace of
 * the m micro-batches, and the fill and drain add every other stage's time once: m identical jobs
 * through a flow shop take Σt_i + (m − 1)·max t_i (the proportionate flow shop's makespan; Pinedo,
 * "Scheduling", §6.1), so the bubble is Σt_i − max t_i. Equal stages give SC'21's (p − 1)·t, a bubble of
 * (p − 1)/m of the ideal time; the interleaved schedule's chunks are 1/v of a stage, dividing it by v.
 * (It was (p − 1)·mean t_i, over by max − mean where the embedding and output layer load the end
 * stages: QA, stages [1, 1, 1, 2] 3.75 for 3.)
 */
export function pipelineTime(input: { stageSeconds: readonly Seconds[]; microBatches: number; virtualStages: number }): {
  steadySeconds: Seconds; bubbleSeconds: Seconds;
} {
  const slowest = Math.max(...input.stageSeconds);
  const sum = input.stageSeconds.reduce((a, b) => a + b, 0);
  return { steadySeconds: input.microBatches * slowest, bubbleSeconds: (sum - slowest) / input.virtualStages };
}
