import type { CommGroup } from '../types.ts';

/**
 * How a parallel group's ranks sit on a node (Megatron's rank order tp-cp-dp-pp): `contiguous` for
 * tensor parallelism (group j holds local GPUs j·k … j·k + k − 1), `strided` for the context- and
 * data-parallel groups (group j holds local GPUs j, j + c, j + 2c, …; c concurrent groups).
 */
export type GroupLayout = 'contiguous' | 'strided';

/** The GPUs of each concurrent group, node by node, on a topology of ranks / ranksPerNode nodes. */
export function concurrentGroupGpus(group: CommGroup, gpusPerNode: number, layout: GroupLayout): number[][] {
  const k = group.ranksPerNode;
  const c = Math.max(1, Math.min(group.concurrentGroupsPerNode ?? 1, Math.floor(gpusPerNode / k)));
  return Array.from({ length: c }, (_, j) => Array.from({ length: group.ranks }, (_, m) => {
    const node = Math.floor(m / k);
    const local = layout === 'contiguous' ? j * k + (m % k) : j + (m % k) * c;
    return node * gpusPerNode + (local < gpusPerNode ? local : (j * k + (m % k)) % gpusPerNode);
  }));
}
