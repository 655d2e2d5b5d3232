import { describe, expect, it } from 'vitest';
import * as hardware from '../src/index.ts';

describe('public surface', () => {
  it('names every runtime export explicitly', () => {
    expect(Object.keys(hardware).sort()).toEqual([
      'GPUS', 'GPU_IDS', 'NETWORKS', 'NETWORK_IDS', 'NVLINKS', 'SYSTEMS', 'SYSTEM_IDS', 'defaultSystemForGpu',
      'gpuById', 'isGpuId', 'networkById', 'nvlinkBandwidthPerDirection', 'nvlinkPeerLinks', 'systemById',
    ]);
  });
});
