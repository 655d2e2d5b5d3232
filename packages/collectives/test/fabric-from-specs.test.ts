import { describe, expect, it } from 'vitest';
import type { GpuSpec, NetworkSpec, NvlinkGeneration, SystemSpec } from '@trainplan/hardware';
import { GB, GBps, Gbps, MB, TBps, TFLOPS, us } from '@trainplan/units';
import { fabricFromSpecs } from '../src/index.ts';
import { A100_FABRIC, H100_FABRIC } from './fixtures.ts';

const b200: GpuSpec = {
  id: 'b200', name: 'B200', generation: 'blackwell', peakFlops: { bf16: TFLOPS(2250) }, hbmBytes: GB(192),
  hbmBandwidth: TBps(8), smCount: 148, l2Bytes: MB(126), nvlink: 'nvlink5', nvlinkCount: 18, tdpWatts: 1000,
};
const nvlink5: NvlinkGeneration = { id: 'nvlink5', name: 'NVLink 5', bandwidthPerLinkPerDirection: GBps(50) };
const nvl72: SystemSpec = {
  id: 'gb200-nvl72', name: 'GB200 NVL72', gpu: 'b200', gpusPerNode: 4, intraNode: 'nvswitch', nvlinkSharp: true,
  network: 'nvl72',
};
const nvlinkNetwork: NetworkSpec = {
  id: 'nvl72', name: 'NVL72 NVLink', kind: 'nvlink', nicsPerNode: 4, nicBandwidth: Gbps(400), latency: us(1),
  inNetworkReduction: false, nvlinkDomainGpus: 72, leafSwitch: { ports: 64, portBandwidth: Gbps(400) },
};

describe('fabricFromSpecs', () => {
  it('maps the specs the caller passes, field by field', () => {
    expect(A100_FABRIC).toEqual({
      generation: 'ampere', gpusPerNode: 8, intraNode: 'nvswitch', nvlinkCount: 12, nvlinkBandwidthPerLink: GBps(25),
      nvlinkSharp: false, networkKind: 'infiniband', nicsPerNode: 8, nicBandwidth: GBps(25), networkLatency: us(2),
      // The fixture's HDR leaf, a Quantum QM8700: 40 ports of 200 Gb/s, carried as the network states it.
      inNetworkReduction: false, leafSwitch: { ports: 40, portBandwidth: Gbps(200) },
    });
    expect(H100_FABRIC).toMatchObject({ generation: 'hopper', nvlinkCount: 18, nvlinkSharp: true, nicBandwidth: GBps(50) });
  });

  it('treats an NVLink-only network as one node of the whole NVLink domain (GB200 NVL72)', () => {
    const fabric = fabricFromSpecs({ gpu: b200, system: nvl72, network: nvlinkNetwork, nvlink: nvlink5 });
    expect(fabric.gpusPerNode).toBe(72);
    expect(fabric.networkKind).toBe('nvlink');
    // The domain holds 18 trays of 4 GPUs, each tray with its 4 NICs: one NIC per GPU beyond the rack.
    expect(fabric.nicsPerNode).toBe(72);
  });

  it('carries the network\'s leaf switch as its datasheet states it, for the emulator\'s fat tree', () => {
    expect(fabricFromSpecs({ gpu: b200, system: nvl72, network: nvlinkNetwork, nvlink: nvlink5 }).leafSwitch).toBe(nvlinkNetwork.leafSwitch);
  });

  it('refuses an NVLink spec that is not the GPU\'s', () => {
    expect(() => fabricFromSpecs({ gpu: b200, system: nvl72, network: nvlinkNetwork, nvlink: { ...nvlink5, id: 'nvlink4' } }))
      .toThrow(RangeError);
  });
});
