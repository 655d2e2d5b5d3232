import { describe, expect, it } from 'vitest';
import { runEstimate, type EstimateJson } from '../src/index.ts';

/**
 * A node of fewer GPUs than its system keeps only the NICs its GPUs reach (fabric-cache.ts nodeNetwork): one GPU of
 * a DGX H100 reaches one NDR NIC, not all eight. Found by a QA pass: data-parallel time did not change between 8, 4,
 * 2 and 1 GPUs per node, so a one-GPU node had a whole DGX's network.
 */
const dataParallelSeconds = (gpusPerNode: number): number => {
  const answer = runEstimate({
    model: 'llama3-8b',
    cluster: { gpu: 'h100-sxm', gpusPerNode, nodes: 64 / gpusPerNode },
    training: { globalBatchSize: 512, microBatchSize: 1 },
    parallelism: { tensor: 1, recompute: 'none', zeroStage: 1 },
  }) as EstimateJson;
  if (!answer.ok) throw new Error(JSON.stringify(answer.issues));
  return answer.breakdown.dataParallelCommSeconds;
};

describe('nodes of fewer GPUs than the system keep the NICs their GPUs reach', () => {
  it('64 data-parallel H100s: one GPU per node has an eighth of the node egress of eight, so the ring is slower', () => {
    const eight = dataParallelSeconds(8);
    const one = dataParallelSeconds(1);
    expect(eight).toBeGreaterThan(0);
    // NCCL's ring is bound by each node's NICs: 8 × NDR for a DGX node, 1 × NDR for a one-GPU node.
    expect(one / eight).toBeGreaterThan(4);
  });
  it('halving the GPUs per node never speeds the data-parallel reduction up', () => {
    let previous = 0;
    for (const gpusPerNode of [8, 4, 2, 1]) {
      const seconds = dataParallelSeconds(gpusPerNode);
      expect(seconds).toBeGreaterThanOrEqual(previous);
      previous = seconds;
    }
  });
});
