import { describe, expect, it } from 'vitest';
import { GiB, MiB, toGBps } from '@trainplan/units';
import {
  buildTopology, collectiveCost, emulateCollectives, ncclCandidates, ncclTopology, withCollnet, type CollectiveOp, type CommGroup, type Fabric,
} from '../src/index.ts';
import { collnetDirectGraph } from '../src/nccl-collnet-model.ts';
import { A100_FABRIC, GB200_NVL72_FABRIC, H100_FABRIC, V100_FABRIC } from './fixtures.ts';

/** The fixtures' DGX nodes on a network with SHARP switches (Quantum HDR / Quantum-2 NDR), CollNet still off. */
const H100_SHARP: Fabric = { ...H100_FABRIC, inNetworkReduction: true };
const A100_SHARP: Fabric = { ...A100_FABRIC, inNetworkReduction: true };
const dgx = (nodes: number): CommGroup => ({ ranks: 8 * nodes, ranksPerNode: 8 });

/** nccl-tests' all-reduce busbw factor 2(n − 1)/n (collectives-reference §2). */
const allReduceBusbw = (bytes: number, seconds: number, ranks: number) => (bytes / seconds) * (2 * (ranks - 1)) / ranks;

describe('CollNet is opt-in (NCCL_COLLNET_ENABLE=1)', () => {
  it.each([
    ['all-reduce', MiB(1)], ['all-reduce', GiB(8)], ['all-gather', GiB(1)], ['reduce-scatter', MiB(64)],
  ] as const)('a SHARP network without the opt-in offers no CollNet and no NVLS across nodes (%s, %i B)', (op, bytes) => {
    const algorithms = ncclCandidates({ op, bytes, group: dgx(4), fabric: H100_SHARP }).map((c) => c.algorithm);
    expect(algorithms.filter((a) => a.startsWith('collnet') || a === 'nvls')).toEqual([]);
  });

  // With CollNet on, the tuner weighs more pairs; the ones it weighed before must come out exactly as before.
  it.each([
    [H100_SHARP, dgx(2)], [H100_SHARP, dgx(16)], [A100_SHARP, dgx(4)], [H100_SHARP, { ranks: 16, ranksPerNode: 1, concurrentGroupsPerNode: 8 }],
  ] as const)('opting in adds candidates and leaves every other one bit for bit (case %#)', (fabric, group) => {
    for (const op of ['all-reduce', 'all-gather', 'reduce-scatter', 'broadcast', 'all-to-all'] as CollectiveOp[]) {
      for (const bytes of [8, MiB(1), MiB(64), GiB(8)]) {
        const off = ncclCandidates({ op, bytes, group, fabric });
        const on = ncclCandidates({ op, bytes, group, fabric: withCollnet(fabric) })
          .filter((c) => !c.algorithm.startsWith('collnet') && c.algorithm !== 'nvls');
        expect(on).toEqual(off.filter((c) => c.algorithm !== 'nvls'));
      }
    }
  });
});

describe('CollNetDirect and CollNetChain all-reduce (src/tuning/collnet.cc)', () => {
  it('CollNetDirect on 4 DGX H100: 8 heads × 48 GB/s × .85, halved to algorithm bandwidth, 44 µs', () => {
    // Heads: 8 GPUs, each with its own NDR NIC. Pass 1: the SM90 inter-node ladder's top speed, 48 GB/s, fits a 50 GB/s
    // NDR NIC and the busiest GPU's NVLink (48 · (1 + 7/7) = 96 ≤ 18 × 20.6); 48 is the ladder's top, so pass 2 cannot
    // raise bwIntra. busBw = 8 × 48 = 384; r = ppn/nCh = 1 leaves it; × .85 (Hopper) = 326.4; algbw = 326.4 / 2 = 163.2.
    // Latency: 2·(min(1, 7)·3.7 + 0.4·7) + 31 = 44 µs.
    const fabric = withCollnet(H100_SHARP);
    expect(collnetDirectGraph(ncclTopology(fabric, dgx(4)))).toEqual({ nChannels: 8, bwIntraGBps: 48, bwInterGBps: 48 });
    const bytes = GiB(8);
    const cost = collectiveCost({ op: 'all-reduce', bytes, group: dgx(4), fabric, algorithm: 'collnet-direct' });
    const seconds = 44e-6 + bytes / 163.2e9;
    expect(cost.algorithm).toBe('collnet-direct');
    expect(cost.protocol).toBe('Simple');
    expect(cost.seconds).toBeCloseTo(seconds, 12);
    // nccl-tests busbw at 32 ranks: 163.2 × 62/32 ≈ 316 GB/s at this size.
    expect(cost.busBandwidth / allReduceBusbw(bytes, seconds, 32)).toBeCloseTo(1, 12);
  });

  it('CollNetDirect on 4 DGX A100: pass 2 raises bwIntra from HDR\'s 24 to 48 GB/s; no Hopper factor; run, NVLink binds', () => {
    // Pass 1: 48, 30 and 28 exceed a 25 GB/s HDR NIC, 24 fits. Pass 2 raises bwIntra while it is below 2 × 24 and the
    // busiest GPU's NVLink carries 2 × bwIntra (≤ 12 × 20 = 240): 28, 30, then 48, where 48 < 48 stops it.
    // busBw = 8 × 48 = 384 (Ampere: no .85); the tuner's algbw 192 GB/s. Run, each GPU's NVLink carries the scatter to the
    // other 7 heads and their broadcast back, 2 · 7/8 = 1.75 of the message each way, at NCCL's 12 × 20 = 240 GB/s a GPU:
    // algbw at most 240 / 1.75 = 137.1 GB/s (QA: 192 asked 336 GB/s of NVLink). The switches reduce, so busbw still passes
    // the 8 × 25 GB/s NICs.
    const fabric = withCollnet(A100_SHARP);
    expect(collnetDirectGraph(ncclTopology(fabric, dgx(4)))).toEqual({ nChannels: 8, bwIntraGBps: 48, bwInterGBps: 24 });
    const bytes = GiB(8);
    const cost = collectiveCost({ op: 'all-reduce', bytes, group: dgx(4), fabric, algorithm: 'collnet-direct' });
    expect(cost.seconds).toBeCloseTo(44e-6 + bytes / (240e9 / 1.75), 12);
    expect(toGBps(cost.busBandwidth)).toBeGreaterThan(8 * 25);
  });

  it('CollNetChain on 4 DGX H100: the tree graph\'s 8 × 48 GB/s halved, 69.2 µs', () => {
    // The chain is searched as a tree with the ring's channel count (init.cc): 8 channels at 48 GB/s (the H100 tree
    // graph). busBw = 8 × 48 = 384, algbw 192. Latency: 2·(8 − 1)·2.8 + 30 = 69.2 µs.
    const fabric = withCollnet(H100_SHARP);
    const bytes = GiB(1);
    const cost = collectiveCost({ op: 'all-reduce', bytes, group: dgx(4), fabric, algorithm: 'collnet-chain' });
    expect(cost.seconds).toBeCloseTo(69.2e-6 + bytes / 192e9, 12);
  });

  it('NVLS across 4 DGX H100 nodes: NCCL\'s pick at 8 GiB, and it runs as fast as the one-node NVLS all-reduce it contains', () => {
    // The tuner (nvls.cc): intraBw = 40 · .85 · 7/8 · 2 = 59.5 per head, interBw = the NVLS graph's bwInter 48 (one NDR
    // NIC per head); busBw = 48 × 8 = 384, algbw 384 · 32/62, which beats ring (the same algbw, more latency), CollNetChain
    // (192), CollNetDirect (163.2) and NVLSTree (45.5 × 8): NCCL picks NVLS. Run, each byte crosses a head's NIC once each
    // way (8 heads × 48 GB/s = 384 GB/s of algorithm bandwidth), and the NVLink stages are the one-node NVLS all-reduce's,
    // whose algbw (about 271 GB/s on 8 H100) is the lower: the 4-node time is the one-node time of the same 8 GiB.
    const bytes = GiB(8);
    const cost = collectiveCost({ op: 'all-reduce', bytes, group: dgx(4), fabric: withCollnet(H100_SHARP) });
    const oneNode = collectiveCost({ op: 'all-reduce', bytes, group: dgx(1), fabric: H100_SHARP, algorithm: 'nvls' });
    expect(cost.algorithm).toBe('nvls');
    expect(bytes / oneNode.seconds).toBeLessThan(8 * 48e9);
    expect(cost.seconds).toBeCloseTo(oneNode.seconds, 12);
    expect(toGBps(cost.busBandwidth)).toBeCloseTo(toGBps(allReduceBusbw(bytes, oneNode.seconds, 32)), 9);
  });

  it('NVLS across 4 nodes of H100 on 200 Gb/s NICs: the network binds at 8 heads × 24 GB/s of algorithm bandwidth, not a ring\'s', () => {
    // HDR's 25 GB/s NIC takes the Hopper inter ladder's 24 GB/s: 8 × 24 = 192 GB/s of algbw, below the one-node NVLS ~271.
    // t = the tuner's latency (hwLat NVLink NVLS 25 + NET NVLS 18 = 43 µs) + S / 192 GB/s.
    const bytes = GiB(8);
    const fabric = withCollnet({ ...H100_SHARP, nicBandwidth: 25e9 });
    const cost = collectiveCost({ op: 'all-reduce', bytes, group: dgx(4), fabric, algorithm: 'nvls' });
    expect(cost.seconds).toBeCloseTo(43e-6 + bytes / (8 * 24e9), 12);
  });
});

describe('CollNet refusals say why', () => {
  it('withCollnet refuses a network without in-network reduction', () => {
    expect(() => withCollnet(H100_FABRIC)).toThrow(/reduces in its switches \(InfiniBand SHARP\)/);
  });

  it('a fabric built with CollNet on and no SHARP is refused, not silently costed without it', () => {
    const fabric: Fabric = { ...H100_FABRIC, collnet: true };
    expect(() => collectiveCost({ op: 'all-reduce', bytes: MiB(1), group: dgx(2), fabric })).toThrow(RangeError);
  });

  const V100_SHARP: Fabric = { ...V100_FABRIC, inNetworkReduction: true };
  const NVL72_SHARP: Fabric = { ...GB200_NVL72_FABRIC, inNetworkReduction: true };
  it.each([
    ['collnet-direct', 'all-reduce', H100_SHARP, dgx(2), /CollNet is off, as NCCL leaves it by default/],
    ['collnet-direct', 'all-reduce', withCollnet(H100_SHARP), dgx(1), /across 2 nodes or more/],
    ['collnet-chain', 'all-gather', withCollnet(H100_SHARP), dgx(2), /all-reduce only/],
    ['collnet-direct', 'all-reduce', withCollnet(V100_SHARP), dgx(2), /8 GPUs per node reach 4 NICs/],
    ['collnet-chain', 'all-reduce', withCollnet(NVL72_SHARP), { ranks: 144, ranksPerNode: 72 }, /at most 8 ranks per node/],
    ['nvls', 'all-reduce', H100_SHARP, dgx(2), /NVLS across nodes needs CollNet .*NCCL_COLLNET_ENABLE=0/],
    ['nvls', 'all-gather', withCollnet(H100_SHARP), dgx(2), /NVLS across nodes is modelled for all-reduce only/],
  ] as const)('forcing %s for %s (case %#)', (algorithm, op, fabric, group, why) => {
    expect(() => collectiveCost({ op, bytes: MiB(1), group, fabric, algorithm })).toThrow(why);
  });
});

describe('the emulator leaves CollNet to the closed form', () => {
  const fabric = withCollnet(H100_SHARP);
  const gpus = Array.from({ length: 16 }, (_, i) => i);
  it('refuses NVLS across nodes, whose reduction runs in the InfiniBand switches', () => {
    const r = emulateCollectives({ topology: buildTopology({ fabric, nodes: 2 }), collectives: [{ op: 'all-reduce', bytes: GiB(1), gpus, algorithm: 'nvls' }] });
    expect(!r.ok && r.message).toMatch(/does not execute nvls across nodes .*costed by the closed form only/);
  });

  it('with auto, emulates the fastest algorithm it executes instead of NCCL\'s CollNet pick', () => {
    // 1 MiB on 4 A100 nodes: NCCL picks CollNetDirect (collectiveCost); the emulator runs one of its own algorithms.
    const a100 = withCollnet(A100_SHARP);
    expect(collectiveCost({ op: 'all-reduce', bytes: MiB(1), group: dgx(4), fabric: a100 }).algorithm).toBe('collnet-direct');
    const r = emulateCollectives({
      topology: buildTopology({ fabric: a100, nodes: 4 }),
      collectives: [{ op: 'all-reduce', bytes: MiB(1), gpus: Array.from({ length: 32 }, (_, i) => i) }],
    });
    if (!r.ok) throw new Error(r.message);
    expect(['ring', 'tree']).toContain(r.collectives[0]?.algorithm);
  });
});
