import { describe, expect, it } from 'vitest';
import { KiB, GiB } from '@trainplan/units';
import { ncclCandidates, ncclTopology } from '../src/index.ts';
import type { CollectiveCost, CollectiveOp, CommGroup, Fabric } from '../src/index.ts';
import { A100_FABRIC, H100_FABRIC, H100_RING_ONLY_FABRIC } from './fixtures.ts';

/**
 * The per-rank bandwidth limit a bandwidth-optimal algorithm can reach, in busbw terms: the GPU's
 * NVLink line rate on one node; across nodes the line rate of the NICs this group owns per node
 * (every inter-node channel crosses them), and NVLink too when several ranks share a node
 * (reference §3: per-node busbw ≤ min(B_intra, #NIC·B_NIC)). This is the Patarasuk-Yuan bound
 * t ≥ 2(n−1)/n·S/B restated as busbw ≤ B.
 */
function busBandwidthLimit(fabric: Fabric, group: CommGroup): number {
  const { placement } = ncclTopology(fabric, group);
  const nvlink = fabric.nvlinkCount * fabric.nvlinkBandwidthPerLink * placement.nvlinkShare;
  if (placement.nodes === 1) return nvlink;
  const nics = placement.nicsPerNode * fabric.nicBandwidth;
  return placement.ranksPerNode > 1 ? Math.min(nvlink, nics) : nics;
}

/**
 * The exceptions the reference names (§2, last sentence; nccl-tests#196, #212): NVLS reduces
 * inside the NVSwitch, so each GPU sends its data once and busbw (480 on H100) exceeds the
 * 450 GB/s wire rate; NVLSTree inherits that; and on exactly 2 nodes NCCL's tree is costed on
 * bwIntra (which pass 2 of the search raises to up to 2 × bwInter), so 2-node Tree busbw can
 * exceed the NIC rate. Every other pair must stay at or under the limit.
 */
function mayExceedWireRate(cost: CollectiveCost, group: CommGroup): boolean {
  const nodes = group.ranks / group.ranksPerNode;
  return cost.algorithm === 'nvls' || cost.algorithm === 'nvls-tree' || (cost.algorithm === 'tree' && nodes === 2);
}

const sizes = Array.from({ length: 13 }, (_, i) => KiB(4 ** i)).filter((b) => b <= GiB(16));
const ranks = [2, 4, 8, 16, 64, 512, 4096];
const fabrics = [['A100', A100_FABRIC], ['H100', H100_FABRIC], ['H100 ring-only', H100_RING_ONLY_FABRIC]] as const;
// Ops whose busbw is bounded by the per-rank rate (all-to-all has its own N/(N−1) bound, below).
const boundedOps: readonly CollectiveOp[] = ['all-reduce', 'all-gather', 'reduce-scatter', 'broadcast', 'reduce'];

const layouts = (n: number): CommGroup[] => [
  { ranks: n, ranksPerNode: Math.min(n, 8) },
  { ranks: n, ranksPerNode: 1, concurrentGroupsPerNode: 8 },
];
const cases = fabrics.flatMap(([name, fabric]) => ranks.flatMap((n) => layouts(n).map((g) => [name, n, g.ranksPerNode, fabric, g] as const)));

describe('no (algorithm, protocol) NCCL weighs beats the per-rank bandwidth limit, 1 KiB – 16 GiB', () => {
  it.each(cases)('%s, %i ranks, %i per node', (_name, _n, _ppn, fabric, group) => {
    const limit = busBandwidthLimit(fabric, group);
    for (const op of boundedOps) {
      for (const bytes of sizes) {
        for (const cost of ncclCandidates({ op, bytes, group, fabric })) {
          if (mayExceedWireRate(cost, group)) continue;
          expect(cost.busBandwidth, `${op} ${bytes} B ${cost.algorithm}/${cost.protocol}`).toBeLessThanOrEqual(limit);
        }
      }
    }
  });

  it('the exception is real: NVLS on 8×H100 exceeds the 450 GB/s NVLink wire rate', () => {
    const [nvls] = ncclCandidates({ op: 'all-reduce', bytes: GiB(16), group: { ranks: 8, ranksPerNode: 8 }, fabric: H100_FABRIC })
      .filter((c) => c.algorithm === 'nvls');
    expect(nvls?.busBandwidth).toBeGreaterThan(busBandwidthLimit(H100_FABRIC, { ranks: 8, ranksPerNode: 8 }));
  });

  it.each(cases)('all-to-all on %s, %i ranks, %i per node stays under N/(N−1) × the NIC limit', (_name, n, ppn, fabric, group) => {
    const nodes = n / ppn;
    const nicPerGpu = Math.min(1, ncclTopology(fabric, group).placement.nicsPerNode / ppn) * fabric.nicBandwidth;
    const nvlink = fabric.nvlinkCount * fabric.nvlinkBandwidthPerLink;
    // Per rank, S·(n−ppn)/n crosses the NIC and S·(ppn−1)/n NVLink: t ≥ max of the two.
    for (const bytes of sizes) {
      for (const cost of ncclCandidates({ op: 'all-to-all', bytes, group, fabric })) {
        const floorSeconds = Math.max(((n - ppn) / n) * bytes / nicPerGpu, ((ppn - 1) / n) * bytes / nvlink);
        expect(cost.seconds).toBeGreaterThanOrEqual(floorSeconds);
        if (nodes > 1) expect(cost.busBandwidth).toBeLessThanOrEqual((nodes / (nodes - 1)) * nicPerGpu);
      }
    }
  });
});
