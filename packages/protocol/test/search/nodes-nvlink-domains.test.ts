import { describe, expect, it } from 'vitest';
import { nvlinkDomainsText, runNodes, validateNodesResponse } from '../../src/index.ts';
import { nvlinkDomainsOf } from '../../src/search/nvlink-domains.ts';

// A GB200 NVL72 rack is 18 compute trays (nodes) of 4 GPUs in one 72-GPU NVLink domain (NVIDIA DGX SuperPOD
// GB200 reference architecture): racks are what a buyer counts, so a nodes answer there names them too.
const request = { model: 'llama3-70b', training: { globalBatchSize: 512 }, tokens: 1e12 };

describe('nodes answer on a rack-scale NVLink domain', () => {
  it('20 GB200 trays are 80 GPUs: two NVL72 racks, the second partly filled', () => {
    const a = runNodes({ ...request, cluster: { gpu: 'gb200' }, nodes: 20 });
    if (!a.ok) throw new Error(a.message);
    expect(a.gpus).toBe(80);
    expect(a.nvlinkDomains).toEqual({ count: 2, gpusEach: 72 });
    expect(validateNodesResponse(a)).toEqual({ ok: true, value: a });
  });

  it('18 trays fill exactly one rack', () => {
    const a = runNodes({ ...request, cluster: { gpu: 'gb200' }, nodes: 18 });
    if (!a.ok) throw new Error(a.message);
    expect(a.nvlinkDomains).toEqual({ count: 1, gpusEach: 72 });
  });

  it('32 trays placed as two racks of 64 (equal segments) say so: 64 used in each, not the last holding 56', () => {
    const a = runNodes({ ...request, cluster: { gpu: 'gb200' }, nodes: 32 });
    if (!a.ok) throw new Error(a.message);
    const { tensor, context, data } = a.configuration.scenario.parallelism as { tensor: number; context: number; data: number };
    // The plan's data × context groups span t·c·d GPUs (64 for the TP 2 · CP 2 · DP 16 found): a segment of 64 holds
    // them whole where 72 + 56 packed would split one across the rack edge (placedDomainGpus), so 2 racks of 64.
    const span = tensor * context * data;
    expect([64 % span, 72 % span === 0 || span >= 72]).toEqual([0, false]);
    expect(a.nvlinkDomains).toEqual({ count: 2, gpusEach: 72, gpusUsedEach: 64 });
    expect(validateNodesResponse(a)).toEqual({ ok: true, value: a });
  });

  it('is absent where a node is its own NVLink domain (DGX H100)', () => {
    const a = runNodes({ ...request, cluster: { gpu: 'h100-sxm' }, nodes: 16 });
    if (!a.ok) throw new Error(a.message);
    expect(a).not.toHaveProperty('nvlinkDomains');
  });
});

describe('nvlinkDomainsText', () => {
  it.each([
    [4096, 57, '57 NVLink domains of 72 GPUs, the last holding 64'],
    [72, 1, '1 NVLink domain of 72 GPUs'],
    [144, 2, '2 NVLink domains of 72 GPUs'],
    [80, 2, '2 NVLink domains of 72 GPUs, the last holding 8'],
    [64, 1, '1 NVLink domain of 72 GPUs, holding 64'],
  ])('%i GPUs in %i domains of 72: %s', (gpus, count, text) => {
    expect(nvlinkDomainsText(gpus, { count, gpusEach: 72 })).toBe(text);
  });
  it('placed in equal segments: every domain holds as many', () => {
    expect(nvlinkDomainsText(128, { count: 2, gpusEach: 72, gpusUsedEach: 64 })).toBe('2 NVLink domains of 72 GPUs, 64 used in each');
  });
  it('nvlinkDomainsOf: segments where the layout\'s groups divide them and not the domain, else none', () => {
    expect(nvlinkDomainsOf(128, { tensor: 4, context: 1, data: 8 }, 72, 4)).toEqual({ count: 2, gpusEach: 72, gpusUsedEach: 64 });
    expect(nvlinkDomainsOf(192, { tensor: 4, context: 3, data: 2 }, 72, 4)).toEqual({ count: 3, gpusEach: 72 });
  });
});
