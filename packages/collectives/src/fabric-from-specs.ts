import type { GpuSpec, NetworkSpec, NvlinkGeneration, SystemSpec } from '@trainplan/hardware';
import type { Fabric } from './types.ts';

/**
 * The collective-level view of a machine, from the specs the caller already holds (no lookups
 * by id: this package does not depend on the presets). On an NVLink-only fabric (GB200 NVL72)
 * the "node" the tuner sees is the whole NVLink domain (`network.nvlinkDomainGpus`).
 */
export function fabricFromSpecs(specs: {
  readonly gpu: GpuSpec;
  readonly system: SystemSpec;
  readonly network: NetworkSpec;
  readonly nvlink: NvlinkGeneration;
}): Fabric {
  const { gpu, system, network, nvlink } = specs;
  if (gpu.nvlink !== nvlink.id) {
    throw new RangeError(`GPU ${gpu.id} uses ${gpu.nvlink} but the NVLink spec passed is ${nvlink.id}`);
  }
  const domainGpus = network.kind === 'nvlink' ? network.nvlinkDomainGpus : undefined;
  // A domain of several trays (GB200 NVL72: 18 trays of 4 GPUs) has every tray's NICs (one per GPU):
  // the spec's nicsPerNode counts a tray's (DGX SuperPOD GB200 reference architecture).
  const nicsPerNode = domainGpus === undefined ? network.nicsPerNode : network.nicsPerNode * (domainGpus / system.gpusPerNode);
  return {
    generation: gpu.generation,
    gpusPerNode: domainGpus ?? system.gpusPerNode,
    intraNode: system.intraNode,
    nvlinkCount: gpu.nvlinkCount,
    nvlinkBandwidthPerLink: nvlink.bandwidthPerLinkPerDirection,
    nvlinkSharp: system.nvlinkSharp,
    networkKind: network.kind,
    nicsPerNode,
    nicBandwidth: network.nicBandwidth,
    networkLatency: network.latency,
    inNetworkReduction: network.inNetworkReduction,
    leafSwitch: network.leafSwitch,
  };
}
