import { describe, expect, it } from 'vitest';
import { ncclTopology } from '../src/index.ts';
import { A100_FABRIC, GB200_NVL72_FABRIC, H100_FABRIC, H100_RING_ONLY_FABRIC, V100_FABRIC } from './fixtures.ts';

const node8 = { ranks: 8, ranksPerNode: 8 };

describe('NCCL graph search → channels × per-channel bandwidth (reference §1 "Channels")', () => {
  it('8×A100 on NVSwitch gets a 12-channel ring at 20 GB/s (6 × 40 found, then duplicated)', () => {
    expect(ncclTopology(A100_FABRIC, node8).ring).toEqual({ nChannels: 12, bwIntraGBps: 20, bwInterGBps: 20 });
  });

  it('8×H100 gets a 12-channel ring at 30 GB/s (6 × 60 of 371, then duplicated)', () => {
    expect(ncclTopology(H100_RING_ONLY_FABRIC, node8).ring).toEqual({ nChannels: 12, bwIntraGBps: 30, bwInterGBps: 30 });
  });

  it('8×H100 NVLS gets 8 channels, bwIntra 40 (the head carries 2×: 9·40 ≤ 371) and bwInter 60', () => {
    expect(ncclTopology(H100_FABRIC, node8).nvls).toEqual({ nChannels: 8, bwIntraGBps: 40, bwInterGBps: 60 });
  });

  it('there is no NVLS graph without NVLink SHARP or before Hopper', () => {
    expect(ncclTopology(H100_RING_ONLY_FABRIC, node8).nvls).toBeNull();
    expect(ncclTopology(A100_FABRIC, node8).nvls).toBeNull();
  });

  it('DGX-A100 across ≥ 3 nodes: one 24 GB/s channel per HDR NIC, 8 × 24 (no duplication below 25)', () => {
    expect(ncclTopology(A100_FABRIC, { ranks: 128, ranksPerNode: 8 }).ring)
      .toEqual({ nChannels: 8, bwIntraGBps: 24, bwInterGBps: 24 });
  });

  it('DGX-H100 across nodes: one 48 GB/s channel per NDR NIC on the SM90 inter-node ladder', () => {
    expect(ncclTopology(H100_FABRIC, { ranks: 32, ranksPerNode: 8 }).ring)
      .toEqual({ nChannels: 8, bwIntraGBps: 48, bwInterGBps: 48 });
  });

  it('a data-parallel group of a TP-8 job (1 rank per node, 8 groups per node) gets one NIC', () => {
    const t = ncclTopology(A100_FABRIC, { ranks: 64, ranksPerNode: 1, concurrentGroupsPerNode: 8 });
    expect(t.placement.nicsPerNode).toBe(1);
    expect(t.ring.nChannels * t.ring.bwInterGBps).toBe(24);
  });

  it('a TP-1 data-parallel group over whole nodes gets all 8 NICs', () => {
    const t = ncclTopology(A100_FABRIC, { ranks: 64, ranksPerNode: 8 });
    expect(t.placement.nicsPerNode).toBe(8);
    expect(t.ring.nChannels * t.ring.bwInterGBps).toBe(192);
  });

  it('a lone GPU per node reaches only the NIC on its PCIe switch', () => {
    expect(ncclTopology(A100_FABRIC, { ranks: 16, ranksPerNode: 1 }).placement.nicsPerNode).toBe(1);
  });

  it('sub-node groups on NVSwitch keep each GPU\'s full NVLink (TP-4, two groups per node)', () => {
    const t = ncclTopology(H100_RING_ONLY_FABRIC, { ranks: 4, ranksPerNode: 4, concurrentGroupsPerNode: 2 });
    expect(t.placement.nvlinkShare).toBe(1);
    expect(t.ring).toEqual({ nChannels: 12, bwIntraGBps: 30, bwInterGBps: 30 });
  });

  it('GPUs in several concurrent groups split their NVLink between them', () => {
    const t = ncclTopology(A100_FABRIC, { ranks: 8, ranksPerNode: 8, concurrentGroupsPerNode: 2 });
    expect(t.placement.nvlinkShare).toBe(0.5);
    expect(t.ring.nChannels * t.ring.bwIntraGBps).toBe(120);
  });

  it('the 2-node tree raises bwIntra above bwInter while the intra-node chain fits (pass 2)', () => {
    const tree = ncclTopology(A100_FABRIC, { ranks: 16, ranksPerNode: 8 }).tree;
    expect(tree.bwInterGBps).toBe(24);
    expect(tree.bwIntraGBps).toBe(30);
  });

  it('DGX-1 V100 hybrid cube-mesh: a ring over 6 NVLink2 links at NCCL\'s Volta 20 GB/s each', () => {
    expect(ncclTopology(V100_FABRIC, node8).ring).toEqual({ nChannels: 6, bwIntraGBps: 20, bwInterGBps: 20 });
  });

  it('GB200 NVL72: a group of 72 or fewer spread over racks (9 of 36 in each of 4, 8 groups a rack) is 4 nodes, not one domain', () => {
    const t = ncclTopology(GB200_NVL72_FABRIC, { ranks: 36, ranksPerNode: 9, concurrentGroupsPerNode: 8 });
    expect(t.placement).toMatchObject({ nodes: 4, ranksPerNode: 9, nvlinkShare: 1 });
  });

  it('GB200 NVL72: a 72-GPU group is one NVSwitch domain, a single node for the tuner', () => {
    const t = ncclTopology(GB200_NVL72_FABRIC, { ranks: 72, ranksPerNode: 72 });
    expect(t.placement).toMatchObject({ nodes: 1, ranksPerNode: 72 });
    expect(t.ring).toEqual({ nChannels: 16, bwIntraGBps: 45, bwInterGBps: 45 });
  });

  it.each([
    [{ ranks: 12, ranksPerNode: 8 }, /divisor/],
    [{ ranks: 32, ranksPerNode: 16 }, /exceeds/],
    [{ ranks: 0, ranksPerNode: 1 }, /positive integer/],
    [{ ranks: 8, ranksPerNode: 8, concurrentGroupsPerNode: 0 }, /concurrentGroupsPerNode/],
  ])('rejects an impossible group %j', (group, message) => {
    expect(() => ncclTopology(A100_FABRIC, group)).toThrow(message);
  });
});
