import { countOf, million } from '@trainplan/units';
import { clusterMachine } from './resolve.ts';
import { numberText } from './schema/context.ts';

/** The most nodes a cluster may have (cluster.nodes, and each size a nodes or scale request names): a hostile-input guard. */
export const MAX_CLUSTER_NODES = million(1);
/** The most GPUs a node may hold (cluster.gpusPerNode). */
export const MAX_GPUS_PER_NODE = 1024;
/** The most GPUs cluster.gpus may give on any machine; on one machine, also at most MAX_CLUSTER_NODES of its nodes (clusterGpusCap). */
export const MAX_CLUSTER_GPUS = million(10);

const count = (x: unknown, max: number): x is number => Number.isInteger(x) && (x as number) >= 1 && (x as number) <= max;

/**
 * The most GPUs cluster.gpus may give on nodes of `gpusPerNode`: MAX_CLUSTER_NODES of them, and never past MAX_CLUSTER_GPUS
 * (clusterGpusCap refuses more; the bot refuses a question's stated GPUs past it in the same words: ask whole-counts.ts).
 */
export const mostClusterGpus = (gpusPerNode: number): number => Math.min(MAX_CLUSTER_GPUS, MAX_CLUSTER_NODES * gpusPerNode);

/**
 * A cluster object's refine (the scenario's and the search request's): cluster.gpus past MAX_CLUSTER_NODES nodes of the
 * machine's size (cluster.gpusPerNode, else the GPU's or system's), refused by validation as cluster.nodes past
 * MAX_CLUSTER_NODES is, a 400 over HTTP. QA: the estimate planned 9,000,000 GPUs of 8 a node, 1,125,000 nodes, where
 * 1,125,000 nodes are refused, and the search refused them as a 200. Said only of a gpus and gpusPerNode in their own
 * ranges (the fields' issues name the others) and a known machine (resolving names an unknown id).
 */
export function clusterGpusCap(raw: Readonly<Record<string, unknown>>, issue: (key: string, message: string) => void): void {
  const { gpu, gpus } = raw;
  if (!count(gpus, MAX_CLUSTER_GPUS) || typeof gpu !== 'string') return;
  const gpusPerNode = raw.gpusPerNode === undefined ? clusterMachine(gpu).system?.gpusPerNode : raw.gpusPerNode;
  if (!count(gpusPerNode, MAX_GPUS_PER_NODE)) return;
  // Past it only below MAX_CLUSTER_GPUS (checked above): at MAX_CLUSTER_NODES nodes of gpusPerNode.
  const most = mostClusterGpus(gpusPerNode);
  if (gpus > most) issue('gpus', `expected at most ${countOf(most, 'GPU')} (${countOf(MAX_CLUSTER_NODES, 'node')} of ${gpusPerNode}), got ${numberText(gpus)}`);
}
