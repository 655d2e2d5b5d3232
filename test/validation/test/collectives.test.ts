import { describe, expect, it } from 'vitest';
import { collectiveCost, fabricFromSpecs } from '@trainplan/collectives';
import { NVLINKS } from '@trainplan/hardware';
import { gpuById, networkById, systemById } from '@trainplan/presets';
import { GiB } from '@trainplan/units';
import { collectivesSection } from '../src/collectives-section.ts';

const { markdown, summary, readme } = collectivesSection.run();
const row = (id: string) => markdown.find((l) => l.startsWith(`| ${id} |`)) ?? '';

describe('collectives section: the SHARP statement', () => {
  it('is scored with CollNet opted in: NVLS across 4 DGX H100 nodes, as fast as the one-node NVLS all-reduce of the same bytes', () => {
    // NCCL picks NVLS (its tuner's 384 GB/s bus figure beats the rest); run, the heads' NICs carry each byte once each way
    // (8 × 48 GB/s of algbw), and the one-node NVLS stages (about 271 GB/s of algbw) bind: busbw = S / t₁ · 62/32, t₁ the
    // one-node time, which the one-node statement (nvlink4-sharp, 474 vs 480) validates.
    const bytes = GiB(8);
    const fabric = fabricFromSpecs({ gpu: gpuById('h100-sxm')!, system: systemById('dgx-h100')!, network: networkById('ndr-ib-8x')!, nvlink: NVLINKS.nvlink4 });
    const oneNode = collectiveCost({ op: 'all-reduce', bytes, group: { ranks: 8, ranksPerNode: 8 }, fabric, algorithm: 'nvls' });
    const busbw = ((bytes / oneNode.seconds) * 62) / 32 / 1e9;
    const error = ((busbw / 480 - 1) * 100).toFixed(1);
    expect(summary).toContain(`collectives nvidia-gtc24-s62129-dgx-h100-multinode-sharp: predicted ${busbw.toFixed(1)} vs stated 480 GB/s (+${error}%)`);
    expect(row('nvidia-gtc24-s62129-dgx-h100-multinode-sharp')).toContain('| nvls/Simple |');
  });

  it('leaves the same machine without SHARP on NCCL\'s default (ring, no CollNet)', () => {
    expect(row('nvidia-gtc24-s62129-dgx-h100-multinode')).toMatch(/\| 380 \| [\d.]+ \| [+-][\d.]+% \| ring\/Simple \|/);
  });

  it('keeps the SHARP figure apart from the other statements\' worst error in the README line', () => {
    expect((readme ?? []).join('\n')).toMatch(/within \d\.\d%\. With InfiniBand SHARP \(CollNet, which NCCL leaves off by default, opted in\): DGX H100 \+ IB SHARP, 4 nodes: \d+\.\d vs 480 GB\/s \([+-]\d+\.\d%\)/);
  });
});

describe('collectives section: the PCIe charts', () => {
  // NVIDIA's chart (GTC24 S62129): 8 PCIe GPUs reach 24 GB/s all-reduce busbw on Gen4 and 48 on Gen5. Each row is scored
  // (in the summary) on the 8-GPU PCIe server presets, where NCCL's ring runs 2 channels × 12 or × 24 GB/s: within ±5%.
  it.each([['nvidia-gtc24-s62129-pcie-gen4', 24], ['nvidia-gtc24-s62129-pcie-gen5', 48]] as const)('%s is scored against %d GB/s within ±5%%', (id, stated) => {
    const line = summary.find((l) => l.startsWith(`collectives ${id}: predicted `)) ?? '';
    const predicted = Number(/predicted ([\d.]+) vs stated (\d+) GB\/s/.exec(line)?.[1]);
    expect(line).toContain(`vs stated ${stated} GB/s`);
    expect(Math.abs(predicted / stated - 1)).toBeLessThanOrEqual(0.05);
    expect(row(id)).toContain('| ring/Simple |');
  });
});
