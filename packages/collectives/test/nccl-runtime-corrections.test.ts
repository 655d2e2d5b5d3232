// Corrections of 2026-11-28 found by a QA pass against NCCL's source (src/tuning/{ring,nvls}.cc) and the emulator.
import { describe, expect, it } from 'vitest';
import { GiB, KiB, MiB, toGBps, toUs } from '@trainplan/units';
import { collectiveCost, emulatedCollectiveCost, NCCL_TABLES, ncclPredictedCost, ncclTopology } from '../src/index.ts';
import type { CollectiveOp, CommGroup, Fabric } from '../src/index.ts';
import { ncclCandidatesFor } from '../src/nccl-candidates.ts';
import { H100_FABRIC, V100_FABRIC } from './fixtures.ts';

/** DGX B200 as these tests need it: the H100 node with NVLink 5 (twice the per-link rate), the same NICs. */
const B200_FABRIC: Fabric = { ...H100_FABRIC, generation: 'blackwell', nvlinkBandwidthPerLink: 2 * H100_FABRIC.nvlinkBandwidthPerLink };
const powersOfTwo = (from: number, to: number): number[] => {
  const out: number[] = [];
  for (let b = from; b <= to; b *= 2) out.push(b);
  return out;
};
const hw = NCCL_TABLES.hwLatencyUs.value;
const base = NCCL_TABLES.baseLatencyUs.value.ring;

describe('broadcast and reduce: one hop of the right kind (ring.cc: hwLevel = nNodes == 1 ? intraHw : NET)', () => {
  it.each(['broadcast', 'reduce'] as const)('%s: an NVLink hop on one node, a network hop across 4 nodes', (op) => {
    const latency = (ranks: number) => ncclCandidatesFor(ncclTopology(H100_FABRIC, { ranks, ranksPerNode: 8 }), op)
      .map((c) => [c.protocol, c.latencyUs] as const);
    for (const [protocol, us] of latency(8)) expect(us).toBeCloseTo(base[protocol] + hw.nvlink.ring[protocol], 12);
    for (const [protocol, us] of latency(32)) expect(us).toBeCloseTo(base[protocol] + hw.net.ring[protocol], 12);
  });
});

describe('NVLS all-gather and reduce-scatter keep nvls.cc\'s bw as their algorithm bandwidth (no nRanks/nSteps)', () => {
  it.each(['all-gather', 'reduce-scatter'] as const)('%s on 8 H100s: bwIntra·eff·(nCh−1)/nCh·(ppn−1)/ppn·nCh', (op) => {
    const topology = ncclTopology(H100_FABRIC, { ranks: 8, ranksPerNode: 8 });
    const nvls = topology.nvls;
    if (!nvls) throw new Error('the H100 node has NVLS');
    const expected = nvls.bwIntraGBps * NCCL_TABLES.nvlsEfficiency.value.hopper * ((nvls.nChannels - 1) / nvls.nChannels) * (7 / 8) * nvls.nChannels;
    const forced = ncclPredictedCost({ op, bytes: GiB(8), group: { ranks: 8, ranksPerNode: 8 }, fabric: H100_FABRIC, algorithm: 'nvls' });
    // At 8 GiB the 25 µs latency moves the rate by under 0.1%; nRanks/nSteps would add 14%.
    expect(toGBps(forced.algBandwidth) / expected).toBeCloseTo(1, 2);
  });
});

describe('concurrent groups: the closed form places them as the emulator does (the node\'s first GPUs)', () => {
  it.each([1, 2, 4, 8])('%i one-GPU groups per DGX-1 over 4 nodes: closed form within 2% of the emulation', (groups) => {
    const group: CommGroup = { ranks: 4, ranksPerNode: 1, concurrentGroupsPerNode: groups };
    const request = { op: 'all-reduce' as const, bytes: GiB(1), group, fabric: V100_FABRIC };
    const closed = collectiveCost(request).seconds;
    const emulated = emulatedCollectiveCost({ ...request, layout: 'strided' });
    expect(emulated.emulated).toBe(true);
    expect(closed / emulated.seconds).toBeGreaterThan(0.98);
    expect(closed / emulated.seconds).toBeLessThan(1.02);
  });
  it('two groups on GPUs 0 and 1 of a DGX-1 share NIC 0: half the busbw of one group', () => {
    const busbw = (groups: number) => collectiveCost({
      op: 'all-reduce', bytes: GiB(1), fabric: V100_FABRIC, group: { ranks: 4, ranksPerNode: 1, concurrentGroupsPerNode: groups },
    }).busBandwidth;
    expect(busbw(2) / busbw(1)).toBeCloseTo(0.5, 2);
  });
});

describe('the multi-node LL cap bounds a launch, not each channel (its row is picked by CPU vendor: a host limit)', () => {
  it.each([
    ['broadcast', 4], ['reduce', 4], ['all-gather', 4], ['reduce-scatter', 4], ['all-reduce', 32],
  ] as const)('%s over %i H100 nodes: time never falls as the size doubles (nccl-tests sweeps, 8 B to 1 GiB)', (op: CollectiveOp, nodes) => {
    const fabric = H100_FABRIC;
    const group: CommGroup = { ranks: nodes * fabric.gpusPerNode, ranksPerNode: fabric.gpusPerNode };
    let previous = 0;
    for (const bytes of powersOfTwo(8, GiB(1))) {
      const seconds = collectiveCost({ op, bytes, group, fabric }).seconds;
      expect(seconds, `${bytes} B`).toBeGreaterThanOrEqual(previous);
      previous = seconds;
    }
  });
  it('one node keeps the LL cap per channel (the H100 sweep: 64 KiB in 19.5 µs measured)', () => {
    const t = collectiveCost({ op: 'all-reduce', bytes: KiB(64), group: { ranks: 8, ranksPerNode: 8 }, fabric: H100_FABRIC }).seconds;
    expect(toUs(t)).toBeGreaterThan(19.54 * 0.85);
    expect(toUs(t)).toBeLessThan(19.54 * 1.15);
  });
});

describe('NVLSTree all-reduce: the NVLink stages at the one-node NVLS rate, the tree\'s at what the heads\' NICs carry under the tuner\'s cap', () => {
  const group: CommGroup = { ranks: 16, ranksPerNode: 8 };
  it('two H100 nodes: the tuner\'s per-channel NVLSTree cap (57.7) binds before the NICs, so the run tends to the tuner\'s rate', () => {
    const tree = ncclCandidatesFor(ncclTopology(H100_FABRIC, group), 'all-reduce').find((c) => c.algorithm === 'nvls-tree');
    if (!tree) throw new Error('NVLSTree runs on two H100 nodes');
    expect(tree.algBandwidthGBps).toBeCloseTo((57.7 * 8 * 16) / 30, 9);
    const algbw = toGBps(collectiveCost({ op: 'all-reduce', bytes: GiB(16), group, fabric: H100_FABRIC, algorithm: 'nvls-tree' }).algBandwidth);
    expect(algbw).toBeLessThanOrEqual(tree.algBandwidthGBps);
    expect(algbw).toBeGreaterThan(tree.algBandwidthGBps * 0.98);
  });
  it('four B200 nodes: an interior head sends two shares a channel, so the tree stages run at 8 heads × 48 / 2', () => {
    const fourNodes: CommGroup = { ranks: 32, ranksPerNode: 8 };
    const algbw = toGBps(collectiveCost({ op: 'all-reduce', bytes: GiB(16), group: fourNodes, fabric: B200_FABRIC, algorithm: 'nvls-tree' }).algBandwidth);
    expect(algbw).toBeLessThanOrEqual((8 * 48) / 2);
    expect(algbw).toBeGreaterThan(((8 * 48) / 2) * 0.97);
  });
  it('two B200 nodes, 16 MiB (one loop): less than four passes of the message at the tree\'s rate', () => {
    const request = { op: 'all-reduce' as const, bytes: MiB(16), group, fabric: B200_FABRIC, algorithm: 'nvls-tree' as const };
    const runtime = toUs(collectiveCost(request).seconds);
    const tree = ncclCandidatesFor(ncclTopology(B200_FABRIC, group), 'all-reduce').find((c) => c.algorithm === 'nvls-tree');
    if (!tree) throw new Error('NVLSTree runs on two B200 nodes');
    const fourPassesUs = tree.latencyUs + (4 * MiB(16)) / (1000 * tree.algBandwidthGBps);
    expect(runtime).toBeLessThan(fourPassesUs);
    // …and no faster than NCCL's own (corrected) prediction, which knows mid sizes are slow on Blackwell.
    expect(runtime).toBeGreaterThanOrEqual(toUs(ncclPredictedCost(request).seconds));
  });
});
