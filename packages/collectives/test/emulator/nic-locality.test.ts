import { describe, expect, it } from 'vitest';
import { MiB } from '@trainplan/units';
import { buildTopology, collectiveCost, concurrentGroupGpus, emulateCollectives, type Fabric } from '../../src/index.ts';
import { ringChannels } from '../../src/emulator/ring-program.ts';
import { A100_FABRIC, A100_PCIE_FABRIC, GB200_NVL72_FABRIC, GH200_QUAD_FABRIC, NDR8, V100_FABRIC } from '../fixtures.ts';

const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

/** PCIe Gen5 x16 line rate, one direction (PCI-SIG base specification 5.0: 32 GT/s × 16 lanes × 128/130). */
const GEN5_X16 = 63e9;

/** 4-GPU trays with 8 NDR NICs (two per GPU), as `--network ndr-ib-8x` puts them on a quad GH200 or a GB200 tray. */
const GH200_8_NICS: Fabric = { ...GH200_QUAD_FABRIC, nicsPerNode: 8, nicBandwidth: NDR8.nicBandwidth, leafSwitch: NDR8.leafSwitch };
const GB200_TRAY_8_NICS: Fabric = {
  ...GB200_NVL72_FABRIC, gpusPerNode: 4, networkKind: 'infiniband', nicsPerNode: 8, nicBandwidth: NDR8.nicBandwidth, leafSwitch: NDR8.leafSwitch,
};
/** A DGX A100 with only 4 NICs, one per two GPUs (jean-zay's A100 nodes' layout). */
const A100_4_NICS: Fabric = { ...A100_FABRIC, nicsPerNode: 4 };

function emulated(fabric: Fabric, nodes: number, op: 'all-reduce' | 'all-gather', bytes: number, groups: number[][], algorithm: 'auto' | 'ring' = 'auto') {
  const topology = buildTopology({ fabric, nodes });
  const r = emulateCollectives({ topology, collectives: groups.map((gpus) => ({ op, bytes, gpus, algorithm })), maxLinks: topology.linkCount });
  if (!r.ok) throw new Error(r.message);
  return { r, topology };
}

describe('a GPU reaches the network at most at its host link, however many NICs sit behind it (QA)', () => {
  it.each([
    ['quad GH200 (NVLink mesh)', GH200_8_NICS],
    ['GB200 tray (NVSwitch)', GB200_TRAY_8_NICS],
  ] as const)('%s with 8 NDR NICs: a ring across 2 nodes carries no more than its 4 GPUs\' PCIe Gen5 x16 links', (_name, fabric) => {
    const ring = collectiveCost({ op: 'all-reduce', bytes: MiB(256), group: { ranks: 8, ranksPerNode: 4 }, fabric, algorithm: 'ring' });
    // On 2 nodes every channel crosses each node once each way: busbw is what a node sends to the network.
    expect(ring.busBandwidth).toBeLessThanOrEqual(4 * GEN5_X16);
    // …yet more than one NIC per GPU carries (NCCL drives 48 GB/s of an NDR NIC's 50): each GPU spreads its channels
    // over both of its NICs, up to what its own link holds.
    expect(ring.busBandwidth).toBeGreaterThan(4 * 48e9);
  });

  it.each([
    ['quad GH200', 'auto', GH200_8_NICS],
    ['quad GH200', 'ring', GH200_8_NICS],
    ['GB200 tray', 'auto', GB200_TRAY_8_NICS],
    ['GB200 tray', 'ring', GB200_TRAY_8_NICS],
  ] as const)('%s with 8 NDR NICs, 2 nodes, 256 MiB all-reduce (%s): the closed form and the emulator agree within 2%%', (_name, algorithm, fabric) => {
    const closed = collectiveCost({ op: 'all-reduce', bytes: MiB(256), group: { ranks: 8, ranksPerNode: 4 }, fabric, algorithm });
    const { r } = emulated(fabric, 2, 'all-reduce', MiB(256), [range(8)], algorithm);
    expect(r.collectives[0]?.algorithm).toBe(closed.algorithm);
    expect(Math.abs(r.seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
  });

  it('8 channels on a 4-GPU tray with 8 NICs use every NIC, each entering the node at the GPU that owns it', () => {
    const t = buildTopology({ fabric: GB200_TRAY_8_NICS, nodes: 2 });
    const channels = ringChannels(t, range(8), 4, 8);
    expect(new Set(channels.map((c) => c.rail)).size).toBe(8);
    // NICs 2l and 2l + 1 sit on GPU l's PCIe switch.
    for (const { order, rail } of channels) expect(order[0]).toBe(Math.floor(rail / 2));
  });

  it('a PCIe node (A100 Gen4, 2 GPUs per NIC), 2 nodes × 4 GPUs: the last GPU\'s NIC traffic shares its PCIe link, and the models agree within 2%', () => {
    const group = { ranks: 8, ranksPerNode: 4 };
    const closed = collectiveCost({ op: 'all-reduce', bytes: MiB(256), group, fabric: A100_PCIE_FABRIC, algorithm: 'ring' });
    // Every GPU's PCIe link carries each channel once, to the next GPU or to the NIC: NCCL's 24 GB/s on Gen4 x16.
    expect(closed.busBandwidth).toBeLessThanOrEqual(24e9);
    const { r } = emulated(A100_PCIE_FABRIC, 2, 'all-reduce', MiB(256), [range(8)], 'ring');
    expect(Math.abs(r.seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
  });
});

describe('concurrent groups on nodes with a NIC per two GPUs share all the NICs (QA)', () => {
  /** Utilisation of each NIC of node 0 (its host→NIC link), by NIC; a NIC that carried nothing reads 0. */
  function nicUtilisation(fabric: Fabric, nodes: number, ppn: number, concurrentGroups: number): { utilisation: number[]; seconds: number } {
    const group = { ranks: nodes * ppn, ranksPerNode: ppn, concurrentGroupsPerNode: concurrentGroups };
    const { r, topology } = emulated(fabric, nodes, 'all-reduce', MiB(256), concurrentGroupGpus(group, fabric.gpusPerNode, 'strided'));
    const utilisation = range(topology.nicsPerNode).map((nic) => r.links.find((l) => l.name === `node 0 nic ${nic} host-nic`)?.utilisation ?? 0);
    return { utilisation, seconds: r.seconds };
  }

  it.each([
    ['4-NIC A100 node', 4, 2, A100_4_NICS],
    ['4-NIC A100 node', 2, 4, A100_4_NICS],
    ['DGX-1', 4, 2, V100_FABRIC],
    ['DGX-1', 2, 4, V100_FABRIC],
  ] as const)('%s, 3 nodes, %d GPUs per node × %d strided groups: no NIC idles while another is saturated', (_name, ppn, groups, fabric) => {
    const { utilisation } = nicUtilisation(fabric, 3, ppn, groups);
    const busiest = Math.max(...utilisation);
    expect(busiest).toBeGreaterThan(0.9);
    // Every NIC carries as much as the busiest, within 5%.
    for (const u of utilisation) expect(u).toBeGreaterThanOrEqual(0.95 * busiest);
  });

  it.each([
    ['4-NIC A100 node', A100_4_NICS],
    ['DGX-1', V100_FABRIC],
  ] as const)('%s, 3 nodes × 4 GPUs, 2 strided groups: the emulator meets the closed form (each group half the NICs) within 2%%', (_name, fabric) => {
    const group = { ranks: 12, ranksPerNode: 4, concurrentGroupsPerNode: 2 };
    const closed = collectiveCost({ op: 'all-reduce', bytes: MiB(256), group, fabric });
    const { seconds } = nicUtilisation(fabric, 3, 4, 2);
    expect(Math.abs(seconds / closed.seconds - 1)).toBeLessThanOrEqual(0.02);
  });

  it('two strided groups of a 4-NIC node take different NICs: GPUs 0, 2, 4, 6 on NICs 0–1, GPUs 1, 3, 5, 7 on NICs 2–3', () => {
    const t = buildTopology({ fabric: A100_4_NICS, nodes: 3 });
    const [first, second] = concurrentGroupGpus({ ranks: 12, ranksPerNode: 4, concurrentGroupsPerNode: 2 }, 8, 'strided') as [number[], number[]];
    const rails = (gpus: number[]) => ringChannels(t, gpus, 4, 2).map((c) => c.rail);
    expect(rails(first)).toEqual([0, 1]);
    expect(rails(second)).toEqual([2, 3]);
  });
});
