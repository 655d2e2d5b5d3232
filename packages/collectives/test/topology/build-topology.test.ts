import { describe, expect, it } from 'vitest';
import { GBps, GiB } from '@trainplan/units';
import { buildTopology, emulateCollectives, summariseTopology } from '../../src/index.ts';
import { A100_FABRIC } from '../fixtures.ts';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const trunks = (nodes: number, oversubscription: number) => summariseTopology(buildTopology({ fabric: A100_FABRIC, nodes, oversubscription }))
  .links.filter((l) => l.kind === 'leaf-spine' || l.kind === 'spine-leaf');

// QA 2026-11-29: each leaf's trunk was sized by the nodes plugged into it, so the one node of a last leaf
// got 1/51 of a trunk at 4:1, and one node more made a 1 GiB all-reduce 3–11× slower (51 → 52 nodes:
// 15.2 → 48.4 ms; 120 → 121 at 16:1: 17.6 → 191 ms). A leaf keeps every uplink it is cabled with. (Those counts were
// on the 64-port leaf then used for every fabric; HDR's is the 40-port Quantum QM8700, as the fixture's network says.)
describe('fat tree: every leaf has a full leaf\'s trunk, however many nodes it holds', () => {
  it('33 DGX A100 nodes at 4:1: the one-node second leaf of each rail has the 32-node leaf\'s trunk, 32 × 25 GB/s ÷ 4', () => {
    // 40 · 4/5 = 32 down ports (and 8 up) per 40-port HDR leaf (build-topology.ts), one HDR NIC (25 GB/s line rate)
    // each: the trunk is the 8 uplinks' 8 × 25 GB/s = 32 × 25 GB/s ÷ 4.
    const full = GBps((32 * 25) / 4);
    const at32 = trunks(32, 4);
    const at33 = trunks(33, 4);
    expect(at32.reduce((n, l) => n + l.count, 0)).toBe(2 * 8); // one leaf per rail, up and down
    expect(at33.reduce((n, l) => n + l.count, 0)).toBe(2 * 16); // two leaves per rail
    for (const l of [...at32, ...at33]) expect(l.bandwidthBytesPerSecond).toBeCloseTo(full, 0);
  });

  it.each([4, 16])('at %i:1, a 1 GiB ring all-reduce over 40 … 130 DGX A100 nodes never slows by more than a hundredth when one node is added', (R) => {
    // The bound, by hand. One more node adds 8 ranks: NCCL's ring latency (nccl-ring-model.ts) gains 2·7
    // intra-node steps and 2 inter-node steps, at most 14 × 3.4 µs + 2 × (14 µs + 1 µs of wire through the
    // spine) = 77.6 µs, × 1.4 with the Simple plateau: under 110 µs. The bandwidth term 2(n−1)/n · S / B grows
    // by a factor under 1 + 8/n² (n ≥ 320 ranks). The time is at least that bandwidth term at the NICs' rate,
    // 8 × 24 GB/s a node: 2 · (319/320) · 1 GiB / 192 GB/s ≈ 11.1 ms, so one node adds under 1% — as long as
    // no trunk binds. None does: a ring channel crosses a leaf boundary once each way, a rail carries at most
    // 2 of NCCL's 12 A100 channels, so a trunk carries at most 2 × 24 = 48 GB/s, under the 59.4 GB/s of a
    // 38-node 40-port HDR leaf at 16:1 (round(40 · 16/17) = 38; 38 × 25 / 16). Nor can a node more make it faster: more steps, and
    // 2(n−1)/n of the buffer through each rank grows with n.
    let previous = 0;
    for (let nodes = 40; nodes <= 130; nodes++) {
      const topology = buildTopology({ fabric: A100_FABRIC, nodes, oversubscription: R });
      const r = emulateCollectives({ topology, collectives: [{ op: 'all-reduce', bytes: GiB(1), gpus: range(nodes * 8), algorithm: 'ring' }] });
      if (!r.ok) throw new Error(r.message);
      if (previous > 0) {
        expect(r.seconds / previous, `${nodes - 1} → ${nodes} nodes`).toBeLessThanOrEqual(1.01);
        expect(r.seconds, `${nodes - 1} → ${nodes} nodes`).toBeGreaterThanOrEqual(previous);
      }
      previous = r.seconds;
    }
  }, 60_000);
});
