import { describe, expect, it } from 'vitest';
import { GiB, KiB, MiB, toGBps, us } from '@trainplan/units';
import {
  buildTopology, collectiveCost, emulateCollectives, MAX_ROUTE_LINKS, ncclTopology, p2pSeconds, routeInto, summariseTopology,
} from '../src/index.ts';
import { LINK_KINDS } from '../src/topology/topology-graph.ts';
import type { Fabric } from '../src/types.ts';
import { A100_FABRIC, A100_PCIE_FABRIC, H100_PCIE_FABRIC } from './fixtures.ts';

const node8 = { ranks: 8, ranksPerNode: 8 };
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
// PCI-SIG base specifications 4.0 / 5.0: 16 / 32 GT/s × 16 lanes × 128/130 / 8 ≈ 31.5 / 63 GB/s one way, as quoted.
const GEN4_X16_GBPS = 31.5;
const GEN5_X16_GBPS = 63;
const SIZES = [KiB(4), KiB(64), MiB(1), MiB(16), MiB(256), GiB(1), GiB(8)];

describe('a PCIe node (8 PCIe cards, no NVSwitch, no NVLink between them)', () => {
  // NCCL rates a x16 link at 16 × 120 / 80 = 24 GB/s (Gen4), 16 × 240 / 80 = 48 (Gen5) (src/graph/topo.cc). Its search
  // (ladder A100 40, 30, 20, 18, 15, 12…; H100 60, 50, 40, 30, 24…) keeps the most channels × speed: 1 × 20 < 2 × 12 = 24,
  // and 1 × 40 < 2 × 24 = 48; below 25 GB/s a channel is not duplicated.
  it.each([
    ['A100, PCIe Gen4', A100_PCIE_FABRIC, { nChannels: 2, bwIntraGBps: 12, bwInterGBps: 12 }],
    ['H100, PCIe Gen5', H100_PCIE_FABRIC, { nChannels: 2, bwIntraGBps: 24, bwInterGBps: 24 }],
  ] as const)('%s: NCCL\'s ring fills the x16 link as NCCL rates it', (_name, fabric, ring) => {
    const t = ncclTopology(fabric, node8);
    expect(t.intraHardware).toBe('pci');
    expect(t.ring).toEqual(ring);
  });

  it.each([
    ['A100, PCIe Gen4', A100_PCIE_FABRIC, GEN4_X16_GBPS],
    ['H100, PCIe Gen5', H100_PCIE_FABRIC, GEN5_X16_GBPS],
  ] as const)('%s: all-reduce busbw never passes the GPU\'s PCIe x16 line rate, at any size', (_name, fabric, lineGBps) => {
    for (const bytes of SIZES) {
      expect(toGBps(collectiveCost({ op: 'all-reduce', bytes, group: node8, fabric }).busBandwidth)).toBeLessThanOrEqual(lineGBps);
    }
  });

  it('never runs NVLS, even on a Hopper PCIe node that claims NVLink SHARP: there is no NVSwitch to reduce in', () => {
    const claims: Fabric = { ...H100_PCIE_FABRIC, nvlinkSharp: true };
    expect(ncclTopology(claims, node8).nvls).toBeNull();
    for (const bytes of SIZES) {
      for (const op of ['all-reduce', 'all-gather', 'reduce-scatter'] as const) {
        expect(collectiveCost({ op, bytes, group: node8, fabric: claims }).algorithm).not.toMatch(/^nvls/);
      }
    }
  });

  // NCCL enables LL128 only when the intra-node path is NVLink (typeIntra ≤ NVB, src/graph/tuning.cc).
  it('never picks LL128', () => {
    for (const bytes of SIZES) expect(collectiveCost({ op: 'all-reduce', bytes, group: node8, fabric: A100_PCIE_FABRIC }).protocol).not.toBe('LL128');
  });

  // Tensor parallelism's all-reduce of a 64 MiB activation over 8 GPUs: NVSwitch gives an A100 12 channels × 20 GB/s =
  // 240, PCIe Gen4 2 × 12 = 24, a tenth; latency terms (tens of µs against milliseconds) leave more than 8×.
  it('makes TP-8 communication of the same GPU generation far slower than an NVSwitch node does', () => {
    const tp = (fabric: Fabric) => collectiveCost({ op: 'all-reduce', bytes: MiB(64), group: node8, fabric }).seconds;
    expect(tp(A100_PCIE_FABRIC) / tp(A100_FABRIC)).toBeGreaterThan(8);
  });

  // α: NCCL's Ring/Simple base 8.4 µs plus its PCI hop 5.7 µs; β: the 24 GB/s NCCL drives over a Gen4 x16 link.
  it('sends point to point inside the node over PCIe: NCCL\'s PCI latency and rate', () => {
    const bytes = GiB(1);
    expect(p2pSeconds({ bytes, fabric: A100_PCIE_FABRIC, crossNode: false })).toBeCloseTo(us(8.4 + 5.7) + bytes / 24e9, 12);
  });
});

describe('a PCIe node in the topology graph and the emulator', () => {
  const t = buildTopology({ fabric: A100_PCIE_FABRIC, nodes: 1 });

  // NCCL's x16 Gen4 figure, 16 lanes × 120 / 80 = 24 GB/s (src/graph/topo.cc): GPU-to-GPU traffic here runs at what NCCL drives
  // over the link, as the closed form costs it, not the 31.5 GB/s line rate (QA: all-to-all emulated 30% over send-recv).
  it('has no NVLink port: each GPU has its PCIe x16 link up and down, at what NCCL drives over Gen4 x16 (24 GB/s)', () => {
    const kinds = summariseTopology(t).links.map((l) => l.kind);
    expect(kinds.filter((k) => k.startsWith('nvlink'))).toEqual([]);
    const pcie = summariseTopology(t).links.filter((l) => l.kind.startsWith('pcie'));
    expect(pcie.map((l) => [l.kind, l.count, l.bandwidthBytesPerSecond])).toEqual([
      ['pcie-up', 8, 24e9], ['pcie-down', 8, 24e9],
    ]);
  });

  it.each([[0, 1], [0, 5], [3, 7]])('routes GPU %d → %d up its PCIe link and down the other\'s', (a, b) => {
    const path = new Int32Array(MAX_ROUTE_LINKS);
    const length = routeInto(t, a, b, 0, path);
    expect([...path.slice(0, length)].map((l) => LINK_KINDS[t.linkKind[l] as number])).toEqual(['pcie-up', 'pcie-down']);
  });

  it('emulates a ring all-reduce at NCCL\'s rate: within 2% of the closed form', () => {
    const bytes = GiB(1);
    const r = emulateCollectives({ topology: t, collectives: [{ op: 'all-reduce', bytes, gpus: range(8) }] });
    if (!r.ok) throw new Error(r.message);
    const closed = collectiveCost({ op: 'all-reduce', bytes, group: node8, fabric: A100_PCIE_FABRIC });
    expect(Math.abs(r.seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
  });

  // Each GPU sends 7 of its 8 shares to the node's other GPUs, all up its own x16 link: t ≥ (7/8)·S / 24 GB/s, NCCL's rate.
  it('waits on PCIe in an all-to-all, as the closed form says', () => {
    const bytes = GiB(1);
    const r = emulateCollectives({ topology: t, collectives: [{ op: 'all-to-all', bytes, gpus: range(8) }] });
    if (!r.ok) throw new Error(r.message);
    expect(r.seconds).toBeGreaterThanOrEqual(((7 / 8) * bytes) / 24e9);
    expect(r.bottleneck?.kind).toMatch(/^pcie-/);
    const closed = collectiveCost({ op: 'all-to-all', bytes, group: node8, fabric: A100_PCIE_FABRIC });
    expect(Math.abs(r.seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
  });
});

describe('point-to-point rates on a PCIe node agree across ops and models (QA)', () => {
  const bytes = GiB(1);
  it('an all-to-all\'s busbw never passes a send\'s: one GPU\'s x16 link carries both (was 31.5 against 24 GB/s on Gen4)', () => {
    for (const fabric of [A100_PCIE_FABRIC, H100_PCIE_FABRIC]) {
      const send = collectiveCost({ op: 'send-recv', bytes, group: node8, fabric }).busBandwidth;
      const all = collectiveCost({ op: 'all-to-all', bytes, group: node8, fabric }).busBandwidth;
      expect(all).toBeLessThanOrEqual(send * 1.001);
    }
  });
  it('send-recv across two 4-NIC nodes is nccl-tests\': only each node\'s last rank sends across, alone on its NIC, as emulated', () => {
    const twoNodes = { ranks: 16, ranksPerNode: 8 };
    const closed = collectiveCost({ op: 'send-recv', bytes, group: twoNodes, fabric: A100_PCIE_FABRIC });
    const topology = buildTopology({ fabric: A100_PCIE_FABRIC, nodes: 2 });
    const r = emulateCollectives({ topology, collectives: [{ op: 'send-recv', bytes, gpus: range(16) }] });
    if (!r.ok) throw new Error(r.message);
    expect(Math.abs(r.seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
    // Not the NIC shared by two GPUs (12.5 GB/s of HDR's 25): the x16 link's 24 GB/s binds, within and across.
    expect(toGBps(closed.busBandwidth)).toBeGreaterThan(20);
  });
});
