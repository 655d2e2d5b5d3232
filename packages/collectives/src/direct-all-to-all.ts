import { peerLinksOf } from './gpus-joined-by-nvlink.ts';
import { hostPathGBps } from './host-path.ts';
import { NCCL_TABLES } from './nccl-tables.ts';
import type { NcclTopology } from './nccl-topology.ts';
import type { Fabric } from './types.ts';

/**
 * Microseconds per byte of S that the all-to-all's intra-node part takes on a direct NVLink mesh
 * (DGX-1) or a PCIe node, or null behind an NVSwitch. Each GPU sends S/n to every local peer at once:
 * to an NVLink neighbour over that pair's links (links × NCCL's per-link figure), to a GPU it has no
 * NVLink to (on a PCIe node: every peer) through the host over its PCIe x16 link, which its
 * S·(n−ppn)/n for other nodes also crosses (topology-graph.ts routeInto). The slowest GPU's slowest
 * path sets the time. The group is taken to be local GPUs 0 … ppn−1, as Megatron places an expert- or
 * tensor-parallel group.
 */
function meshAllToAllUsPerByte(fabric: Fabric, ranks: number, ppn: number): number | null {
  const g = fabric.gpusPerNode;
  const peers = peerLinksOf(fabric, g);
  if (!peers) return null;
  const perLinkGBps = NCCL_TABLES.nvlinkBandwidthPerLinkGBps.value[fabric.generation];
  const interFraction = (ranks - ppn) / ranks;
  const hostGBps = hostPathGBps(fabric);
  let worst = 0;
  for (let a = 0; a < ppn; a++) {
    let viaHost = interFraction;
    for (let b = 0; b < ppn; b++) {
      if (b === a) continue;
      const links = peers[a * g + b] as number;
      if (links > 0) worst = Math.max(worst, 1 / ranks / (1000 * links * perLinkGBps));
      else viaHost += 1 / ranks;
    }
    worst = Math.max(worst, viaHost / (1000 * hostGBps));
  }
  return worst;
}

/**
 * Microseconds per byte of S an all-to-all takes per rank (direct-model.ts): S·(n−ppn)/n bytes leave the node over the GPU's
 * NIC share (`nicGBps`: a GPU cannot aggregate several NICs, nccl-tests#267) while S·(ppn−1)/n go over NVLink
 * (`intraGBps`) or, on a direct mesh or a PCIe node, pair by pair (meshAllToAllUsPerByte), both at once.
 */
export function allToAllUsPerByte(topology: NcclTopology, nicGBps: number, intraGBps: number): number {
  const { ranks, ranksPerNode } = topology.placement;
  const interFraction = (ranks - ranksPerNode) / ranks;
  const intraFraction = (ranksPerNode - 1) / ranks;
  const mesh = meshAllToAllUsPerByte(topology.fabric, ranks, ranksPerNode);
  return Math.max(interFraction / (1000 * nicGBps), mesh ?? intraFraction / (1000 * intraGBps));
}
