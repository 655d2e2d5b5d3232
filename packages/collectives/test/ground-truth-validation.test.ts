import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GiB, KiB, MiB, toGBps, toUs } from '@trainplan/units';
import { collectiveCost } from '../src/index.ts';
import type { CollectiveOp, CommGroup, Fabric } from '../src/index.ts';
import { A100_FABRIC, A100_PCIE_FABRIC, H100_FABRIC, H100_PCIE_FABRIC, V100_FABRIC } from './fixtures.ts';

interface Point { readonly bytes: number; readonly time_us: number; readonly busbw_GBps: number }
interface Entry { readonly id: string; readonly busbw_GBps: number | null; readonly points?: readonly Point[] }

// shared/ground-truth sits beside the repository: /work/shared from /work/main.
const GROUND_TRUTH = new URL('../../../../shared/ground-truth/collectives.json', import.meta.url);
const entries = JSON.parse(readFileSync(GROUND_TRUTH, 'utf8')) as readonly Entry[];
const entry = (id: string): Entry => {
  const found = entries.find((e) => e.id === id);
  if (!found) throw new Error(`ground truth has no entry ${id}`);
  return found;
};
const relativeError = (predicted: number, measured: number) => predicted / measured - 1;

/** Tolerances of reference §7.9: ±5% busbw at ≥ 256 MB, ±15% for 64 KB – 64 MB, ±30% on the latency floor. */
const tolerance = (bytes: number): number | null =>
  bytes >= MiB(256) ? 0.05 : bytes >= KiB(64) && bytes <= MiB(64) ? 0.15 : null;

const node8: CommGroup = { ranks: 8, ranksPerNode: 8 };
const sweeps = [
  ['dgxc-nccl-readme-h100-allreduce-sweep', H100_FABRIC],
  ['stas00-a100-1node-allreduce-sweep', A100_FABRIC],
] as const;

/**
 * Points the model (NCCL's choice, costed as NCCL runs it: launched channels, NVLS chunk pipeline)
 * still misses by more than the tolerance. They are NOT absorbed by widening tolerances: each is
 * asserted to still miss, so the list shrinks visibly when the model improves. The H100 sweep has
 * none left. The stas00 A100 sweep is not reachable with NCCL's constants: its small messages run
 * at ~1/3 of NCCL's Ampere LL rate (64 KiB: 46.8 µs measured vs 22.8 predicted), it has a flat
 * ~101 µs plateau at 1–4 MiB and 16 MiB slower than 8 MiB in busbw, and it reaches the asymptote
 * late (256 MiB: 194 GB/s vs 233). It ran `all_reduce_perf -g 8` — one process driving all 8 GPUs,
 * which serialises launches — on an unknown NCCL version; fitting it would mean a per-source knob.
 */
const KNOWN_MISSES: Readonly<Record<string, readonly number[]>> = {
  'dgxc-nccl-readme-h100-allreduce-sweep': [],
  'stas00-a100-1node-allreduce-sweep': [
    KiB(64), KiB(128), KiB(256), KiB(512), MiB(1), MiB(2), MiB(4), MiB(8), MiB(16), MiB(32), MiB(64), MiB(256), MiB(512),
  ],
};
const FLOOR_MISSES: readonly string[] = ['stas00-a100-1node-allreduce-sweep'];

describe.each(sweeps)('all-reduce sweep %s', (id, fabric) => {
  const points = entry(id).points ?? [];
  const checked = points.filter((p) => tolerance(p.bytes) !== null);
  const predicted = (bytes: number) => collectiveCost({ op: 'all-reduce', bytes, group: node8, fabric });
  const misses = KNOWN_MISSES[id] ?? [];

  it.each(checked.filter((p) => !misses.includes(p.bytes)))('at $bytes B, busbw within tolerance of $busbw_GBps GB/s', (p) => {
    const error = relativeError(toGBps(predicted(p.bytes).busBandwidth), p.busbw_GBps);
    expect(Math.abs(error)).toBeLessThanOrEqual(tolerance(p.bytes) ?? 0);
  });

  it.each(checked.filter((p) => misses.includes(p.bytes)))('known miss (reported, not tolerated) at $bytes B vs $busbw_GBps GB/s', (p) => {
    const error = relativeError(toGBps(predicted(p.bytes).busBandwidth), p.busbw_GBps);
    expect(Math.abs(error)).toBeGreaterThan(tolerance(p.bytes) ?? 0);
  });

  it('latency floor (the sweep\'s smallest size) within ±30%, or a reported miss', () => {
    const smallest = points[0];
    if (!smallest) throw new Error(`${id} has no points`);
    const error = relativeError(toUs(predicted(smallest.bytes).seconds), smallest.time_us);
    if (FLOOR_MISSES.includes(id)) expect(Math.abs(error)).toBeGreaterThan(0.3);
    else expect(Math.abs(error)).toBeLessThanOrEqual(0.3);
  });
});

describe('against ASTRA-sim\'s published error', () => {
  it('mean |busbw error| over the H100 sweep\'s scored points beats ASTRA-sim\'s best H100 figure (9.69%, 8 GPUs)', () => {
    const checked = (entry('dgxc-nccl-readme-h100-allreduce-sweep').points ?? []).filter((p) => tolerance(p.bytes) !== null);
    const errors = checked.map((p) => {
      const predicted = collectiveCost({ op: 'all-reduce', bytes: p.bytes, group: node8, fabric: H100_FABRIC });
      return Math.abs(relativeError(toGBps(predicted.busBandwidth), p.busbw_GBps));
    });
    expect(errors.length).toBeGreaterThan(10);
    expect(errors.reduce((a, b) => a + b, 0) / errors.length).toBeLessThan(0.0969);
  });
});

/** Large-message busbw for a statement: 8 GiB, well past every latency term. */
const busbwAt8GiB = (op: CollectiveOp, fabric: Fabric, group: CommGroup, algorithm: 'auto' | 'ring' = 'auto') =>
  toGBps(collectiveCost({ op, bytes: GiB(8), group, fabric, algorithm }).busBandwidth);

describe('maintainer statements and vendor charts (large messages, ±5%)', () => {
  it.each([
    ['nccl-812-dgxa100-multinode: DGX A100, 8×HDR, multi-node ring', 'nccl-812-dgxa100-multinode',
      busbwAt8GiB('all-reduce', A100_FABRIC, { ranks: 32, ranksPerNode: 8 }, 'ring')],
    ['nvidia-gtc24-s62129-dgx-a100-multinode: DGX A100, 8×HDR, 4 nodes (auto)', 'nvidia-gtc24-s62129-dgx-a100-multinode',
      busbwAt8GiB('all-reduce', A100_FABRIC, { ranks: 32, ranksPerNode: 8 })],
    ['nccl-tests-29-dgx1-edr: DGX-1 V100, 4×EDR, 4 nodes (auto)', 'nccl-tests-29-dgx1-edr',
      busbwAt8GiB('all-reduce', V100_FABRIC, { ranks: 32, ranksPerNode: 8 })],
    ['nccl-tests-212-h100-nvlink: H100 ring (NCCL_ALGO=RING)', 'nccl-tests-212-h100-nvlink',
      busbwAt8GiB('all-reduce', H100_FABRIC, node8, 'ring')],
    ['nvidia-gtc24-s62129-nvlink4-sharp-h100: H100 NVLS', 'nvidia-gtc24-s62129-nvlink4-sharp-h100',
      busbwAt8GiB('all-reduce', H100_FABRIC, node8)],
    ['nvidia-gtc24-s62129-nvlink3-a100: A100 NVSwitch', 'nvidia-gtc24-s62129-nvlink3-a100',
      busbwAt8GiB('all-reduce', A100_FABRIC, node8)],
    ['nvidia-gtc24-s62129-dgx-h100-multinode: DGX H100, 8×NDR', 'nvidia-gtc24-s62129-dgx-h100-multinode',
      busbwAt8GiB('all-reduce', H100_FABRIC, { ranks: 32, ranksPerNode: 8 }, 'ring')],
    ['nvidia-gtc24-s62129-nvlink2-v100: DGX-1 V100', 'nvidia-gtc24-s62129-nvlink2-v100',
      busbwAt8GiB('all-reduce', V100_FABRIC, node8)],
    // 8 PCIe cards, no NVLink: NCCL's ring of 2 channels × 12 (Gen4) or 2 × 24 GB/s (Gen5) fills the x16 link as NCCL
    // rates it (width × per-lane rate / 80: 24 and 48 GB/s, src/graph/topo.cc), not its 31.5 / 63 GB/s line rate.
    ['nvidia-gtc24-s62129-pcie-gen4: 8 × A100 PCIe, PCIe Gen4', 'nvidia-gtc24-s62129-pcie-gen4',
      busbwAt8GiB('all-reduce', A100_PCIE_FABRIC, node8)],
    ['nvidia-gtc24-s62129-pcie-gen5: 8 × H100 PCIe, PCIe Gen5', 'nvidia-gtc24-s62129-pcie-gen5',
      busbwAt8GiB('all-reduce', H100_PCIE_FABRIC, node8)],
    ['nccl-1281-h100-rs-ag: H100 reduce-scatter', 'nccl-1281-h100-rs-ag',
      busbwAt8GiB('reduce-scatter', H100_FABRIC, node8)],
    // "370GB/s, which you can observe as BusBw when running non-allreduce operations".
    ['nccl-tests-212-h100-nvlink: H100 all-gather', 'nccl-tests-212-h100-nvlink',
      busbwAt8GiB('all-gather', H100_FABRIC, node8)],
    ['nccl-tests-212-h100-nvlink: H100 reduce-scatter', 'nccl-tests-212-h100-nvlink',
      busbwAt8GiB('reduce-scatter', H100_FABRIC, node8)],
  ] as const)('%s', (_title, id, predictedGBps) => {
    const measured = entry(id).busbw_GBps ?? Number.NaN;
    expect(Math.abs(relativeError(predictedGBps, measured))).toBeLessThanOrEqual(0.05);
  });

  it('the 480 GB/s NVLS statement: algbw about 275 (nccl-tests#212)', () => {
    const algbw = toGBps(collectiveCost({ op: 'all-reduce', bytes: GiB(16), group: node8, fabric: H100_FABRIC }).algBandwidth);
    expect(Math.abs(relativeError(algbw, 275))).toBeLessThanOrEqual(0.05);
  });

  // One rank per node, one NIC per rank: a data-parallel ring of a TP-8 job.
  const perNic = (fabric: Fabric) => busbwAt8GiB('all-reduce', fabric, { ranks: 16, ranksPerNode: 1, concurrentGroupsPerNode: 8 });

  it('nccl-tests-160: about 24 GB/s per HDR NIC', () => {
    expect(Math.abs(relativeError(perNic(A100_FABRIC), 24))).toBeLessThanOrEqual(0.05);
  });

  it('nccl-tests-290: 46–48 GB/s per NDR NIC', () => {
    expect(perNic(H100_FABRIC)).toBeGreaterThanOrEqual(46);
    expect(perNic(H100_FABRIC)).toBeLessThanOrEqual(48);
  });
});
