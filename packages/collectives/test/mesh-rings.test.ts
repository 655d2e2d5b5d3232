import { describe, expect, it } from 'vitest';
import { nvlinkPeerLinks } from '@trainplan/hardware';
import { GiB } from '@trainplan/units';
import { meshRingChannels, packMeshRings } from '../src/mesh-rings.ts';
import { buildTopology, collectiveCost, emulateCollectives, ncclTopology, routeInto, MAX_ROUTE_LINKS } from '../src/index.ts';
import { LINK_KINDS } from '../src/topology/topology-graph.ts';
import { groupPlacement } from '../src/group-placement.ts';
import { V100_FABRIC } from './fixtures.ts';

const g = 8;
const links = nvlinkPeerLinks({ intraNode: 'nvlink-hybrid-cube-mesh', gpusPerNode: g, nvlinkCount: 6 }) as Readonly<Uint8Array>;
const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);
const edges = (ring: readonly number[], open = false) =>
  ring.slice(0, open ? ring.length - 1 : ring.length).map((a, i) => [a, ring[(i + 1) % ring.length] as number] as const);

// The DGX-1 whitepaper's rings: the doubled links form one Hamiltonian ring (0-3-2-1-5-6-7-4), the
// single links another (0-1-3-7-5-4-6-2); NCCL drives each in both directions.
const DOUBLED = [0, 3, 2, 1, 5, 6, 7, 4];
const SINGLE = [0, 1, 3, 7, 5, 4, 6, 2];
const undirected = (ring: readonly number[]) => {
  const keys = edges(ring).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`);
  return keys.sort().join(' ');
};

describe('rings over a direct NVLink mesh (DGX-1 hybrid cube-mesh)', () => {
  it('the whitepaper rings are NVLink rings: doubled links on one, single links on the other', () => {
    for (const [a, b] of edges(DOUBLED)) expect(links[a * g + b]).toBe(2);
    for (const [a, b] of edges(SINGLE)) expect(links[a * g + b]).toBe(1);
  });

  it('a full node packs 6 channels: the doubled ring twice each way, the single ring once each way, every link busy', () => {
    expect(meshRingChannels(links, g, range(8))).toBe(6);
    const rings = packMeshRings(links, g, range(8), new Array(6).fill(null), false) as number[][];
    const shapes = rings.map(undirected);
    expect(shapes.filter((s) => s === undirected(DOUBLED))).toHaveLength(4);
    expect(shapes.filter((s) => s === undirected(SINGLE))).toHaveLength(2);
    // Each directed NVLink carries as many channels as it has links: 24 links × 2 directions.
    const load = new Uint8Array(g * g);
    for (const ring of rings) for (const [a, b] of edges(ring)) load[a * g + b] = (load[a * g + b] as number) + 1;
    expect([...load]).toEqual([...links]);
  });

  it('GPUs 0–3 (a tensor-parallel group of 4) fit 4 channels, the 4 links each of GPUs 0 and 1 has into the group', () => {
    expect(range(4).map((a) => range(4).reduce((s, b) => s + (links[a * g + b] as number), 0))).toEqual([4, 4, 5, 5]);
    expect(meshRingChannels(links, g, range(4))).toBe(4);
    expect(meshRingChannels(links, g, range(4, 4))).toBe(4);
  });

  it('GPUs 0–4 have no NVLink ring (GPU 4 reaches only GPU 0 among them), nor do GPUs 0 and 5', () => {
    expect(meshRingChannels(links, g, range(5))).toBe(0);
    expect(packMeshRings(links, g, range(5), [null], false)).toBeNull();
    expect(meshRingChannels(links, g, [0, 5])).toBe(0);
  });

  it('a ring over several nodes starts at its entry GPU and leaves from a GPU on the same NIC where one exists', () => {
    const nic = (local: number) => Math.floor(local / 2); // DGX-1: GPUs 2r, 2r + 1 on NIC r
    const entries = [0, 2, 4, 6, 1, 3, 5, 7];
    const rings = packMeshRings(links, g, range(8), entries, true, (a, b) => nic(a) === nic(b)) as number[][];
    rings.forEach((ring, c) => {
      expect(ring[0]).toBe(entries[c]);
      expect(nic(ring[7] as number)).toBe(nic(entries[c] as number));
      for (const [a, b] of edges(ring, true)) expect(links[a * g + b]).toBeGreaterThan(0);
    });
  });
});

describe('the DGX-1 as a topology graph and in the emulator', () => {
  const t = buildTopology({ fabric: V100_FABRIC, nodes: 1 });
  const kindCount = (kind: (typeof LINK_KINDS)[number]) => [...t.linkKind].filter((k) => LINK_KINDS[k] === kind).length;

  it('has one link per direction of each of the 16 NVLink-joined pairs, and no NVSwitch ports', () => {
    expect(kindCount('nvlink-peer')).toBe(32);
    expect(kindCount('nvlink-up')).toBe(0);
  });

  it('routes a linked pair over its own NVLinks (two on 0→3) and an unlinked pair (0→5) through the host', () => {
    const path = new Int32Array(MAX_ROUTE_LINKS);
    expect(routeInto(t, 0, 3, 0, path)).toBe(1);
    expect(t.linkBandwidth[path[0] as number]).toBe(2 * (t.linkBandwidth[(() => { routeInto(t, 0, 1, 0, path); return path[0] as number; })()] as number));
    const length = routeInto(t, 0, 5, 0, path);
    expect([...path.slice(0, length)].map((l) => LINK_KINDS[t.linkKind[l] as number])).toEqual(['pcie-up', 'pcie-down']);
  });

  it('an all-to-all inside one DGX-1 waits on PCIe: each GPU sends 3 of its 8 shares to GPUs it has no NVLink to', () => {
    const bytes = GiB(1);
    const r = emulateCollectives({ topology: t, collectives: [{ op: 'all-to-all', bytes, gpus: range(8) }] });
    if (!r.ok) throw new Error(r.message);
    const pcieGen3x16 = 15.75e9; // PCI-SIG 3.0: 8 GT/s × 16 lanes × 128/130
    expect(r.seconds).toBeGreaterThanOrEqual(((3 * bytes) / 8) / pcieGen3x16);
    expect(r.bottleneck?.kind).toBe('pcie-up');
    const closed = collectiveCost({ op: 'all-to-all', bytes, group: { ranks: 8, ranksPerNode: 8 }, fabric: V100_FABRIC });
    expect(Math.abs(r.seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
  });

  // nccl-tests' send/recv: GPU a sends S to a + 1, the last to the first. Each pair has only its own path: 0→1 one NVLink
  // (20 GB/s, NCCL's per-link figure), and 3→4, 7→0 none, through the host over PCIe Gen3 x16 (QA: the closed form
  // gave a GPU's six links, 119.84 GB/s, against 15.75 emulated, +661%).
  it.each([
    ['all 8 GPUs: 3→4 and 7→0 through the host at PCIe Gen3', range(8), 15.75e9],
    ['GPUs 0–3: 0→1 over its one NVLink', range(4), 20e9],
  ] as const)('send/recv over %s runs at its slowest pair, as emulated (≤ 2% apart)', (_name, gpus, slowestPairBytesPerSecond) => {
    const bytes = GiB(1);
    const closed = collectiveCost({ op: 'send-recv', bytes, group: { ranks: gpus.length, ranksPerNode: gpus.length }, fabric: V100_FABRIC });
    expect(closed.seconds).toBeGreaterThanOrEqual(bytes / slowestPairBytesPerSecond);
    const r = emulateCollectives({ topology: t, collectives: [{ op: 'send-recv', bytes, gpus: [...gpus] }] });
    if (!r.ok) throw new Error(r.message);
    expect(Math.abs(r.seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
  });

  it('send/recv across two DGX-1s: each node\'s last GPU sends over one NIC (EDR, 12 GB/s as NCCL drives it), slower than any pair inside', () => {
    const bytes = GiB(1);
    const closed = collectiveCost({ op: 'send-recv', bytes, group: { ranks: 16, ranksPerNode: 8 }, fabric: V100_FABRIC });
    expect(closed.seconds).toBeGreaterThanOrEqual(bytes / 12e9);
    const r = emulateCollectives({ topology: buildTopology({ fabric: V100_FABRIC, nodes: 2 }), collectives: [{ op: 'send-recv', bytes, gpus: range(16) }] });
    if (!r.ok) throw new Error(r.message);
    expect(Math.abs(r.seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
  });

  it.each([[range(4)], [range(4, 4)], [range(8)]])('a ring all-reduce over GPUs %j agrees with the closed form within 2%', (gpus) => {
    const r = emulateCollectives({ topology: t, collectives: [{ op: 'all-reduce', bytes: GiB(1), gpus, algorithm: 'ring' }] });
    if (!r.ok) throw new Error(r.message);
    const closed = collectiveCost({ op: 'all-reduce', bytes: GiB(1), group: { ranks: gpus.length, ranksPerNode: gpus.length }, fabric: V100_FABRIC, algorithm: 'ring' });
    expect(Math.abs(r.seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
  });

  it('the closed form gives a 4-GPU group 4 NVLinks of ring bandwidth and 2 of the 4 NICs (two GPUs per NIC)', () => {
    const top = ncclTopology(V100_FABRIC, { ranks: 4, ranksPerNode: 4 });
    expect(top.ring.nChannels * top.ring.bwIntraGBps).toBe(4 * 20);
    expect(groupPlacement({ ranks: 16, ranksPerNode: 4 }, V100_FABRIC).nicsPerNode).toBe(2);
  });

  it('4 GPUs on each of 4 DGX-1s: the emulated ring (on the two NICs those GPUs reach) agrees with the closed form within 2%', () => {
    const topology = buildTopology({ fabric: V100_FABRIC, nodes: 4 });
    const gpus = range(4).flatMap((n) => range(4, n * 8));
    const r = emulateCollectives({ topology, collectives: [{ op: 'all-reduce', bytes: GiB(1), gpus, algorithm: 'ring' }] });
    if (!r.ok) throw new Error(r.message);
    const closed = collectiveCost({ op: 'all-reduce', bytes: GiB(1), group: { ranks: 16, ranksPerNode: 4 }, fabric: V100_FABRIC, algorithm: 'ring' });
    expect(Math.abs(r.seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
  });
});
