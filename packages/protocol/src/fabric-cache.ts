import { fabricFromSpecs, type Fabric } from '@trainplan/collectives';
import { NVLINKS, type GpuSpec, type NetworkSpec, type SystemSpec } from '@trainplan/hardware';

/**
 * One Fabric object per (GPU, system, network, node size): the collectives package memoises NCCL's
 * graphs per fabric object, so reusing it makes repeated estimates of one machine cheap. Presets are
 * immutable, so the cache never goes stale; its size is bounded by the preset catalogue.
 * GB200 NVL72: pass the NVLink domain (72), not the 4-GPU tray, as `gpusPerNode`: that is what
 * collectives see as one "node".
 */
const fabrics = new Map<string, Fabric>();

export function fabricFor(gpu: GpuSpec, system: SystemSpec, network: NetworkSpec, gpusPerNode: number): Fabric {
  const key = `${gpu.id}|${system.id}|${network.id}|${gpusPerNode}`;
  let fabric = fabrics.get(key);
  if (!fabric) {
    fabric = fabricFromSpecs({ gpu, system: { ...system, gpusPerNode }, network, nvlink: NVLINKS[gpu.nvlink] });
    fabrics.set(key, fabric);
  }
  return fabric;
}
