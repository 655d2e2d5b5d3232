import { million } from '@trainplan/units';
import { weightReplicas } from './groups.ts';
import type { PlanInput } from './plan-input.ts';

/**
 * The gradient bucket whose reduction cannot hide behind the backward pass, per pipeline stage, in
 * parameters. Megatron-Core's data-parallel wrapper groups gradients into buckets of
 * `bucket_size` parameters, by default max(40M, 1M · d) with d its dp-cp group's size (megatron/core/distributed/
 * distributed_data_parallel_config.py: "larger DP sizes need larger buckets to ensure collectives do
 * not become latency-bound"), filled in reverse parameter order, so the bucket holding the first
 * layers (and, on the first stage, the word embedding, one parameter that is never split) is ready
 * only when the backward pass ends. With --overlap-grad-reduce its reduce-scatter (all-reduce without a
 * sharded optimizer) runs after the last backward kernel, and with --overlap-param-gather its
 * all-gather is the one the next forward waits for (the distributed optimizer dispatches the first
 * bucket's all-gather after the step and prefetches the rest). That bucket's collectives are
 * therefore exposed whatever the compute window.
 */
export function exposedBucketParameters(input: PlanInput, stageParameters: readonly number[]): number[] {
  const bucket = Math.max(million(40), million(1) * weightReplicas(input));
  const embedding = (input.model.vocabSize * input.model.hiddenSize) / input.tensor;
  return stageParameters.map((n, i) => Math.min(n, i === 0 ? Math.max(bucket, embedding) : bucket));
}
