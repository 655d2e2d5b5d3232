import { describe, expect, it } from 'vitest';
import { KiB, GiB } from '@trainplan/units';
import { assertWithinBandwidthBound, busBandwidthLimit, collectiveCost, mayExceedWireRate, ncclCandidates, ncclTopology } from '../src/index.ts';
import type { CollectiveCost, CollectiveOp, CommGroup, Fabric } from '../src/index.ts';
import { A100_FABRIC, H100_FABRIC, H100_RING_ONLY_FABRIC, NDR8 } from './fixtures.ts';

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

describe('the per-rank limit is the line rate the hardware states', () => {
  it('one node: the GPU\'s NVLink (A100: 12 links × 25 GB/s; H100: 18 × 25 GB/s)', () => {
    expect(busBandwidthLimit(A100_FABRIC, { ranks: 8, ranksPerNode: 8 })).toBe(12 * 25e9);
    expect(busBandwidthLimit(H100_FABRIC, { ranks: 8, ranksPerNode: 8 })).toBe(18 * 25e9);
  });
  it('across DGX A100 nodes: the node\'s 8 HDR NICs (8 × 25 GB/s), under its NVLink', () => {
    expect(busBandwidthLimit(A100_FABRIC, { ranks: 32, ranksPerNode: 8 })).toBe(8 * 25e9);
  });
  it('two A100s per node with eight NDR NICs: NVLink carries only (m−1)/m of a ring\'s traffic, so the NICs bind (400 GB/s, not NVLink\'s 300)', () => {
    const fabric: Fabric = { ...A100_FABRIC, gpusPerNode: 2, nicsPerNode: 8, nicBandwidth: NDR8.nicBandwidth };
    const group = { ranks: 4, ranksPerNode: 2 };
    expect(busBandwidthLimit(fabric, group)).toBe(8 * 50e9);
    // A real ring there passes NVLink's line rate (NCCL's ring model: each GPU forwards half its channels over NVLink).
    const ring = collectiveCost({ op: 'all-reduce', bytes: GiB(1), group, fabric, algorithm: 'ring' });
    expect(ring.busBandwidth).toBeGreaterThan(12 * 25e9);
    expect(ring.busBandwidth).toBeLessThanOrEqual(busBandwidthLimit(fabric, group));
  });
  it('the check throws on a cost 1% past the limit, and lets NVLS past it (in-switch reduction)', () => {
    const group = { ranks: 8, ranksPerNode: 8 };
    const real = collectiveCost({ op: 'all-reduce', bytes: GiB(1), group, fabric: H100_RING_ONLY_FABRIC });
    const over: CollectiveCost = { ...real, busBandwidth: 1.01 * busBandwidthLimit(H100_RING_ONLY_FABRIC, group) };
    expect(() => assertWithinBandwidthBound({ op: 'all-reduce', fabric: H100_RING_ONLY_FABRIC, group }, over)).toThrow(/per-rank bound/);
    expect(assertWithinBandwidthBound({ op: 'all-reduce', fabric: H100_FABRIC, group }, { ...over, algorithm: 'nvls' }).algorithm).toBe('nvls');
    expect(assertWithinBandwidthBound({ op: 'all-reduce', fabric: H100_RING_ONLY_FABRIC, group }, real)).toBe(real);
  });
  it('collectiveCost checks it on every answer: a sweep over sizes, ranks and algorithms never trips it', () => {
    for (const [, fabric] of fabrics) {
      for (const group of [{ ranks: 8, ranksPerNode: 8 }, { ranks: 64, ranksPerNode: 8 }, { ranks: 16, ranksPerNode: 1, concurrentGroupsPerNode: 8 }]) {
        for (const bytes of sizes) {
          for (const op of boundedOps) expect(() => collectiveCost({ op, bytes, group, fabric })).not.toThrow();
        }
      }
    }
  });
});

describe('no (algorithm, protocol) NCCL weighs beats the per-rank bandwidth limit, 1 KiB – 16 GiB', () => {
  it.each(cases)('%s, %i ranks, %i per node', (_name, _n, _ppn, fabric, group) => {
    const limit = busBandwidthLimit(fabric, group);
    for (const op of boundedOps) {
      for (const bytes of sizes) {
        for (const cost of ncclCandidates({ op, bytes, group, fabric })) {
          if (mayExceedWireRate(cost.algorithm, group)) continue;
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
