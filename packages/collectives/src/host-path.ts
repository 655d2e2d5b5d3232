import { gpusJoinedByNvlink } from './gpus-joined-by-nvlink.ts';
import { NCCL_TABLES } from './nccl-tables.ts';
import { PCIE_X16_GBPS } from './pcie-bandwidth.ts';
import type { Fabric } from './types.ts';

/**
 * A GPU's path through the host to a peer it has no NVLink to (on a PCIe node: every peer), in NCCL's units: on a PCIe
 * node what NCCL drives over x16 (24 / 48 GB/s, nccl-tables.ts), as its rings and sends are costed; on DGX-1 (NVLink
 * mesh, V100 Gen3) the line rate, as the topology graph's PCIe links carry it there (build-topology.ts).
 */
export function hostPathGBps(fabric: Fabric): number {
  return gpusJoinedByNvlink(fabric) ? PCIE_X16_GBPS[fabric.generation] : NCCL_TABLES.pciBandwidthGBps.value[fabric.generation];
}
