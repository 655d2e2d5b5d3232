import { describe, expect, it } from 'vitest';
import * as hardware from '../src/index.ts';

describe('public surface', () => {
  it('names every runtime export explicitly', () => {
    expect(Object.keys(hardware).sort()).toEqual([
      'GPUS', 'GPU_IDS', 'GPU_SOURCES', 'NETWORKS', 'NETWORK_IDS', 'NETWORK_SOURCES', 'NVLINKS', 'NVLINK_SOURCES', 'SYSTEMS',
      'SYSTEM_IDS', 'SYSTEM_SOURCES', 'defaultSystemForGpu',
      'gpuById', 'isGpuId', 'networkById', 'nvlinkBandwidthPerDirection', 'nvlinkPeerLinks', 'systemById',
    ]);
  });
});
