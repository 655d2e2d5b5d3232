import { describe, expect, it } from 'vitest';
import { toGBps } from '@trainplan/units';
import { GPUS } from '../src/gpus.ts';
import { NVLINK_SOURCES, NVLINKS, nvlinkBandwidthPerDirection } from '../src/nvlink.ts';
import { nvlinkPeerLinks } from '../src/nvlink-mesh.ts';

describe('NVLINKS', () => {
  it.each([
    ['nvlink2', 25],
    ['nvlink3', 25],
    ['nvlink4', 25],
    ['nvlink5', 50],
  ] as const)('one %s link carries %d GB/s per direction', (id, gbps) => {
    expect(toGBps(NVLINKS[id].bandwidthPerLinkPerDirection)).toBe(gbps);
  });

  it.each(Object.values(NVLINKS))('$id is keyed by its own id and cites a source', (link) => {
    expect(NVLINKS[link.id]).toBe(link);
    expect(NVLINK_SOURCES[link.id].title.length).toBeGreaterThan(0);
  });

  it('cites exactly the generations it holds: no orphan citation', () => expect(Object.keys(NVLINK_SOURCES).sort()).toEqual(Object.keys(NVLINKS).sort()));
});

describe('nvlinkBandwidthPerDirection', () => {
  it.each([
    ['v100-32gb', 150],
    ['a100-40gb', 300],
    ['a100-80gb', 300],
    ['h100-sxm', 450],
    ['h200', 450],
    ['b200', 900],
    ['gb200', 900],
  ])('%s: links × per-link rate = %d GB/s per direction', (id, gbps) => {
    const gpu = GPUS[id];
    expect(gpu).toBeDefined();
    expect(toGBps(nvlinkBandwidthPerDirection(gpu!))).toBe(gbps);
  });
});

describe('the DGX-1 hybrid cube-mesh (nvlinkPeerLinks)', () => {
  const g = 8;
  const links = nvlinkPeerLinks({ intraNode: 'nvlink-hybrid-cube-mesh', gpusPerNode: g, nvlinkCount: 6 }) as Readonly<Uint8Array>;
  const at = (a: number, b: number): number => links[a * g + b] as number;
  const range = Array.from({ length: g }, (_, i) => i);

  it('uses every one of a V100\'s NVLink ports, and links are symmetric', () => {
    for (const a of range) {
      expect(range.reduce((sum, b) => sum + at(a, b), 0)).toBe(GPUS['v100-32gb']?.nvlinkCount);
      for (const b of range) expect(at(a, b)).toBe(at(b, a));
    }
  });

  it('is a cube with two faces\' diagonals (whitepaper): 16 linked pairs, 8 of them doubled, 24 links', () => {
    const pairs = range.flatMap((a) => range.filter((b) => b > a && at(a, b) > 0).map((b) => at(a, b)));
    expect(pairs).toHaveLength(16);
    expect(pairs.filter((n) => n === 2)).toHaveLength(8);
    expect(pairs.reduce((s, n) => s + n, 0)).toBe((8 * 6) / 2);
  });

  it('matches nvidia-smi topo -m on a DGX-1V: quads 0–3 and 4–7 complete, GPU i to i + 4, GPU0 SYS to 5–7', () => {
    for (const quad of [[0, 1, 2, 3], [4, 5, 6, 7]]) for (const a of quad) for (const b of quad) if (a !== b) expect(at(a, b)).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) expect(at(i, i + 4)).toBeGreaterThan(0);
    expect([at(0, 5), at(0, 6), at(0, 7)]).toEqual([0, 0, 0]);
    expect([at(0, 1), at(0, 2), at(0, 3), at(0, 4)]).toEqual([1, 1, 2, 2]);
  });

  it('keeps the links among the GPUs a smaller node uses, and is null behind an NVSwitch', () => {
    const four = nvlinkPeerLinks({ intraNode: 'nvlink-hybrid-cube-mesh', gpusPerNode: 4, nvlinkCount: 6 }) as Readonly<Uint8Array>;
    expect(four[0 * 4 + 3]).toBe(2);
    expect(four).toHaveLength(16);
    expect(nvlinkPeerLinks({ intraNode: 'nvswitch', gpusPerNode: 8, nvlinkCount: 18 })).toBeNull();
  });

  it('gives a PCIe node a table with no NVLink pair: every peer path is PCIe', () => {
    const pcie = nvlinkPeerLinks({ intraNode: 'pcie', gpusPerNode: 8, nvlinkCount: 0 }) as Readonly<Uint8Array>;
    expect(pcie).toHaveLength(64);
    expect(pcie.every((links) => links === 0)).toBe(true);
  });
});

// JSC's JUPITER Booster node: "NVLink 4 GPU-to-GPU links, 300 GB/s between pairs of GPUs (150 GB/s per direction)":
// 150 / 25 GB/s per NVLink4 link = 6 links per pair, and 3 peers × 6 = the GH200's 18.
describe('a quad GH200 node: an NVLink full mesh (nvlinkPeerLinks)', () => {
  const g = 4;
  const links = nvlinkPeerLinks({ intraNode: 'nvlink-full-mesh', gpusPerNode: g, nvlinkCount: 18 }) as Readonly<Uint8Array>;
  const range = Array.from({ length: g }, (_, i) => i);

  it('joins every pair of distinct GPUs by 6 links, and no GPU to itself', () => {
    for (const a of range) for (const b of range) expect(links[a * g + b]).toBe(a === b ? 0 : 6);
  });

  it('uses all 18 of each GH200\'s NVLink4 links: 150 GB/s per direction to each peer, 450 in all', () => {
    const gh200 = GPUS.gh200!;
    for (const a of range) expect(range.reduce((sum, b) => sum + (links[a * g + b] as number), 0)).toBe(gh200.nvlinkCount);
    expect(toGBps(NVLINKS.nvlink4.bandwidthPerLinkPerDirection) * (links[1] as number)).toBe(150);
    expect(toGBps(nvlinkBandwidthPerDirection(gh200))).toBe(450);
  });

  it('splits a GPU\'s links over however many peers the node holds', () => {
    const two = nvlinkPeerLinks({ intraNode: 'nvlink-full-mesh', gpusPerNode: 2, nvlinkCount: 18 }) as Readonly<Uint8Array>;
    expect([...two]).toEqual([0, 18, 18, 0]);
  });
});
