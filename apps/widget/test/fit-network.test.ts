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
});
