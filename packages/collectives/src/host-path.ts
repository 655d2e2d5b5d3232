import { gpusJoinedByNvlink } from './gpus-joined-by-nvlink.ts';
import { NCCL_TABLES } from './nccl-tables.ts';
import { PCIE_X16_GBPS } from './pcie-bandwidth.ts';
import type { GroupPlacement } from './group-placement.ts';
import type { Fabric } from './types.ts';

/**
 * A GPU's path through the host to a peer it has no NVLink to (on a PCIe node: every peer), in NCCL's units: on a PCIe
 * node what NCCL drives over x16 (24 / 48 GB/s, nccl-tables.ts), as its rings and sends are costed; on every node whose
 * GPUs NVLink joins (DGX-1's mesh, an NVSwitch node, a GH200/GB200 tray) the x16 line rate of its generation, as the
 * topology graph's PCIe links carry it there (build-topology.ts); the channel search budgets a DGX-1 at NCCL's own
 * figure instead (searchHostPathGBps below).
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
  return searchHostPathGBps(fabric) * placement.nvlinkShare;
}

/**
 * The host link as the channel search budgets it. On a DGX-1 (hybrid cube-mesh) NCCL's own figure for the GPU's PCIe
 * Gen3 x16 link, 12 GB/s (src/graph/topo.cc ncclTopoAddPci: 16 lanes × 60 / 80; topo.h PCI_BW 12.0 "PCI Gen3 x16";
 * nccl-tables.ts pciBandwidthGBps), which every one of its GPUs' NIC traffic crosses through the PCIe switch it shares
 * with another GPU (DGX-1 V100 whitepaper WP-08437-002). At the 15.75 GB/s line rate the search found what NCCL's cannot:
 * with 8 NDR NICs 3 channels of 5 GB/s per GPU, 24 × 5 = 120 GB/s of ring, where NCCL, seeing 12, fits one 12 GB/s
 * channel per GPU, 8 × 12 = 96. Elsewhere the line rate, as before: the same figure would move Gen4/Gen5 nodes whose
 * NICs outrun NCCL's 24/48 (two NDR NICs per GH200/GB200, reached over C2C rather than the GPU's own PCIe link), a
 * question this change leaves open.
 */
function searchHostPathGBps(fabric: Fabric): number {
  return fabric.intraNode === 'nvlink-hybrid-cube-mesh' ? NCCL_TABLES.pciBandwidthGBps.value[fabric.generation] : hostPathGBps(fabric);
}
