import { describe, expect, it } from 'vitest';
import * as presets from '../src/index.ts';

describe('public surface', () => {
  it('names every runtime export explicitly', () => {
    expect(Object.keys(presets).sort()).toEqual([
      'GPUS', 'GPU_IDS', 'GPU_SOURCES', 'MEGATRON_DEFAULT_DROPOUT', 'MODELS', 'MODEL_IDS', 'MODEL_SOURCES', 'NETWORKS',
      'NETWORK_IDS', 'NETWORK_SOURCES', 'PRESET_LISTS', 'SYSTEMS', 'SYSTEM_IDS', 'SYSTEM_SOURCES',
      'capitalised', 'defaultSystemForGpu', 'gbpsText', 'gpuById', 'latencyText', 'modelById', 'networkById', 'systemById',
      'tflopsText', 'wattsText',
    ]);
  });

  it('re-exports the hardware catalogues under the contract ids', () => {
    expect(presets.gpuById('a100-80gb')?.id).toBe('a100-80gb');
    expect(presets.networkById('hdr-ib-8x')?.id).toBe('hdr-ib-8x');
    expect(presets.defaultSystemForGpu('h100-sxm').network).toBe('ndr-ib-8x');
  });
});
