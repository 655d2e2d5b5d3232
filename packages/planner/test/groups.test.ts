import { describe, expect, it } from 'vitest';
import { parallelGroups } from '../src/index.ts';
import type { PlanInput } from '../src/index.ts';

// parallelGroups reads only the sizes and the NVLink domain, so a partial input is enough here.
const groups = (tensor: number, context: number, data: number, nvlinkDomainGpus: number) =>
  parallelGroups({ tensor, context, data, nvlinkDomainGpus } as PlanInput);

describe('parallel groups on Megatron\'s tp-cp-dp-pp rank order', () => {
  it('on 8-GPU nodes, TP 8 fills a node and DP takes one rank per node', () => {
    const g = groups(8, 1, 16, 8);
    expect(g.tensor).toEqual({ ranks: 8, ranksPerNode: 8, concurrentGroupsPerNode: 1 });
    expect(g.data).toEqual({ ranks: 16, ranksPerNode: 1, concurrentGroupsPerNode: 8 });
  });

  it('the gradient group spans data and context ranks: TP 4 · CP 2 · DP 2 sums over 4 ranks, 2 per node', () => {
    const g = groups(4, 2, 2, 8);
    expect(g.context).toEqual({ ranks: 2, ranksPerNode: 2, concurrentGroupsPerNode: 4 });
    expect(g.data).toEqual({ ranks: 4, ranksPerNode: 2, concurrentGroupsPerNode: 4 });
  });

  it('TP 2 leaves four ranks of each data-parallel group per node', () => {
    expect(groups(2, 1, 16, 8).data).toEqual({ ranks: 16, ranksPerNode: 4, concurrentGroupsPerNode: 2 });
  });

  it('on a 72-GPU NVL72 domain, ranks per domain always divide the group (256 = 4 × 64)', () => {
    const g = groups(1, 1, 256, 72);
    expect(g.data.ranksPerNode).toBe(64);
    expect(g.data.ranks % g.data.ranksPerNode).toBe(0);
    // A group that fits the domain stays whole.
    expect(groups(8, 1, 8, 72).data.ranksPerNode).toBe(8);
    // 72 = 2 × 36: TP 2 leaves 36 slots per domain; DP 48 splits 24 + 24.
    expect(groups(2, 1, 48, 72).data.ranksPerNode).toBe(24);
  });
});

describe('groups that cross node (or NVLink-domain) edges', () => {
  const withPipeline = (tensor: number, data: number, pipeline: number, nvlinkDomainGpus: number) =>
    parallelGroups({ tensor, context: 1, data, pipeline, nvlinkDomainGpus } as PlanInput);

  it('a pipeline longer than a node crosses nodes even when a stage is smaller than one: TP 2 · DP 2 · PP 4 on two 8-GPU nodes (stage 1 → 2)', () => {
    expect(withPipeline(2, 2, 4, 8).pipelineCrossesNodes).toBe(true);
    expect(withPipeline(2, 2, 2, 8).pipelineCrossesNodes).toBe(false); // 8 GPUs: one node
    expect(withPipeline(8, 4, 1, 8).pipelineCrossesNodes).toBe(false); // no pipeline
  });

  it('TP 16 on 72-GPU NVL72 racks: groups tile across the rack edge (ranks 64–79: 8 in each rack), so TP crosses', () => {
    const straddling = withPipeline(16, 9, 1, 72); // 144 GPUs, two racks
    expect(straddling.tensor).toMatchObject({ ranks: 16, ranksPerNode: 8 });
    expect(straddling.tensorCrossesNodes).toBe(true);
    // 64 GPUs (TP 16 · DP 4) inside one rack: every group is whole.
    expect(withPipeline(16, 4, 1, 72).tensor).toMatchObject({ ranks: 16, ranksPerNode: 16 });
    expect(withPipeline(16, 4, 1, 72).tensorCrossesNodes).toBe(false);
    // TP 8 divides 72: no group straddles, however many racks.
    expect(withPipeline(8, 36, 1, 72).tensorCrossesNodes).toBe(false);
  });

  it('context and data groups straddle rack edges too: TP 8 · CP 4 spans 32 GPUs, and ranks 64+r … 88+r sit in two racks', () => {
    const g = parallelGroups({ tensor: 8, context: 4, data: 9, pipeline: 1, nvlinkDomainGpus: 72 } as PlanInput);
    expect(g.context.ranks).toBe(4);
    expect(g.context.ranksPerNode).toBeLessThan(4);
    // Inside one rack (CP 4 · TP 8 · DP 2 = 64 GPUs) no group crosses an edge.
    expect(parallelGroups({ tensor: 8, context: 4, data: 2, pipeline: 1, nvlinkDomainGpus: 72 } as PlanInput).context.ranksPerNode).toBe(4);
  });
});
