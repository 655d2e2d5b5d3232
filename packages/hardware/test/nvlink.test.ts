import { describe, expect, it } from 'vitest';
import { toGBps } from '@trainplan/units';
import { GPUS } from '../src/gpus.ts';
import { NVLINKS, nvlinkBandwidthPerDirection } from '../src/nvlink.ts';

describe('NVLINKS', () => {
  it.each([
    ['nvlink2', 25],
    ['nvlink3', 25],
    ['nvlink4', 25],
    ['nvlink5', 50],
  ] as const)('one %s link carries %d GB/s per direction', (id, gbps) => {
    expect(toGBps(NVLINKS[id].bandwidthPerLinkPerDirection)).toBe(gbps);
  });

  it.each(Object.values(NVLINKS))('$id is keyed by its own id and cites a source', (link) => {
    expect(NVLINKS[link.id]).toBe(link);
    expect(link.source.title.length).toBeGreaterThan(0);
  });
});

describe('nvlinkBandwidthPerDirection', () => {
  it.each([
    ['v100-32gb', 150],
    ['a100-40gb', 300],
    ['a100-80gb', 300],
    ['h100-sxm', 450],
    ['h200', 450],
    ['b200', 900],
    ['gb200', 900],
  ])('%s: links × per-link rate = %d GB/s per direction', (id, gbps) => {
    const gpu = GPUS[id];
    expect(gpu).toBeDefined();
    expect(toGBps(nvlinkBandwidthPerDirection(gpu!))).toBe(gbps);
  });
});
