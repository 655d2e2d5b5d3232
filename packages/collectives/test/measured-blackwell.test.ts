// Blackwell all-reduce against CoreWeave's public nccl-tests runs (all_reduce_perf, out-of-place busbw, GB = 1e9),
// costed on the hardware presets the CLI uses. Tolerance as collectives-reference §7.9: ±5% busbw at ≥ 256 MB.
import { describe, expect, it } from 'vitest';
import { GiB, MiB, toGBps } from '@trainplan/units';
import { gpuById, networkById, NVLINKS, systemById } from '@trainplan/hardware';
import { collectiveCost, fabricFromSpecs, ncclPredictedCost, ncclTopology } from '../src/index.ts';
import type { CommGroup, Fabric } from '../src/index.ts';
import { ncclCandidatesFor } from '../src/nccl-candidates.ts';

const preset = (systemId: 'dgx-b200' | 'dgx-h100' | 'gb200-nvl72'): Fabric => {
  const system = systemById(systemId);
  const gpu = system && gpuById(system.gpu);
  const network = system && networkById(system.network);
  if (!system || !gpu || !network) throw new Error(`no preset ${systemId}`);
  return fabricFromSpecs({ gpu, system, network, nvlink: NVLINKS[gpu.nvlink] });
};
const DGX_B200 = preset('dgx-b200');
const DGX_H100 = preset('dgx-h100');
const GB200_NVL72 = preset('gb200-nvl72');

const busbw = (fabric: Fabric, group: CommGroup, bytes: number): number =>
  toGBps(collectiveCost({ op: 'all-reduce', bytes, group, fabric }).busBandwidth);
const relativeError = (predicted: number, measured: number): number => predicted / measured - 1;
const TOLERANCE = 0.05;
const twoNodes: CommGroup = { ranks: 16, ranksPerNode: 8 };

describe('two 8-GPU nodes, no SHARP (coreweave/nccl-tests#92, 2026-05: 8 GiB all-reduce, 2 nodes × 8 GPUs)', () => {
  it.each([
    ['DGX B200, 8 × NDR', DGX_B200, 690.07],
    ['DGX H100, 8 × NDR', DGX_H100, 440.58],
  ] as const)('%s: busbw within ±5%% of %s GB/s', (_name, fabric, measured) => {
    expect(collectiveCost({ op: 'all-reduce', bytes: GiB(8), group: twoNodes, fabric }).algorithm).toBe('nvls-tree');
    expect(Math.abs(relativeError(busbw(fabric, twoNodes, GiB(8)), measured))).toBeLessThanOrEqual(TOLERANCE);
  });

  it('NCCL\'s search keeps the 2-node NVLS graph\'s bwIntra at the NIC speed (48) where one B200 node gets 80', () => {
    const oneNode = ncclTopology(DGX_B200, { ranks: 8, ranksPerNode: 8 }).nvls;
    const acrossNodes = ncclTopology(DGX_B200, twoNodes).nvls;
    expect(oneNode).toMatchObject({ nChannels: 8, bwIntraGBps: 80 });
    expect(acrossNodes).toMatchObject({ nChannels: 8, bwIntraGBps: 48, bwInterGBps: 48 });
  });

  it('the tuner keeps its own figure and choice: NVLSTree at 48·0.74·7/8·2·8 bus GB/s, under what the run reaches', () => {
    const tree = ncclCandidatesFor(ncclTopology(DGX_B200, twoNodes), 'all-reduce').find((c) => c.algorithm === 'nvls-tree');
    if (!tree) throw new Error('NVLSTree runs on two B200 nodes');
    const tunerBus = 48 * 0.74 * (7 / 8) * 2 * 8;
    expect(tree.algBandwidthGBps).toBeCloseTo((tunerBus * 16) / 30, 9);
    const predicted = ncclPredictedCost({ op: 'all-reduce', bytes: GiB(8), group: twoNodes, fabric: DGX_B200 });
    expect(predicted.algorithm).toBe('nvls-tree');
    expect(busbw(DGX_B200, twoNodes, GiB(8))).toBeGreaterThan(toGBps(predicted.busBandwidth) * 1.3);
  });

  it('two nodes: the run is bound by the heads\' NICs, each share once each way (8 heads × bwInter 48 of algbw)', () => {
    const algbw = toGBps(collectiveCost({ op: 'all-reduce', bytes: GiB(16), group: twoNodes, fabric: DGX_B200 }).algBandwidth);
    expect(algbw).toBeLessThanOrEqual(8 * 48);
    expect(algbw).toBeGreaterThan(8 * 48 * 0.97);
  });
});

/** Sizes a model misses by more than the tolerance: asserted to still miss, so the list shrinks when the model improves. */
const checkRow = (fabric: Fabric, group: CommGroup, bytes: number, measured: number, knownMiss: boolean): void => {
  const error = Math.abs(relativeError(busbw(fabric, group, bytes), measured));
  if (knownMiss) expect(error).toBeGreaterThan(TOLERANCE);
  else expect(error).toBeLessThanOrEqual(TOLERANCE);
};

describe('one GB200 NVL72 rack, 72 GPUs, NVLS (coreweave/nccl-tests#43, 2025-02)', () => {
  // Known misses: mid sizes run slower than the NVLS pipeline's fill accounts for (busbw 586 at 512 MiB against the
  // model's 721; the measured times carry ~0.6 ms more below 4 GiB and none from 4 GiB), and 8 GiB sits 6.6% under the
  // tuner's 20·0.74·31/32·2·32 bus GB/s. NCCL's own NVLS CTA count for one MNNVL clique (24, NVLS_NCHANNELS_SM100_NVL;
  // 16 in early-2025 releases, NCCL_NVLS_NCHANNELS) shrinks the model's fill, so it widens these misses.
  it.each([
    [MiB(512), 586.06, true],
    [GiB(1), 681.17, true],
    [GiB(2), 757.78, true],
    [GiB(4), 839.16, false],
    [GiB(8), 834.57, true],
  ] as const)('%s B: busbw vs %s GB/s (known miss: %s)', (bytes, measured, knownMiss) => {
    checkRow(GB200_NVL72, { ranks: 72, ranksPerNode: 72 }, bytes, measured, knownMiss);
  });
});

describe('GB200 NVL72 across 20 racks, 1,440 GPUs, NVLSTree (coreweave/nccl-tests#48, 2025-04)', () => {
  // Known misses, by 2–4×: the measured times are ~4.4 ms plus the message at ~215 GB/s of algbw, against NCCL's own
  // tuner at 918 bus GB/s (32 heads, NVLS graph 20/40). Neither the early-2025 NCCL release nor its environment is
  // known, and no mechanism of the modelled source accounts for it.
  it.each([
    [MiB(512), 150.95],
    [GiB(1), 218.85],
    [GiB(2), 286.52],
    [GiB(4), 346.38],
  ] as const)('%s B: busbw vs %s GB/s (known miss)', (bytes, measured) => {
    checkRow(GB200_NVL72, { ranks: 1440, ranksPerNode: 72 }, bytes, measured, true);
  });
});
