import { gpusJoinedByNvlink } from './gpus-joined-by-nvlink.ts';
import { NCCL_TABLES } from './nccl-tables.ts';
import { PCIE_X16_GBPS } from './pcie-bandwidth.ts';
import type { GroupPlacement } from './group-placement.ts';
import type { Fabric } from './types.ts';

/**
 * A GPU's path through the host to a peer it has no NVLink to (on a PCIe node: every peer), in NCCL's units: on a PCIe
 * node what NCCL drives over x16 (24 / 48 GB/s, nccl-tables.ts), as its rings and sends are costed; on DGX-1 (NVLink
 * mesh, V100 Gen3) the line rate, as the topology graph's PCIe links carry it there (build-topology.ts).
 */
export function hostPathGBps(fabric: Fabric): number {
  return gpusJoinedByNvlink(fabric) ? PCIE_X16_GBPS[fabric.generation] : NCCL_TABLES.pciBandwidthGBps.value[fabric.generation];
}

/**
 * What one GPU of a group can put into the network (and take from it), in GB/s each way: its host link (hostPathGBps, the
 * figure the emulator's topology gives its pcie-up and pcie-down links: build-topology.ts), shared evenly by the concurrent
 * groups the GPU is in (placement.nvlinkShare), however many NICs sit behind it. NCCL limits a GPU's network channels by
 * the same path: a GPU→NET path's bandwidth is the least of its links' (src/graph/paths.cc ncclTopoSetPaths, `bw =
 * std::min(path->bw, link->bw)`), and every channel its search places takes its speed off each link of that path, the
 * GPU's own PCIe link among them, until one no longer fits (src/graph/search.cc followPath, ncclTopoFollowPath); its
 * getLocalNetCountByBw (src/graph/topo.cc) likewise counts a GPU's NICs only until they fill the GPU's link to the CPU.
 * Two 50 GB/s NDR NICs behind a GH200 or GB200 of a 4-GPU tray give it 63 GB/s (its Gen5 x16), not 100.
 */
export function groupHostPathGBps(fabric: Fabric, placement: Pick<GroupPlacement, 'nvlinkShare'>): number {
  return hostPathGBps(fabric) * placement.nvlinkShare;
}
