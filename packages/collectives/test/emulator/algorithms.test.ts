import { describe, expect, it } from 'vitest';
import { GiB, MiB } from '@trainplan/units';
import { buildTopology, collectiveCost, emulateCollectives, type Algorithm, type CollectiveOp, type Fabric } from '../../src/index.ts';
import { doubleBinaryTreeEdges } from '../../src/emulator/algorithm-streams.ts';
import { A100_FABRIC, GB200_NVL72_FABRIC, H100_FABRIC } from '../fixtures.ts';

const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

function emulateOne(fabric: Fabric, nodes: number, op: CollectiveOp, algorithm: Algorithm | 'auto', bytes: number) {
  const topology = buildTopology({ fabric, nodes });
  const gpus = range(nodes * fabric.gpusPerNode);
  const r = emulateCollectives({ topology, collectives: [{ op, bytes, gpus, algorithm }] });
  if (!r.ok) throw new Error(r.message);
  const closed = collectiveCost({ op, bytes, group: { ranks: gpus.length, ranksPerNode: fabric.gpusPerNode }, fabric, algorithm });
  return { r, closed };
}

describe('double binary tree', () => {
  it('two trees over n nodes each have n − 1 edges, and a node is interior in at most one tree for n = 8', () => {
    const [a, b] = doubleBinaryTreeEdges(range(8));
    expect(a).toHaveLength(7);
    expect(b).toHaveLength(7);
    const interior = (edges: [number, number][]) => new Set(edges.map(([, parent]) => parent));
    const both = [...interior(a!)].filter((n) => interior(b!).has(n));
    expect(both).toEqual([]);
  });
});

describe('every emulated algorithm agrees with the closed form uncontended at bandwidth-bound sizes (≤ 2%)', () => {
  // Two-node trees are left out: NCCL's model lets a 2-node tree run past the NIC rate
  // (nccl-tree-model.ts), which the emulated NIC does not allow.
  it.each([
    ['tree all-reduce, 1 DGX A100', A100_FABRIC, 1, 'all-reduce', 'tree', GiB(1)],
    ['tree all-reduce, 4 DGX A100', A100_FABRIC, 4, 'all-reduce', 'tree', GiB(1)],
    ['tree all-reduce, 16 DGX A100', A100_FABRIC, 16, 'all-reduce', 'tree', MiB(512)],
    ['NVLS all-reduce, 1 DGX H100', H100_FABRIC, 1, 'all-reduce', 'nvls', GiB(1)],
    ['NVLS all-gather, 1 DGX H100', H100_FABRIC, 1, 'all-gather', 'nvls', GiB(1)],
    ['NVLS reduce-scatter, 1 DGX H100', H100_FABRIC, 1, 'reduce-scatter', 'nvls', GiB(1)],
    ['NVLSTree all-reduce, 4 DGX H100', H100_FABRIC, 4, 'all-reduce', 'nvls-tree', GiB(1)],
    ['ring broadcast, 4 DGX A100', A100_FABRIC, 4, 'broadcast', 'ring', GiB(1)],
    ['ring reduce, 4 DGX A100', A100_FABRIC, 4, 'reduce', 'ring', GiB(1)],
    ['ring broadcast, 1 DGX H100', H100_FABRIC, 1, 'broadcast', 'ring', GiB(1)],
    ['hierarchical all-reduce, 4 DGX A100', A100_FABRIC, 4, 'all-reduce', 'hierarchical', GiB(1)],
    ['hierarchical all-reduce, 4 DGX H100', H100_FABRIC, 4, 'all-reduce', 'hierarchical', GiB(1)],
    ['auto all-reduce, 1 GB200 NVL72 domain', GB200_NVL72_FABRIC, 1, 'all-reduce', 'auto', GiB(1)],
  ] as const)('%s', (_name, fabric, nodes, op, algorithm, bytes) => {
    const { r, closed } = emulateOne(fabric, nodes, op, algorithm, bytes);
    expect(r.collectives[0]?.algorithm).toBe(closed.algorithm);
    expect(Math.abs(r.seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
  });

  it('--algorithm auto emulates the algorithm NCCL picks (NVLS on one GB200 NVL72 domain, tree at 1 MiB on 4 A100 nodes)', () => {
    expect(emulateOne(GB200_NVL72_FABRIC, 1, 'all-reduce', 'auto', GiB(1)).r.collectives[0]?.algorithm).toBe('nvls');
    const small = emulateOne(A100_FABRIC, 4, 'all-reduce', 'auto', MiB(1));
    expect(small.r.collectives[0]?.algorithm).toBe(small.closed.algorithm);
  });

  it('NVLS flows cross the NVSwitch vertex: only NVLink ports carry bytes on one node', () => {
    const { r } = emulateOne(H100_FABRIC, 1, 'all-reduce', 'nvls', GiB(1));
    for (const link of r.links) expect(link.kind).toMatch(/^nvlink-(up|down)$/);
  });
});

describe('streamed algorithms under contention', () => {
  it('two tree all-reduces on the same rail over a 4:1 oversubscribed spine are slower than on a flat one', () => {
    const run = (oversubscription: number) => {
      const topology = buildTopology({ fabric: A100_FABRIC, nodes: 8, nodesPerLeaf: 1, oversubscription });
      const gpus = range(8).map((i) => i * 8);
      const r = emulateCollectives({ topology, collectives: [
        { op: 'all-reduce', bytes: GiB(1), gpus, algorithm: 'tree' },
        { op: 'all-reduce', bytes: GiB(1), gpus: gpus.map((g) => g + 1), algorithm: 'tree' },
      ] });
      if (!r.ok) throw new Error(r.message);
      return r;
    };
    const flat = run(1);
    const oversubscribed = run(4);
    expect(oversubscribed.seconds / flat.seconds).toBeGreaterThan(1.5);
    expect(oversubscribed.bottleneck?.kind).toMatch(/leaf-spine|spine-leaf/);
  });
});
