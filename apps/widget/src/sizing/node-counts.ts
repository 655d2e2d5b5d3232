/**
 * Node counts at which a configuration runs unchanged: tensor · pipeline · context fixed, data
 * parallelism d = GPUs / (t·p·c) a whole number dividing the global batch into micro-batches
 * (Megatron's rule: globalBatch divisible by microBatch · d), GPUs filling whole nodes. With the interleaved schedule
 * (v > 1), `rounds` is the pipeline's p: each replica's micro-batches per step, globalBatch / (microBatch · d), must be
 * a multiple of it (megatron/core/pipeline_parallel/schedules.py, the planner's 'interleave-rounds' check); without
 * the rule, 243 nodes of a 540-sequence batch at p = 9 (20 micro-batches) were drawn as refused sizes.
 */
export function validNodeCounts(input: {
  globalBatchSize: number; microBatchSize: number; modelParallel: number; gpusPerNode: number; rounds?: number; maxNodes?: number;
}): number[] {
  const { globalBatchSize: gbs, microBatchSize: mbs, modelParallel: mp, gpusPerNode: g, rounds = 1 } = input;
  const maxNodes = input.maxNodes ?? 100_000;
  if (gbs % mbs !== 0) return [];
  const perReplica = gbs / mbs;
  const out = new Set<number>();
  for (let i = 1; i * i <= perReplica; i += 1) {
    if (perReplica % i !== 0) continue;
    for (const d of [i, perReplica / i]) {
      const gpus = d * mp;
      if (gpus % g === 0 && gpus / g <= maxNodes && (perReplica / d) % rounds === 0) out.add(gpus / g);
    }
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * Up to 2·span + 1 node counts for a scaling curve: the valid count nearest to current · 2^k for
 * k = −span … span (nearest on a log scale), always including the current count.
 */
export function scalingNodeCounts(valid: readonly number[], current: number, span = 3): number[] {
  if (valid.length === 0) return [current];
  const picked = new Set<number>([current]);
  for (let k = -span; k <= span; k += 1) {
    const target = Math.log2(current) + k;
    let best = valid[0]!;
    for (const n of valid) if (Math.abs(Math.log2(n) - target) < Math.abs(Math.log2(best) - target)) best = n;
    picked.add(best);
  }
  return [...picked].sort((a, b) => a - b);
}
