// QA 2026-11-29: ring broadcast and reduce cost one hop's latency whatever the rank count (8 B over 1,024
// A100s: 9.31 µs, where an all-gather of 8 B took 1.25 ms), in the closed form and in the emulator, whose
// chain started every edge at once. NCCL's tuner does charge one hop (src/graph/tuning.cc: for Broadcast
// and Reduce with sameChannels, `latencies += lat`, one hwLat), and that figure is kept: it picks the
// protocol. The run is a pipelined chain (src/device/broadcast.h), whose first chunk crosses every hop.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GiB, toUs } from '@trainplan/units';
import {
  buildTopology, collectiveCost, emulateCollectives, launchedBandwidthShare, NCCL_TABLES, ncclPredictedCost, ncclTopology,
} from '../src/index.ts';
import type { CollectiveOp, CommGroup, Fabric } from '../src/index.ts';
import { ncclCandidatesFor } from '../src/nccl-candidates.ts';
import { A100_FABRIC, GB200_NVL72_FABRIC, H100_FABRIC, H100_RING_ONLY_FABRIC, V100_FABRIC } from './fixtures.ts';

const hw = NCCL_TABLES.hwLatencyUs.value;
const base = NCCL_TABLES.baseLatencyUs.value.ring;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('ring broadcast and reduce: the chain\'s first byte crosses every hop', () => {
  it.each(['broadcast', 'reduce'] as const)('%s of 8 B over 128 DGX A100 nodes (1,024 ranks) takes its 1,023 hops, not one', (op) => {
    const request = { op, bytes: 8, group: { ranks: 1024, ranksPerNode: 8 }, fabric: A100_FABRIC };
    // By hand, Ring/LL (the tuner's pick at 8 B): base 6.6 µs; the chain leaves the root's node part-way
    // (channels enter each node at different GPUs) and so crosses all 128 node boundaries, each a network
    // step of 2.7 µs; its other 1,023 − 128 = 895 hops are NVLink steps of max(0.6, 1 µs net overhead).
    const chainUs = base.LL + 895 * Math.max(hw.nvlink.ring.LL, NCCL_TABLES.netOverheadUs.value.intel) + 128 * hw.net.ring.LL;
    expect(chainUs).toBeCloseTo(1247.2, 9);
    const cost = collectiveCost(request);
    expect(cost.protocol).toBe('LL');
    expect(toUs(cost.seconds)).toBeGreaterThanOrEqual(chainUs);
    expect(toUs(cost.seconds)).toBeLessThan(chainUs * 1.001); // 8 B on the wire adds well under a µs
    // The tuner's own prediction keeps its one network hop: 6.6 + 2.7 µs.
    expect(toUs(ncclPredictedCost(request).seconds)).toBeLessThan((base.LL + hw.net.ring.LL) * 1.001);
  });

  it('on one DGX H100 a broadcast of 8 B crosses 7 NVLink hops: 6.6 + 7 × 0.6 µs', () => {
    const cost = collectiveCost({ op: 'broadcast', bytes: 8, group: { ranks: 8, ranksPerNode: 8 }, fabric: H100_FABRIC });
    expect(toUs(cost.seconds)).toBeGreaterThanOrEqual(base.LL + 7 * hw.nvlink.ring.LL);
    expect(toUs(cost.seconds)).toBeLessThan((base.LL + 7 * hw.nvlink.ring.LL) * 1.001);
  });

  it.each(['broadcast', 'reduce'] as const)('the emulated %s of 8 B waits for the chain too: on 4 and 128 DGX A100 nodes within a hundredth of the closed form', (op) => {
    for (const nodes of [4, 128]) {
      const r = emulateCollectives({ topology: buildTopology({ fabric: A100_FABRIC, nodes }), collectives: [{ op, bytes: 8, gpus: range(nodes * 8) }] });
      if (!r.ok) throw new Error(r.message);
      const closed = collectiveCost({ op, bytes: 8, group: { ranks: nodes * 8, ranksPerNode: 8 }, fabric: A100_FABRIC });
      // Not equal on 128 nodes: there a chain's hop between leaves pays its own route through the spine (four
      // cables, not the one leaf's two NCCL's figure holds): 0.5 µs on each of the few such hops.
      expect(Math.abs(r.seconds / closed.seconds - 1), `${nodes} nodes`).toBeLessThan(0.01);
    }
  });
});

describe('ring broadcast and reduce: time never falls as the size doubles (nccl-tests sweeps, 8 B to 16 GiB)', () => {
  // Before the chain's hops were charged, a tuner's switch from LL to LL128 made the next size faster: 53.0 µs
  // at 128 KiB (LL on one channel of a 128-rank ring) against 19.6 µs at 256 KiB on 16 DGX A100 nodes; over
  // 1–40 nodes of 1, 2, 4 or 8 GPUs, 620 doublings fell on the DGX A100 and H100 fabrics. Now a switch to LL128 or
  // Simple adds (nRanks − 1) × their larger per-hop latency, which outweighs what the switch saves there.
  const cases = (fabrics: readonly [string, Fabric][]) => fc.record({
    fabric: fc.constantFrom(...fabrics),
    op: fc.constantFrom<CollectiveOp>('broadcast', 'reduce'),
    nodes: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constantFrom(64, 128, 1024)),
    ranksPerNode: fc.constantFrom(1, 2, 4, 8, 72),
  }).filter(({ fabric: [, fabric], nodes, ranksPerNode }) => nodes * ranksPerNode > 1 && ranksPerNode <= fabric.gpusPerNode);
  const sweep = (fabric: Fabric, op: CollectiveOp, group: CommGroup) => {
    const topology = ncclTopology(fabric, group);
    const out: { bytes: number; seconds: number; cut: boolean }[] = [];
    for (let bytes = 8; bytes <= GiB(16); bytes *= 2) {
      const cost = collectiveCost({ op, bytes, group, fabric });
      const chosen = ncclCandidatesFor(topology, op).find((c) => c.algorithm === cost.algorithm && c.protocol === cost.protocol)!;
      out.push({ bytes, seconds: cost.seconds, cut: launchedBandwidthShare(chosen, topology.ring.nChannels, group.ranks, bytes) < 1 });
    }
    return out;
  };

  it('on DGX A100 and DGX H100 (with NVLS or ring only), for any node count and GPUs per node', () => {
    fc.assert(fc.property(cases([['A100', A100_FABRIC], ['H100', H100_FABRIC], ['H100 ring only', H100_RING_ONLY_FABRIC]]), ({ fabric: [, fabric], op, nodes, ranksPerNode }) => {
      const rows = sweep(fabric, op, { ranks: nodes * ranksPerNode, ranksPerNode });
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.seconds, `${rows[i]!.bytes} B`).toBeGreaterThanOrEqual(rows[i - 1]!.seconds);
    }), { numRuns: 200 });
  });

  it('on any fabric, a doubling is faster only after a size NCCL ran on a cut launch, which its tuner does not see', () => {
    // NCCL picks the protocol on its tuner's times, then launches fewer channels and threads than the graph has for
    // a small message (nccl-runtime-model.ts launchedBandwidthShare; Ring/LL's threshold is × nRanks). Where that cut
    // costs more than the next protocol's extra hop latency, the larger size is faster, as NCCL's own would be:
    // on a DGX-1 (V100) of 17 nodes, 256 KiB on LL 345 µs, 512 KiB on LL128 318 µs; on one GB200 NVL72 domain, LL
    // at 512 KiB on 1 channel, at 1 MiB on 3. Nothing else may make a larger size faster.
    const all: [string, Fabric][] = [['A100', A100_FABRIC], ['H100', H100_FABRIC], ['V100 DGX-1', V100_FABRIC], ['GB200 NVL72', GB200_NVL72_FABRIC]];
    fc.assert(fc.property(cases(all), ({ fabric: [, fabric], op, nodes, ranksPerNode }) => {
      const rows = sweep(fabric, op, { ranks: nodes * ranksPerNode, ranksPerNode });
      for (let i = 1; i < rows.length; i++) {
        if (rows[i]!.seconds < rows[i - 1]!.seconds) expect(rows[i - 1]!.cut, `${rows[i]!.bytes} B is faster than ${rows[i - 1]!.bytes} B`).toBe(true);
      }
    }), { numRuns: 200 });
  });
});
