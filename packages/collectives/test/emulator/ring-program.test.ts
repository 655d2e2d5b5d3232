import { describe, expect, it } from 'vitest';
import { GiB } from '@trainplan/units';
import { buildTopology, collectiveCost, emulateCollectives } from '../../src/index.ts';
import { ringChannels } from '../../src/emulator/ring-program.ts';
import { A100_FABRIC, V100_FABRIC } from '../fixtures.ts';

const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

// NCCL's graph search tries NIC nets[(channel + i) % netCount] first for each new channel
// (src/graph/search.cc ncclTopoSearchRecNet) and starts the ring at the GPUs closest to that NIC.
describe('ring channels spread over the NICs as NCCL’s search does', () => {
  it('DGX-1 (4 NICs, 2 GPUs each): channels 0–7 take NICs 0, 1, 2, 3, 0, 1, 2, 3, each entering the node at one of its NIC’s GPUs', () => {
    const t = buildTopology({ fabric: V100_FABRIC, nodes: 2 });
    const channels = ringChannels(t, range(16), 8, 8);
    expect(channels.map((c) => c.rail)).toEqual([0, 1, 2, 3, 0, 1, 2, 3]);
    // GPUs 2r and 2r + 1 share NIC r (railOfLocalGpu): the entry GPU of each node is one of them,
    // and the eight channels enter at eight different GPUs.
    for (const { order, rail } of channels) {
      expect([2 * rail, 2 * rail + 1]).toContain(order[0]);
      expect([2 * rail + 8, 2 * rail + 9]).toContain(order[8]);
    }
    expect(new Set(channels.map((c) => c.order[0])).size).toBe(8);
  });

  it('DGX A100 (a NIC per GPU): channel c enters at GPU c mod 8 on NIC c mod 8', () => {
    const t = buildTopology({ fabric: A100_FABRIC, nodes: 2 });
    const channels = ringChannels(t, range(16), 8, 16);
    expect(channels.map((c) => c.rail)).toEqual(range(16).map((c) => c % 8));
    expect(channels.map((c) => c.order[0])).toEqual(range(16).map((c) => c % 8));
  });

  it('an uncontended DGX-1 ring all-reduce (4 nodes, 4 GiB) agrees with the closed form within 2%', () => {
    // With every channel on NIC 0 or 1 the four NICs' traffic piled onto two: twice the closed form.
    const topology = buildTopology({ fabric: V100_FABRIC, nodes: 4 });
    const r = emulateCollectives({ topology, collectives: [{ op: 'all-reduce', bytes: GiB(4), gpus: range(32), algorithm: 'ring' }] });
    if (!r.ok) throw new Error(r.message);
    const closed = collectiveCost({ op: 'all-reduce', bytes: GiB(4), group: { ranks: 32, ranksPerNode: 8 }, fabric: V100_FABRIC, algorithm: 'ring' });
    expect(Math.abs(r.seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
  });

  it.each(['all-gather', 'broadcast'] as const)('an uncontended DGX-1 ring %s (4 nodes, 4 GiB) agrees with the closed form within two per cent', (op) => {
    const topology = buildTopology({ fabric: V100_FABRIC, nodes: 4 });
    const r = emulateCollectives({ topology, collectives: [{ op, bytes: GiB(4), gpus: range(32), algorithm: 'ring' }] });
    if (!r.ok) throw new Error(r.message);
    const closed = collectiveCost({ op, bytes: GiB(4), group: { ranks: 32, ranksPerNode: 8 }, fabric: V100_FABRIC, algorithm: 'ring' });
    expect(Math.abs(r.seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
  });
});
