import { describe, expect, it } from 'vitest';
import { DEFAULT_VALUES } from '../src/form/fields.ts';
import { fitNetworkToGpu } from '../src/form/fit-network.ts';
import { scenarioFromFields } from '../src/form/scenario-from-fields.ts';

describe('fitNetworkToGpu: the network after a GPU change', () => {
  it('sets nvl72 back to the default (blank) under an H100, saying why in the protocol\'s words', () => {
    const fit = fitNetworkToGpu({ ...DEFAULT_VALUES, gpu: 'h100-sxm', network: 'nvl72' });
    expect(fit.values.network).toBe('');
    expect(fit.note).toMatch(/^Network back to the GPU's default: nvl72 is the NVLink domain of .*gb200.*; .* GPUs are not built into it\.$/);
    const r = scenarioFromFields({ ...fit.values, 'gpus-per-node': '' });
    expect(r.ok && r.scenario.cluster.network).toBe(undefined);
  });

  it('keeps a network that serves the GPU (nvl72 under a GB200, an InfiniBand under an H100), and a blank one', () => {
    for (const [gpu, network] of [['gb200', 'nvl72'], ['h100-sxm', 'ndr-ib-8x'], ['h100-sxm', '']]) {
      expect(fitNetworkToGpu({ ...DEFAULT_VALUES, gpu: gpu!, network: network! })).toEqual({ values: { ...DEFAULT_VALUES, gpu, network }, note: '' });
    }
  });

  it('remembers the network it set back, brings it back on a GPU it serves, and keeps remembering it across GPUs it does not', () => {
    const gb200 = { ...DEFAULT_VALUES, gpu: 'gb200', network: 'nvl72' };
    const away = fitNetworkToGpu({ ...gb200, gpu: 'b200' });
    expect([away.values.network, away.switchedFrom]).toEqual(['', 'nvl72']);
    // Through an H100, which nvl72 cannot serve either: still blank, still remembered, no note.
    const h100 = fitNetworkToGpu({ ...away.values, gpu: 'h100-sxm' }, away.switchedFrom);
    expect(h100).toEqual({ values: { ...away.values, gpu: 'h100-sxm' }, switchedFrom: 'nvl72', note: '' });
    const back = fitNetworkToGpu({ ...h100.values, gpu: 'gb200' }, h100.switchedFrom);
    expect(back.values).toEqual(gb200);
    expect(back.switchedFrom).toBe(undefined);
    expect(back.note).toMatch(/^Network back to nvl72 on NVIDIA GB200\b.*\.$/);
  });
});
