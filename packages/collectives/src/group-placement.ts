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
   * NICs of one node this group's channels can use (may be fractional). A GPU only reaches the
   * NICs of its own PCIe switch (nicsPerNode / gpusPerNode of them, at least one NIC in all), and
   * the concurrent groups share what their GPUs reach: a lone GPU per node gets one rail, not eight;
   * four GPUs of a DGX-1 (two per NIC) reach two of its four NICs; two one-GPU groups on GPUs 0
   * and 1 of a DGX-1 share NIC 0, half a NIC each. These are NICs, not what reaches them: a GPU feeds its NICs through
   * its host link, which the channel search caps it at (host-path.ts groupHostPathGBps, nccl-topology.ts), so two NICs
   * behind one GPU (8 NDR NICs on a 4-GPU tray) count 2 here but carry only what that GPU's PCIe x16 link holds.
   */
  readonly nicsPerNode: number;
}

/**
 * The most ranks per node (or NVLink domain) of `limit` that a group of `n` ranks splits into evenly: the largest
 * divisor of n at most limit (1 when limit < 2). A 256-rank group on 72-GPU NVL72 domains takes 64 per domain over 4,
 * a symmetric placement as NCCL's tuner assumes (planner groups.ts, protocol collective-machine.ts).
 */
export function largestDivisorAtMost(n: number, limit: number): number {
  for (let d = Math.min(n, Math.floor(limit)); d > 1; d--) if (n % d === 0) return d;
  return 1;
}

/**
 * Resolves `group` on `fabric`. On an NVLink-only fabric (GB200 NVL72, `networkKind: 'nvlink'`) a
 * "node" is the whole NVLink domain (`fabric.gpusPerNode` GPUs), as NCCL treats a multi-node NVLink
 * (MNNVL) communicator (NVIDIA/nccl src/graph/tuning.cc: `nNodes = comm->MNNVL ? 1 : comm->nNodes`):
 * callers give ranksPerNode per domain (planner groups.ts, protocol collective-machine.ts), so a group
 * inside one rack is ranksPerNode = ranks, and one spread over racks counts them.
 */
export function groupPlacement(group: CommGroup, fabric: Fabric): GroupPlacement {
  const { ranks } = group;
  const concurrentGroupsPerNode = group.concurrentGroupsPerNode ?? 1;
  if (!Number.isInteger(ranks) || ranks < 1) throw new RangeError(`group.ranks must be a positive integer, got ${ranks}`);
  if (!Number.isInteger(concurrentGroupsPerNode) || concurrentGroupsPerNode < 1) {
    throw new RangeError(`group.concurrentGroupsPerNode must be a positive integer, got ${concurrentGroupsPerNode}`);
  }
  const ranksPerNode = group.ranksPerNode;
  if (!Number.isInteger(ranksPerNode) || ranksPerNode < 1 || ranks % ranksPerNode !== 0) {
    throw new RangeError(`group.ranksPerNode (${ranksPerNode}) must be a positive divisor of group.ranks (${ranks})`);
  }
  if (ranksPerNode > fabric.gpusPerNode) {
    throw new RangeError(`group.ranksPerNode (${ranksPerNode}) exceeds fabric.gpusPerNode (${fabric.gpusPerNode})`);
  }
  // Groups past the node's GPUs overlap: each GPU is then in several of them, and must be in the same number (NVLink
  // splits evenly only so); 100 one-GPU groups on 8 GPUs is no placement at all.
  const memberships = ranksPerNode * concurrentGroupsPerNode;
  if (memberships > fabric.gpusPerNode && memberships % fabric.gpusPerNode !== 0) {
    throw new RangeError(`${concurrentGroupsPerNode} concurrent groups of ${ranksPerNode} GPU${ranksPerNode === 1 ? '' : 's'} per node need `
      + `${memberships} GPUs per node; a node has ${fabric.gpusPerNode}, and groups that overlap must put every GPU in the same number of them`);
  }
  const nodes = ranks / ranksPerNode;
  const gpuMemberships = (ranksPerNode * concurrentGroupsPerNode) / fabric.gpusPerNode;
  // The concurrent groups occupy the node's first ranksPerNode × groups GPUs (Megatron's rank order; the emulator's
  // concurrentGroupGpus), which reach the NICs of their own PCIe switches — at least one — and share them evenly.
  const nicsPerGpu = fabric.nicsPerNode / fabric.gpusPerNode;
  const gpusUsed = Math.min(fabric.gpusPerNode, ranksPerNode * concurrentGroupsPerNode);
  const nicsPerNode = Math.min(fabric.nicsPerNode, Math.max(1, gpusUsed * nicsPerGpu)) / concurrentGroupsPerNode;
  return {
    ranks, nodes, ranksPerNode, concurrentGroupsPerNode,
    nvlinkShare: Math.min(1, 1 / gpuMemberships),
    nicsPerNode,
  };
}
