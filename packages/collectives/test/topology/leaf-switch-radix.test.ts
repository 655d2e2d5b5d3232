// QA (code review): buildTopology used a 64-port leaf for every fabric, though its own comment said HDR's Quantum
// QM8700 has 40 ports: DGX A100 at 4:1 got 51 nodes a leaf (3 leaves a rail for 128 nodes) where a 40-port leaf holds
// 32 (4 a rail), and 32 at 1:1 where the DGX A100 SuperPOD puts 20 on a leaf. The leaf is now the network preset's.
// Expected counts are worked from the switches' datasheets, not read back from the code.
import { describe, expect, it } from 'vitest';
import { gpuById, networkById, NVLINKS, systemById } from '@trainplan/hardware';
import { GBps, toUs } from '@trainplan/units';
import { buildTopology, describeTopology, emulateCollectives, fabricFromSpecs, summariseTopology } from '../../src/index.ts';
import type { Fabric } from '../../src/index.ts';

const preset = (systemId: string): Fabric => {
  const system = systemById(systemId);
  const gpu = system && gpuById(system.gpu);
  const network = system && networkById(system.network);
  if (!system || !gpu || !network) throw new Error(`no preset ${systemId}`);
  return fabricFromSpecs({ gpu, system, network, nvlink: NVLINKS[gpu.nvlink] });
};
/** DGX A100: 8 HDR 200 Gb/s NICs on Quantum QM8700 leaves, 40 ports of 200 Gb/s. */
const HDR = preset('dgx-a100-80gb');
/** DGX H100: 8 NDR 400 Gb/s NICs on Quantum-2 QM9700 leaves, 64 ports of 400 Gb/s. */
const NDR = preset('dgx-h100');

const trunkGBps = (fabric: Fabric, nodes: number, oversubscription: number): number[] =>
  [...new Set(summariseTopology(buildTopology({ fabric, nodes, oversubscription })).links
    .filter((l) => l.kind === 'leaf-spine').map((l) => l.bandwidthBytesPerSecond / GBps(1)))];

describe('HDR InfiniBand (DGX A100): 40-port Quantum QM8700 leaves', () => {
  it('128 nodes at 4:1: 32 ports down and 8 up a leaf, so 4 leaves a rail, 32 in all, each trunk 8 × 25 GB/s', () => {
    // 40 · 4/5 = 32 down, 8 up; ⌈128 / 32⌉ = 4 leaves on each of 8 rails. The trunk: 8 uplinks × 25 GB/s (HDR line rate).
    const t = buildTopology({ fabric: HDR, nodes: 128, oversubscription: 4 });
    expect(t.nodesPerLeaf).toBe(32);
    expect(t.leaves).toBe(32);
    expect(trunkGBps(HDR, 128, 4)).toEqual([200]);
  });

  it('1:1: 20 nodes a leaf, as the DGX A100 SuperPOD\'s scalable unit of 20 nodes on 8 leaves; its 140 nodes on 56 leaves', () => {
    // 40 / 2 = 20 down, 20 up. The SuperPOD's 7 scalable units × 8 rail leaves = 56.
    expect(buildTopology({ fabric: HDR, nodes: 20 })).toMatchObject({ nodesPerLeaf: 20, leaves: 8 });
    expect(buildTopology({ fabric: HDR, nodes: 21 })).toMatchObject({ nodesPerLeaf: 20, leaves: 16 });
    expect(buildTopology({ fabric: HDR, nodes: 140 })).toMatchObject({ nodesPerLeaf: 20, leaves: 56 });
    expect(trunkGBps(HDR, 140, 1)).toEqual([20 * 25]);
  });

  it.each([
    // [nodes, R, nodes a leaf, leaves]: down ports round(40 · R / (1 + R)), leaves ⌈nodes / that⌉ × 8 rails.
    [128, 2, 27, 40], // 40 · 2/3 = 26.7 → 27 down (13 up); ⌈128 / 27⌉ = 5
    [128, 16, 38, 32], // 40 · 16/17 = 37.6 → 38 down (2 up); ⌈128 / 38⌉ = 4
    [33, 4, 32, 16], // one node past a 32-node leaf: a second leaf on every rail
  ])('%i nodes at %i:1: %i nodes a leaf, %i leaves', (nodes, R, perLeaf, leaves) => {
    expect(buildTopology({ fabric: HDR, nodes, oversubscription: R })).toMatchObject({ nodesPerLeaf: perLeaf, leaves });
  });

  it('not rail-optimised, a leaf holds every NIC of its nodes: 20 down ports hold 2 DGX A100s (8 NICs each)', () => {
    expect(buildTopology({ fabric: HDR, nodes: 16, railOptimised: false })).toMatchObject({ nodesPerLeaf: 2, leaves: 8 });
  });

  it('names the leaf\'s ports where it describes the switching', () => {
    const lines = describeTopology(buildTopology({ fabric: HDR, nodes: 128, oversubscription: 4 }));
    expect(lines[0]).toContain('32 leaf switches, rail-optimised, leaf capacity 32 nodes, oversubscription 4:1');
    expect(lines[1]).toContain('8 rail groups of 4 leaf switches of 40 ports');
  });
});

describe('NDR InfiniBand (DGX H100): 64-port Quantum-2 QM9700 leaves, as before', () => {
  it('1:1: 32 nodes a leaf, as the DGX H100 SuperPOD\'s scalable unit of 32 nodes; 128 nodes on 4 leaves a rail', () => {
    // 64 / 2 = 32 down, 32 up; ⌈128 / 32⌉ × 8 = 32. The trunk: 32 × 50 GB/s (NDR line rate).
    expect(buildTopology({ fabric: NDR, nodes: 128 })).toMatchObject({ nodesPerLeaf: 32, leaves: 32 });
    expect(trunkGBps(NDR, 128, 1)).toEqual([32 * 50]);
  });

  it('128 nodes at 4:1: 51 nodes a leaf, 3 leaves a rail, 24 in all', () => {
    // 64 · 4/5 = 51.2 → 51 down; ⌈128 / 51⌉ = 3. The trunk keeps the 4:1 ratio: 51 × 50 GB/s ÷ 4.
    expect(buildTopology({ fabric: NDR, nodes: 128, oversubscription: 4 })).toMatchObject({ nodesPerLeaf: 51, leaves: 24 });
    expect(trunkGBps(NDR, 128, 4)).toEqual([(51 * 50) / 4]);
  });
});

describe('the other fabrics\' leaves, at 1:1: half their ports at the NICs\' rate face the nodes', () => {
  it.each([
    ['dgx-1-v100', 'EDR Switch-IB 2 SB7800, 36 × 100 Gb/s', 18],
    ['gh200-quad', 'Quantum-2 QM9700 split into 128 NDR200 links for NDR200 NICs', 64],
    ['jean-zay-a100', 'Omni-Path Edge Switch 100, 48 × 100 Gb/s', 24],
    ['h100-pcie-8x', 'Quantum-2 QM9700, 64 × NDR 400 Gb/s', 32],
    ['a100-80gb-pcie-8x', 'Quantum QM8700, 40 × HDR 200 Gb/s', 20],
    ['gb200-nvl72', 'Quantum-2 QM9700 beyond the rack, 64 × NDR 400 Gb/s', 32],
  ])('%s (%s): %i a leaf', (systemId, _leaf, perLeaf) => {
    expect(buildTopology({ fabric: preset(systemId), nodes: 1 }).nodesPerLeaf).toBe(perLeaf);
  });

  it('Meta\'s RoCE cluster (Minipack2, one Tomahawk 4: 64 × 400 GbE): 32 a leaf', () => {
    const system = systemById('dgx-h100')!;
    const fabric = fabricFromSpecs({ gpu: gpuById(system.gpu)!, system, network: networkById('roce-400g-8x')!, nvlink: NVLINKS.nvlink4 });
    expect(buildTopology({ fabric, nodes: 1 }).nodesPerLeaf).toBe(32);
  });
});

describe('per-hop latency: a send leaves its leaf where the leaf fills, 20 nodes on HDR, 32 on NDR', () => {
  // A route through the spine crosses two more cables (leaf → spine → leaf) than one under a leaf, each a quarter of
  // the network's one-way latency (build-topology.ts): half a network latency more, 0.495 µs of HDR's and NDR's 0.99.
  const sendSeconds = (fabric: Fabric, nodes: number, toNode: number): number => {
    const topology = buildTopology({ fabric, nodes });
    const r = emulateCollectives({ topology, collectives: [{ op: 'send-recv', bytes: 8, gpus: [0, toNode * fabric.gpusPerNode] }] });
    if (!r.ok) throw new Error(r.message);
    return r.seconds;
  };

  it('HDR: node 0 to node 19 stays under the leaf; to node 20 it crosses the spine', () => {
    expect(toUs(sendSeconds(HDR, 33, 20) - sendSeconds(HDR, 33, 19))).toBeCloseTo(toUs(HDR.networkLatency) / 2, 9);
    expect(toUs(HDR.networkLatency) / 2).toBeCloseTo(0.495, 12);
  });

  it('NDR: node 0 to node 20 still under the leaf, as to node 31; to node 32 it crosses the spine', () => {
    expect(sendSeconds(NDR, 33, 20)).toBe(sendSeconds(NDR, 33, 19));
    expect(sendSeconds(NDR, 33, 31)).toBe(sendSeconds(NDR, 33, 19));
    expect(toUs(sendSeconds(NDR, 33, 32) - sendSeconds(NDR, 33, 31))).toBeCloseTo(toUs(NDR.networkLatency) / 2, 9);
  });
});
