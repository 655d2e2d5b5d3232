import { describe, expect, it } from 'vitest';
import { GBps, GiB } from '@trainplan/units';
import { collectiveCost, emulatedCollectiveCost, emulatedStageSendCost } from '../../src/index.ts';
import { A100_FABRIC } from '../fixtures.ts';

// Audit defect 6: the stage boundary was emulated on a topology of 2 × (nodes per stage) from node
// 0, so a boundary that straddles two leaf switches further along the pipeline was never seen.
describe('pipeline-stage sends at their real node offsets', () => {
  it('GPT-3-like 128 DGX A100 nodes, 8 stages of 16, 8:1 oversubscription: a middle leaf\'s trunk carries the sends of both boundaries that straddle it', () => {
    // At 8:1 a 40-port HDR leaf (Quantum QM8700) takes round(40·8/9) = 36 nodes (build-topology.ts), so leaves hold
    // nodes 0–35, 36–71, 72–107 and 108–127, each with a full leaf's trunk per rail: 36 × 25 GB/s ÷ 8 (a part-filled
    // last leaf keeps all its uplinks). Node n sends to and hears from node n + 16 (n < 112), so each leaf boundary is
    // straddled by 16 pairs (n = 20–35, 56–71, 92–107), each sending one flow up each side's trunk. A middle leaf
    // (36–71 or 72–107) has two boundaries: 32 sends up one trunk (and 32 down it), 36·25/8/32 ≈ 3.52 GB/s each,
    // against 24 GB/s under one leaf. The outer leaves' trunks carry 16: not the bottleneck.
    // (On the 64-port leaf once used for every fabric: 57 nodes a leaf, 30 sends on the middle trunk.)
    const bytes = GiB(1);
    const eight = emulatedStageSendCost({ fabric: A100_FABRIC, nodesPerStage: 16, bytes, oversubscription: 8, stages: 8 });
    expect(eight.emulated).toBe(true);
    const trunkBound = bytes / (GBps((36 * 25) / 8) / 32);
    expect(eight.seconds).toBeGreaterThan(trunkBound);
    expect(eight.seconds).toBeLessThan(trunkBound * 1.001);
    // Two stages from node 0 (32 nodes, within one 36-node leaf) see none of it: the NIC bounds the send.
    const two = emulatedStageSendCost({ fabric: A100_FABRIC, nodesPerStage: 16, bytes, oversubscription: 8 });
    expect(two.seconds).toBeLessThan((bytes / GBps(24)) * 1.001);
  });

  it('a refused emulation answers with the closed form and says why', () => {
    const cost = emulatedCollectiveCost({
      fabric: A100_FABRIC, op: 'all-reduce', bytes: GiB(1), layout: 'strided',
      group: { ranks: 8, ranksPerNode: 8 }, oversubscription: 1,
    });
    expect(cost.emulated).toBe(true);
    // An all-to-all of 65,536 ranks: 2 events and a flow in flight for each of its n(n − 1) sends.
    const refused = emulatedCollectiveCost({
      fabric: A100_FABRIC, op: 'all-to-all', bytes: GiB(1), layout: 'strided', group: { ranks: 65_536, ranksPerNode: 8 },
    });
    expect(refused.emulated).toBe(false);
    expect(refused.reason).toMatch(/event budget/);
    const closed = collectiveCost({ op: 'all-to-all', bytes: GiB(1), group: { ranks: 65_536, ranksPerNode: 8 }, fabric: A100_FABRIC });
    expect(refused.seconds).toBe(closed.seconds);
  });
});
