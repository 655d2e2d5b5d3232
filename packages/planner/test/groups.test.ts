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
