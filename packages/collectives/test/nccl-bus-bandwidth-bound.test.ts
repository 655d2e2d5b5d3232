import { describe, expect, it } from 'vitest';
import { KiB, GiB } from '@trainplan/units';
import { assertWithinBandwidthBound, busBandwidthLimit, collectiveCost, mayExceedWireRate, ncclCandidates, ncclTopology, withCollnet } from '../src/index.ts';
import type { CollectiveCost, CollectiveOp, CommGroup, Fabric } from '../src/index.ts';
import { gpusJoinedByNvlink, nvlinksToPeers } from '../src/gpus-joined-by-nvlink.ts';
import { PCIE_X16_GBPS } from '../src/pcie-bandwidth.ts';
import { A100_FABRIC, H100_FABRIC, H100_RING_ONLY_FABRIC, NDR8, V100_FABRIC } from './fixtures.ts';

const sizes = Array.from({ length: 13 }, (_, i) => KiB(4 ** i)).filter((b) => b <= GiB(16));
const ranks = [2, 4, 8, 16, 64, 512, 4096];
const fabrics = [['A100', A100_FABRIC], ['H100', H100_FABRIC], ['H100 ring-only', H100_RING_ONLY_FABRIC]] as const;
// Ops whose busbw is bounded by the per-rank rate (all-to-all has its own N/(N−1) bound, below).
const boundedOps = ['all-reduce', 'all-gather', 'reduce-scatter', 'broadcast', 'reduce'] as const satisfies readonly CollectiveOp[];

const layouts = (n: number): CommGroup[] => [
  { ranks: n, ranksPerNode: Math.min(n, 8) },
  { ranks: n, ranksPerNode: 1, concurrentGroupsPerNode: 8 },
];
const cases = fabrics.flatMap(([name, fabric]) => ranks.flatMap((n) => layouts(n).map((g) => [name, n, g.ranksPerNode, fabric, g] as const)));

/**
 * What a ring can reach (collectives-reference §3: per-node busbw ≤ min(B_intra, #NIC·B_NIC)): on one node the GPU's
 * links, across nodes its ranks forward (m−1)/m of its traffic over NVLink and the rest through one NIC per channel.
 * Every algorithm NCCL weighs routes so, tighter than the physical bound, which algorithms that reduce inside a node
 * before they send (hierarchical) pass.
 */
function ringRouteLimit(fabric: Fabric, group: CommGroup): number {
  const { placement } = ncclTopology(fabric, group);
  const m = placement.ranksPerNode;
  const links = m > 1 ? nvlinksToPeers(fabric, m - 1) : fabric.nvlinkCount;
  const perGpu = gpusJoinedByNvlink(fabric) ? links * fabric.nvlinkBandwidthPerLink : PCIE_X16_GBPS[fabric.generation] * 1e9;
  const nvlink = perGpu * placement.nvlinkShare;
  if (placement.nodes === 1) return nvlink;
  const nics = placement.nicsPerNode * fabric.nicBandwidth;
  return m > 1 ? Math.min((nvlink * m) / (m - 1), nics) : nics;
}

/** What `f` threw (undefined when it did not). */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('the bandwidth bound is the line rate the hardware states', () => {
  it('one node: the GPU\'s NVLink (A100: 12 links × 25 GB/s; H100: 18 × 25 GB/s)', () => {
    expect(busBandwidthLimit(A100_FABRIC, { ranks: 8, ranksPerNode: 8 }, 'all-reduce')).toBe(12 * 25e9);
    expect(busBandwidthLimit(H100_FABRIC, { ranks: 8, ranksPerNode: 8 }, 'all-reduce')).toBe(18 * 25e9);
  });
  it('across 4 DGX A100 nodes: the node cut, each node\'s share of the data over its 8 HDR NICs (8 × 25 GB/s)', () => {
    const group = { ranks: 32, ranksPerNode: 8 };
    // All-reduce: a node sends 2(N−1)/N·S = 1.5 S through 200 GB/s, busbw counting 2(n−1)/n·S = 1.9375 S.
    expect(busBandwidthLimit(A100_FABRIC, group, 'all-reduce') / (200e9 * (1.9375 / 1.5))).toBeCloseTo(1, 12);
    // Broadcast: a node without the root takes S whole through its NICs, busbw = algbw.
    expect(busBandwidthLimit(A100_FABRIC, group, 'broadcast')).toBe(200e9);
  });
  // QA: `trainplan collective --op all-reduce --gpu v100-32gb --nodes 2 --algorithm hierarchical` failed the sweep,
  // "busbw 50124488168.68438 B/s over the 50000000000 B/s per-rank bound", the NICs' 4 × 12.5 GB/s taken per rank.
  it('two DGX-1 nodes: a hierarchical all-reduce reduces in each node first and sends S per node, passing the NICs\' 50 GB/s of busbw', () => {
    const group = { ranks: 16, ranksPerNode: 8 };
    const nics = 4 * 12.5e9;
    // The node cut: 2(N−1)/N·S = S through 50 GB/s, while busbw counts 2(n−1)/n·S = 1.875 S: 93.75 GB/s.
    const nodeCut = nics * 1.875;
    expect(busBandwidthLimit(V100_FABRIC, group, 'all-reduce') / nodeCut).toBeCloseTo(1, 12);
    const bytes = GiB(1);
    const cost = collectiveCost({ op: 'all-reduce', bytes, group, fabric: V100_FABRIC, algorithm: 'hierarchical' });
    expect(cost.busBandwidth).toBeGreaterThan(nics);
    expect(cost.busBandwidth).toBeLessThanOrEqual(nodeCut);
    expect(cost.seconds).toBeGreaterThanOrEqual(bytes / nics);
  });
  it('with CollNet on, a hierarchical all-reduce whose inter-node step reduces in the switches passes the node cut, as CollNet alone may', () => {
    // 16 nodes × 2 A100s, each pair on its 2 HDR NICs (50 GB/s): a reduction in the GPUs needs 2·(15/16)·S per node through
    // them, busbw ≤ 50 × (31/32)/(15/16) = 51.7 GB/s; SHARP takes each node's S once up and once down, ≤ 2·(31/32)·50 = 96.9.
    const fabric = withCollnet({ ...A100_FABRIC, inNetworkReduction: true });
    const group = { ranks: 32, ranksPerNode: 2 };
    const cost = collectiveCost({ op: 'all-reduce', bytes: GiB(1), group, fabric, algorithm: 'hierarchical' });
    expect(cost.busBandwidth).toBeGreaterThan(busBandwidthLimit(fabric, group, 'all-reduce'));
    expect(cost.busBandwidth).toBeLessThanOrEqual(2 * (31 / 32) * 50e9);
  });
  it('two A100s per node with eight NDR NICs: each node\'s egress per rank, NVLink plus half the NICs, over what a ring reaches', () => {
    const fabric: Fabric = { ...A100_FABRIC, gpusPerNode: 2, nicsPerNode: 8, nicBandwidth: NDR8.nicBandwidth };
    const group = { ranks: 4, ranksPerNode: 2 };
    // 300 GB/s of NVLink + 400 / 2 of NICs per rank = 500, under the node cut's 400 × (3/4)/(1/2) = 600.
    expect(busBandwidthLimit(fabric, group, 'all-reduce')).toBe(300e9 + 400e9 / 2);
    // A real ring there stays far under it: each channel leaves a node up one GPU's host link, and the two A100s feed the
    // eight NICs over their PCIe Gen4 x16 links alone (31.5 GB/s each, PCI-SIG 4.0), so the ring carries at most 2 × 31.5
    // across nodes — more than one NDR NIC's 50 (both GPUs send), never the 400 of all eight.
    const ring = collectiveCost({ op: 'all-reduce', bytes: GiB(1), group, fabric, algorithm: 'ring' });
    expect(ring.busBandwidth).toBeGreaterThan(50e9);
    expect(ring.busBandwidth).toBeLessThanOrEqual(2 * 31.5e9);
  });
  it('the check throws on a cost 1% past the bound, as a bug (never the RangeError of an algorithm the machine lacks), and lets NVLS past it', () => {
    const group = { ranks: 8, ranksPerNode: 8 };
    const real = collectiveCost({ op: 'all-reduce', bytes: GiB(1), group, fabric: H100_RING_ONLY_FABRIC });
    const over: CollectiveCost = { ...real, busBandwidth: 1.01 * busBandwidthLimit(H100_RING_ONLY_FABRIC, group, 'all-reduce') };
    const error = thrown(() => assertWithinBandwidthBound({ op: 'all-reduce', fabric: H100_RING_ONLY_FABRIC, group }, over));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(/^the collective cost model passed its own bandwidth bound: all-reduce \S+ on 8 ranks costs 454\.500 GB\/s of busbw, over the 450\.000 GB\/s no algorithm can reach here \(one node: each GPU's 18 NVLinks × 25\.0 GB\/s\)$/);
    expect(assertWithinBandwidthBound({ op: 'all-reduce', fabric: H100_FABRIC, group }, { ...over, algorithm: 'nvls' }).algorithm).toBe('nvls');
    expect(assertWithinBandwidthBound({ op: 'all-reduce', fabric: H100_RING_ONLY_FABRIC, group }, real)).toBe(real);
  });
  it('collectiveCost checks it on every answer: a sweep over sizes, ranks and algorithms never trips it', () => {
    for (const [, fabric] of fabrics) {
      for (const group of [{ ranks: 8, ranksPerNode: 8 }, { ranks: 64, ranksPerNode: 8 }, { ranks: 16, ranksPerNode: 1, concurrentGroupsPerNode: 8 }]) {
        for (const bytes of sizes) {
          for (const op of boundedOps) expect(() => collectiveCost({ op, bytes, group, fabric })).not.toThrow();
          expect(() => collectiveCost({ op: 'all-reduce', bytes, group, fabric, algorithm: 'hierarchical' })).not.toThrow();
        }
      }
    }
  });
});

describe('no (algorithm, protocol) NCCL weighs beats what a ring\'s route reaches, 1 KiB – 16 GiB', () => {
  it.each(cases)('%s, %i ranks, %i per node', (_name, _n, _ppn, fabric, group) => {
    const limit = ringRouteLimit(fabric, group);
    for (const op of boundedOps) {
      // The physical bound is never below what a ring reaches: a ring is an algorithm like any other.
      expect(busBandwidthLimit(fabric, group, op)).toBeGreaterThanOrEqual(limit);
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
    expect(nvls?.busBandwidth).toBeGreaterThan(busBandwidthLimit(H100_FABRIC, { ranks: 8, ranksPerNode: 8 }, 'all-reduce'));
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
