import { describe, expect, it } from 'vitest';
import { GBps, GiB } from '@trainplan/units';
import { collectiveCost, emulatedCollectiveCost, emulatedStageSendCost } from '../../src/index.ts';
import { A100_FABRIC } from '../fixtures.ts';

// Audit defect 6: the stage boundary was emulated on a topology of 2 × (nodes per stage) from node
// 0, so a boundary that straddles two leaf switches further along the pipeline was never seen.
describe('pipeline-stage sends at their real node offsets', () => {
  it('GPT-3-like 128 DGX A100 nodes, 8 stages of 16, 8:1 oversubscription: the middle leaf\'s trunk carries the sends of both boundaries that straddle it', () => {
    // At 8:1 a 64-port leaf takes round(64·8/9) = 57 nodes (build-topology.ts), so leaves hold nodes
    // 0–56, 57–113 and 114–127, each with a full leaf's trunk per rail: 57 × 25 GB/s ÷ 8 (a part-filled
    // last leaf keeps all its uplinks). Per rail, the sends that leave the middle leaf: back across the
    // 56/57 boundary, stage 3 (48–63) → stage 2 (32–47) from nodes 57–63 (7) and stage 4 (64–79) →
    // stage 3 to nodes 48–56 (9); forward across 113/114, stage 6 (96–111) → stage 7 (112–127) to nodes
    // 114–127 (14): 30 sends up one trunk (and their 30 mirror images down it), 57·25/8/30 ≈ 5.94 GB/s
    // each, against 24 GB/s under one leaf. The outer leaves' trunks carry 16 and 14: not the bottleneck.
    const bytes = GiB(1);
    const eight = emulatedStageSendCost({ fabric: A100_FABRIC, nodesPerStage: 16, bytes, oversubscription: 8, stages: 8 });
    expect(eight.emulated).toBe(true);
    const trunkBound = bytes / (GBps((57 * 25) / 8) / 30);
    expect(eight.seconds).toBeGreaterThan(trunkBound);
    expect(eight.seconds).toBeLessThan(trunkBound * 1.001);
    // Two stages from node 0 (32 nodes, one leaf) see none of it: the NIC bounds the send.
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
