import { describe, expect, it } from 'vitest';
import { GiB, MiB, toGBps, toUs } from '@trainplan/units';
import { collectiveCost, ncclCandidates, ncclPredictedCost } from '../src/index.ts';
import type { CommGroup, Fabric } from '../src/index.ts';
import { A100_FABRIC, GB200_NVL72_FABRIC, H100_FABRIC, H100_RING_ONLY_FABRIC, V100_FABRIC } from './fixtures.ts';

const node8: CommGroup = { ranks: 8, ranksPerNode: 8 };
const dgxA100x16: CommGroup = { ranks: 128, ranksPerNode: 8 };
const allReduce = (fabric: Fabric, group: CommGroup, bytes: number) =>
  collectiveCost({ op: 'all-reduce', bytes, group, fabric });
/** NCCL's own predicted cost (its tuner's time), which the reference's §1 table tabulates. */
const predictedAllReduce = (fabric: Fabric, group: CommGroup, bytes: number) =>
  ncclPredictedCost({ op: 'all-reduce', bytes, group, fabric });
const within = (actual: number, expected: number, tolerance: number) =>
  expect(Math.abs(actual / expected - 1)).toBeLessThanOrEqual(tolerance);

/**
 * collectives-reference §1 "What this model predicts": all-reduce busbw in GB/s at nccl-tests
 * sizes (powers of two), with the algorithm/protocol NCCL's argmin picks; within ±3%.
 */
const sizes = [MiB(1), MiB(8), MiB(64), MiB(256), GiB(1), GiB(8)] as const;
const table: readonly [string, Fabric, CommGroup, readonly (readonly [number, string])[], number, string][] = [
  ['8×A100 NVSwitch (12×20)', A100_FABRIC, node8,
    [[51, 'ring/LL'], [137, 'ring/LL128'], [215, 'ring/Simple'], [233, 'ring/Simple'], [238, 'ring/Simple'], [240, 'ring/Simple']],
    15.0, 'ring/LL'],
  ['8×H100 + NVLS', H100_FABRIC, node8,
    [[66, 'ring/LL'], [263, 'nvls/Simple'], [432, 'nvls/Simple'], [464, 'nvls/Simple'], [473, 'nvls/Simple'], [476, 'nvls/Simple']],
    15.0, 'ring/LL'],
  ['8×H100 ring only (12×30)', H100_RING_ONLY_FABRIC, node8,
    [[66, 'ring/LL'], [173, 'ring/LL128'], [307, 'ring/Simple'], [345, 'ring/Simple'], [356, 'ring/Simple'], [360, 'ring/Simple']],
    15.0, 'ring/LL'],
  ['16×DGX-A100, 8×HDR (8×24)', A100_FABRIC, dgxA100x16,
    [[17, 'tree/LL128'], [70, 'tree/LL128'], [110, 'tree/LL128'], [137, 'ring/LL128'], [167, 'ring/Simple'], [189, 'ring/Simple']],
    55, 'tree/LL'],
];

describe('NCCL v2.30.x tuner reproduces the reference §1 prediction table within ±3%', () => {
  const cells = table.flatMap(([name, fabric, group, row]) =>
    row.map(([busbw, choice], i) => [name, sizes[i] ?? 0, busbw, choice, fabric, group] as const));
  it.each(cells)('%s at %i B: busbw %d GB/s with %s', (_name, bytes, busbw, choice, fabric, group) => {
    const cost = predictedAllReduce(fabric, group, bytes);
    within(toGBps(cost.busBandwidth), busbw, 0.03);
    expect(`${cost.algorithm}/${cost.protocol}`).toBe(choice);
  });

  it.each(table.map(([name, fabric, group, , floorUs, choice]) => [name, floorUs, choice, fabric, group] as const))(
    '%s: latency floor %d µs with %s', (_name, floorUs, choice, fabric, group) => {
      const cost = predictedAllReduce(fabric, group, 8);
      within(toUs(cost.seconds), floorUs, 0.03);
      expect(`${cost.algorithm}/${cost.protocol}`).toBe(choice);
    });

  it('8×H100 NVLS at 8 GiB: algbw 272 GB/s', () => {
    within(toGBps(predictedAllReduce(H100_FABRIC, node8, GiB(8)).algBandwidth), 272, 0.03);
  });
});

describe('collectiveCost: auto is the argmin, a named algorithm is forced', () => {
  it('auto picks the fastest of all candidates NCCL weighs, by NCCL\'s predicted time', () => {
    for (const bytes of [MiB(1), MiB(64), GiB(1)]) {
      const best = predictedAllReduce(H100_FABRIC, dgxA100x16, bytes);
      const all = ncclCandidates({ op: 'all-reduce', bytes, group: dgxA100x16, fabric: H100_FABRIC });
      expect(best.seconds).toBe(Math.min(...all.map((c) => c.seconds)));
    }
  });

  it('forcing ring on an NVLS node gives the ring-only 360 GB/s (NCCL_ALGO=RING)', () => {
    const ring = collectiveCost({ op: 'all-reduce', bytes: GiB(8), group: node8, fabric: H100_FABRIC, algorithm: 'ring' });
    expect(ring.algorithm).toBe('ring');
    within(toGBps(ring.busBandwidth), 360, 0.03);
  });

  it.each([
    ['nvls', 'all-reduce', A100_FABRIC, node8, /NVLink SHARP/],
    ['nvls', 'all-reduce', H100_RING_ONLY_FABRIC, node8, /NVLink SHARP/],
    ['nvls-tree', 'all-reduce', H100_FABRIC, node8, /single node/],
    ['nvls', 'all-reduce', H100_FABRIC, dgxA100x16, /CollNet/],
    ['tree', 'all-gather', A100_FABRIC, node8, /does not implement/],
    ['pat', 'all-gather', A100_FABRIC, dgxA100x16, /1 GPU per node: give gpusPerNode 1/],
    ['collnet-direct', 'all-reduce', A100_FABRIC, dgxA100x16, /CollNet is off, as NCCL leaves it by default/],
    ['collnet-chain', 'all-reduce', A100_FABRIC, dgxA100x16, /CollNet is off, as NCCL leaves it by default/],
    ['direct', 'all-reduce', A100_FABRIC, node8, /does not implement/],
    ['hierarchical', 'all-gather', A100_FABRIC, dgxA100x16, /all-reduce only/],
  ] as const)('forcing %s for %s where it cannot run throws a RangeError naming why', (algorithm, op, fabric, group, why) => {
    expect(() => collectiveCost({ op, bytes: MiB(1), group, fabric, algorithm })).toThrow(why);
  });

  it('PAT runs all-gather with one GPU per node and wins at small sizes', () => {
    const group = { ranks: 64, ranksPerNode: 1, concurrentGroupsPerNode: 8 };
    expect(collectiveCost({ op: 'all-gather', bytes: MiB(1), group, fabric: A100_FABRIC }).algorithm).toBe('pat');
    expect(collectiveCost({ op: 'all-gather', bytes: GiB(1), group, fabric: A100_FABRIC }).algorithm).toBe('ring');
  });

  it('broadcast and reduce use the ring; all-to-all and send/recv are direct', () => {
    const on = (op: 'broadcast' | 'reduce' | 'all-to-all' | 'send-recv') =>
      collectiveCost({ op, bytes: MiB(64), group: dgxA100x16, fabric: A100_FABRIC }).algorithm;
    expect([on('broadcast'), on('reduce'), on('all-to-all'), on('send-recv')]).toEqual(['ring', 'ring', 'direct', 'direct']);
  });

  it('all-to-all across N nodes reaches N/(N−1) × the per-GPU NIC rate in busbw (nccl-tests#130)', () => {
    const c = collectiveCost({ op: 'all-to-all', bytes: GiB(8), group: { ranks: 16, ranksPerNode: 8 }, fabric: A100_FABRIC });
    within(toGBps(c.busBandwidth), 2 * 24 * (15 / 16), 0.01);
  });

  it('one rank moves nothing: zero seconds', () => {
    const c = collectiveCost({ op: 'all-reduce', bytes: GiB(1), group: { ranks: 1, ranksPerNode: 1 }, fabric: A100_FABRIC });
    expect(c).toEqual({ seconds: 0, algorithm: 'ring', protocol: 'Simple', algBandwidth: 0, busBandwidth: 0 });
  });

  it('rejects a negative size', () => {
    expect(() => allReduce(A100_FABRIC, node8, -1)).toThrow(RangeError);
  });
});

describe('hierarchical all-reduce (reference §3) composes NCCL-costed steps', () => {
  it('is intra-node RS + per-rail inter-node AR of S/g + intra-node AG', () => {
    const bytes = GiB(1);
    const group = { ranks: 32, ranksPerNode: 8 };
    const h = collectiveCost({ op: 'all-reduce', bytes, group, fabric: A100_FABRIC, algorithm: 'hierarchical' });
    const intra = { ranks: 8, ranksPerNode: 8, concurrentGroupsPerNode: 1 };
    const rs = collectiveCost({ op: 'reduce-scatter', bytes, group: intra, fabric: A100_FABRIC });
    const ag = collectiveCost({ op: 'all-gather', bytes, group: intra, fabric: A100_FABRIC });
    const ar = collectiveCost({
      op: 'all-reduce', bytes: bytes / 8, group: { ranks: 4, ranksPerNode: 1, concurrentGroupsPerNode: 8 }, fabric: A100_FABRIC,
    });
    expect(h.algorithm).toBe('hierarchical');
    expect(h.seconds).toBe(rs.seconds + ar.seconds + ag.seconds);
  });
});

describe('other fabrics', () => {
  it('DGX-1 V100 (NVLink2 hybrid cube-mesh) all-reduce peaks near the 122 GB/s NVIDIA charts (±5%)', () => {
    within(toGBps(allReduce(V100_FABRIC, node8, GiB(8)).busBandwidth), 122, 0.05);
  });

  it('GB200 NVL72: a 72-rank all-reduce runs inside the NVLink domain (NVLS, no NIC)', () => {
    const c = allReduce(GB200_NVL72_FABRIC, { ranks: 72, ranksPerNode: 72 }, GiB(1));
    expect(c.algorithm).toBe('nvls');
  });
});
