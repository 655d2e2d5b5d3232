import type { CommGroup, Fabric } from './types.ts';

/** How one communicator sits on the machine, as the tuner needs it. */
export interface GroupPlacement {
  readonly ranks: number;
  readonly nodes: number;
  readonly ranksPerNode: number;
  readonly concurrentGroupsPerNode: number;
  /**
   * Fraction of each GPU's NVLink bandwidth this group gets: 1 unless the concurrent groups put
   * a GPU in several of them at once (ranksPerNode × groups > gpusPerNode).
   */
  readonly nvlinkShare: number;
  /**
   * NICs of one node this group's channels can use (may be fractional). The node's NICs are split
   * between the concurrent groups, and a GPU only reaches the NICs of its own PCIe switch
   * (nicsPerNode / gpusPerNode of them), so a lone GPU per node gets one rail, not eight, and
   * four GPUs of a DGX-1 (two per NIC) reach two of its four NICs.
   */
  readonly nicsPerNode: number;
}

/**
 * Resolves `group` on `fabric`. On an NVLink-only fabric (GB200 NVL72, `networkKind: 'nvlink'`)
 * a group that fits in the NVLink domain (`fabric.gpusPerNode` GPUs) is one NVSwitch domain: a
 * single "node" for the tuner, as NCCL treats a multi-node NVLink (MNNVL) communicator
 * (NVIDIA/nccl src/graph/tuning.cc: `nNodes = comm->MNNVL ? 1 : comm->nNodes`).
 */
export function groupPlacement(group: CommGroup, fabric: Fabric): GroupPlacement {
  const { ranks } = group;
  const concurrentGroupsPerNode = group.concurrentGroupsPerNode ?? 1;
  if (!Number.isInteger(ranks) || ranks < 1) throw new RangeError(`group.ranks must be a positive integer, got ${ranks}`);
  if (!Number.isInteger(concurrentGroupsPerNode) || concurrentGroupsPerNode < 1) {
    throw new RangeError(`group.concurrentGroupsPerNode must be a positive integer, got ${concurrentGroupsPerNode}`);
  }
  // A group of one NVLink domain's size or less is one domain only if its placement says so: callers give
  // ranksPerNode in domains (planner groups.ts, protocol collective-machine.ts), and a strided data-parallel
  // group of 36 over four 72-GPU racks (9 per rack) spans four of them, as a TP-16 group straddling a rack
  // edge spans two; only a group laid out in trays (ranksPerNode a tray's GPUs, ranks a domain or less) is
  // taken whole.
  const oneNvlinkDomain = fabric.networkKind === 'nvlink' && ranks <= fabric.gpusPerNode
    && (group.concurrentGroupsPerNode ?? 1) === 1;
  const ranksPerNode = oneNvlinkDomain ? ranks : group.ranksPerNode;
  if (!Number.isInteger(ranksPerNode) || ranksPerNode < 1 || ranks % ranksPerNode !== 0) {
    throw new RangeError(`group.ranksPerNode (${ranksPerNode}) must be a positive divisor of group.ranks (${ranks})`);
  }
  if (ranksPerNode > fabric.gpusPerNode) {
    throw new RangeError(`group.ranksPerNode (${ranksPerNode}) exceeds fabric.gpusPerNode (${fabric.gpusPerNode})`);
  }
  const nodes = ranks / ranksPerNode;
  const gpuMemberships = (ranksPerNode * concurrentGroupsPerNode) / fabric.gpusPerNode;
  const nicsPerGpu = fabric.nicsPerNode / fabric.gpusPerNode;
  const nicsPerNode = Math.min(
    fabric.nicsPerNode / concurrentGroupsPerNode,
    Math.max(1, ranksPerNode * nicsPerGpu),
  );
  return {
    ranks, nodes, ranksPerNode, concurrentGroupsPerNode,
    nvlinkShare: Math.min(1, 1 / gpuMemberships),
    nicsPerNode,
  };
}
