import { describe, expect, it } from 'vitest';
import { GiB, KiB, MiB, toGBps, us } from '@trainplan/units';
import {
  buildTopology, busBandwidthLimit, collectiveCost, emulateCollectives, ncclTopology, p2pSeconds, summariseTopology,
} from '../src/index.ts';
import type { Fabric } from '../src/types.ts';
import { GH200_QUAD_FABRIC } from './fixtures.ts';

/*
 * A quad GH200 node (JUPITER Booster): no NVSwitch; each GPU's 18 NVLink4 links are split 6 to each of the other three
 * (JSC: 150 GB/s per direction between a pair = 6 × 25 GB/s). NCCL sees a pair as 6 × 20.6 = 123.6 GB/s (src/graph/topo.h
 * SM90_NVLINK_BW) and lays rings along GPU-to-GPU NVLinks (collectives-reference §1 "Channels": a channel takes its
 * speed on every edge it crosses; the search keeps the most channels × speed down its ladder, 60, 50, 40 … on SM90).
 *
 * The 4 GPUs as a ring: a ring is a directed Hamiltonian cycle of K4; from GPU 0 there are 3! = 6 of them, 4 directed
 * edges each, 24 edge uses over K4's 12 directed pairs — each pair lies on exactly 2. K4 cannot be split into 3
 * pair-disjoint rings (Tillson 1980: the complete symmetric digraph K_n* has a Hamiltonian decomposition for every n
 * but 4 and 6), so "3 disjoint rings" is not how NCCL fills it: at its top speed, 60 GB/s, a pair carries ⌊123.6 / 60⌋ =
 * 2 channels, and the 6 rings once each load every pair with exactly 2 — 6 channels × 60 = 360 GB/s out of every GPU,
 * the H100 NVSwitch node's figure (18 × 20.6 = 370.8 ≥ 360). No lower speed gives more (50: 2 a pair, 6 × 50 = 300;
 * 40: 3 a pair, at most 9 × 40 = 360, not more), and ncclTopoDupChannels (bwIntra ≥ 50) makes it 12 channels × 30.
 * A ring's all-reduce busbw is then at most 360 GB/s, under the 3 × 6 × 25 = 450 GB/s wire of a GPU's links.
 */
const quad = { ranks: 4, ranksPerNode: 4 };
const pair = { ranks: 2, ranksPerNode: 2 };
const SIZES = [KiB(4), KiB(64), MiB(1), MiB(16), MiB(256), GiB(1), GiB(8)];
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('a quad GH200 node in the closed form (NVLink full mesh, no NVSwitch)', () => {
  it('lays NCCL\'s 6 rings of K4 at 60 GB/s, doubled to 12 channels × 30, on NVLink', () => {
    const t = ncclTopology(GH200_QUAD_FABRIC, quad);
    expect(t.intraHardware).toBe('nvlink');
    expect(t.ring).toEqual({ nChannels: 12, bwIntraGBps: 30, bwInterGBps: 30 });
  });

  // Two GPUs: one pair's 6 links, 123.6 GB/s in NCCL's units: ⌊123.6 / 60⌋ = 2 channels at 60 = 120, doubled to 4 × 30.
  it('gives a tensor-parallel pair only the 6 links that join it: 4 channels × 30 GB/s', () => {
    expect(ncclTopology(GH200_QUAD_FABRIC, pair).ring).toEqual({ nChannels: 4, bwIntraGBps: 30, bwInterGBps: 30 });
  });

  it('bounds busbw by the links to the group\'s other GPUs: 6 × 25 = 150 GB/s for a pair, 18 × 25 = 450 for all four', () => {
    expect(toGBps(busBandwidthLimit(GH200_QUAD_FABRIC, pair, 'all-reduce'))).toBeCloseTo(150, 9);
    expect(toGBps(busBandwidthLimit(GH200_QUAD_FABRIC, quad, 'all-reduce'))).toBeCloseTo(450, 9);
  });

  it.each([
    ['all four GPUs', quad, 360],
    ['a pair', pair, 120],
  ] as const)('all-reduce over %s never passes NCCL\'s ring rate (%d GB/s), and nearly reaches it at 8 GiB', (_name, group, ringGBps) => {
    for (const bytes of SIZES) {
      const cost = collectiveCost({ op: 'all-reduce', bytes, group, fabric: GH200_QUAD_FABRIC });
      expect(cost.algorithm).toBe('ring');
      expect(toGBps(cost.busBandwidth)).toBeLessThanOrEqual(ringGBps + 1e-9);
    }
    // At 8 GiB the transfer takes tens of milliseconds against a latency of tens of µs: within 2% of the rate.
    const big = collectiveCost({ op: 'all-reduce', bytes: GiB(8), group, fabric: GH200_QUAD_FABRIC });
    expect(toGBps(big.busBandwidth)).toBeGreaterThan(0.98 * ringGBps);
  });

  it('never runs NVLS, even when the fabric claims NVLink SHARP: there is no NVSwitch to reduce in', () => {
    const claims: Fabric = { ...GH200_QUAD_FABRIC, nvlinkSharp: true };
    expect(ncclTopology(claims, quad).nvls).toBeNull();
    for (const bytes of SIZES) {
      for (const op of ['all-reduce', 'all-gather', 'reduce-scatter'] as const) {
        expect(collectiveCost({ op, bytes, group: quad, fabric: claims }).algorithm).not.toMatch(/^nvls/);
      }
    }
  });

  // α: NCCL's Ring/Simple base 8.4 µs plus its NVLink hop 3.4 µs; β: the pair's 123.6 GB/s as the search fits it, 2 × 60.
  it('sends point to point over the pair\'s 6 links, not all 18 of the GPU\'s', () => {
    const bytes = GiB(1);
    expect(p2pSeconds({ bytes, fabric: GH200_QUAD_FABRIC, crossNode: false })).toBeCloseTo(us(8.4 + 3.4) + bytes / 120e9, 12);
  });

  // nccl-tests' send/recv: GPU a sends S to a + 1 over that pair's 6 links (123.6 GB/s in NCCL's units), not over the 18
  // a GPU has to all three peers (QA: 359.9 GB/s closed form, 123.6 emulated).
  it('runs send/recv over all four GPUs at one pair\'s links: no faster than S over 6 × 20.6 GB/s', () => {
    const bytes = GiB(1);
    const cost = collectiveCost({ op: 'send-recv', bytes, group: quad, fabric: GH200_QUAD_FABRIC });
    expect(cost.seconds).toBeGreaterThanOrEqual(bytes / 123.6e9);
    expect(toGBps(cost.busBandwidth)).toBeGreaterThan(0.98 * 123.6);
  });

  // TP 4 in a node: 1.5·S at NCCL's 360 GB/s. TP 8 over two nodes: each node's 4 NDR200 NICs carry 4 × 25 = 100 GB/s, and
  // even NCCL's tree on exactly 2 nodes (which may pass the ring's wire bound: bandwidth-bound.ts) stays under 2 × 100, so
  // t ≥ 2·(7/8)·S / 200 GB/s. At 256 MiB latency is under 3% of TP 4's time: TP 8 takes at least
  // (1.75 / 200) / (1.5 / 360 × 1.03) ≈ 2.04 × as long.
  it('makes TP 4 within a node cheap and TP 8 across two nodes at least twice as slow', () => {
    const bytes = MiB(256);
    const tp4 = collectiveCost({ op: 'all-reduce', bytes, group: quad, fabric: GH200_QUAD_FABRIC });
    const tp8 = collectiveCost({ op: 'all-reduce', bytes, group: { ranks: 8, ranksPerNode: 4 }, fabric: GH200_QUAD_FABRIC });
    expect(toGBps(tp4.busBandwidth)).toBeGreaterThan(0.97 * 360);
    expect(toGBps(tp8.busBandwidth)).toBeLessThanOrEqual(200);
    expect(tp8.seconds / tp4.seconds).toBeGreaterThan(2);
  });
});

describe('a quad GH200 node in the topology graph and the emulator', () => {
  const t = buildTopology({ fabric: GH200_QUAD_FABRIC, nodes: 1 });

  it('has one NVLink link per ordered pair (12), each 6 × 20.6 GB/s, and no NVSwitch port', () => {
    const links = summariseTopology(t).links;
    expect(links.filter((l) => l.kind === 'nvlink-up' || l.kind === 'nvlink-down')).toEqual([]);
    expect(links.filter((l) => l.kind === 'nvlink-peer').map((l) => [l.count, l.bandwidthBytesPerSecond])).toEqual([[12, 123.6e9]]);
  });

  // The PCIe node's tolerance (pcie-node.test.ts): the emulator and the closed form agree within 2%.
  it.each(['all-reduce', 'all-gather', 'reduce-scatter', 'all-to-all', 'send-recv'] as const)('emulates %s within 2%% of the closed form', (op) => {
    const bytes = GiB(1);
    const r = emulateCollectives({ topology: t, collectives: [{ op, bytes, gpus: range(4) }] });
    if (!r.ok) throw new Error(r.message);
    const closed = collectiveCost({ op, bytes, group: quad, fabric: GH200_QUAD_FABRIC });
    expect(Math.abs(r.seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
    expect(r.bottleneck?.kind).toBe('nvlink-peer');
  });

  // Each GPU sends S/4 to each of its 3 peers at once, each over that pair's own 6 links: t ≥ (S/4) / 123.6 GB/s.
  it('sends an all-to-all pair by pair: no faster than a quarter of the buffer over one pair\'s links', () => {
    const bytes = GiB(1);
    const r = emulateCollectives({ topology: t, collectives: [{ op: 'all-to-all', bytes, gpus: range(4) }] });
    if (!r.ok) throw new Error(r.message);
    expect(r.seconds).toBeGreaterThanOrEqual(bytes / 4 / 123.6e9);
  });
});
