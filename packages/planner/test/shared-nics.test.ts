import { describe, expect, it } from 'vitest';
import { estimatePlan, type PlanInput } from '../src/index.ts';
import { gpt3OnSelene } from './fixtures.ts';

/**
 * Every GPU of a node sends across a pipeline boundary (or around a context ring) at once: with half as many NICs as
 * GPUs (4 for 8, the PCIe servers' and Jean Zay's), each gets half a NIC. QA: under sequence parallelism the pipeline
 * sends were costed on a whole NIC each, the same on 4 NICs as on 8, where without it they doubled.
 */
describe('cross-node sends share the node\'s NICs', () => {
  const plan = (nicsPerNode: number, overrides: Partial<PlanInput>): number => {
    const r = estimatePlan({ ...gpt3OnSelene, fabric: { ...gpt3OnSelene.fabric, nicsPerNode }, ...overrides });
    if (!r.ok) throw new Error(r.message);
    return r.breakdown.pipelineCommSeconds;
  };
  it.each([
    ['with sequence parallelism', { sequenceParallel: true }],
    ['without it (scatter-gather)', { sequenceParallel: false, scatterGather: true }],
  ] as const)('pipeline sends %s take longer on 4 NICs a node than on 8: the bandwidth term doubles', (_name, overrides) => {
    const eight = plan(8, overrides);
    const four = plan(4, overrides);
    // Latency terms are the same; the byte term doubles: more than 1.5× here (megabytes a send, microseconds of latency).
    expect(four / eight).toBeGreaterThan(1.5);
    expect(four / eight).toBeLessThanOrEqual(2.0001);
  });
});
