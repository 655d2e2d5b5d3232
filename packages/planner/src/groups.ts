import { gcd } from '@trainplan/units';
import { largestDivisorAtMost, type CommGroup } from '@trainplan/collectives';
import type { PlanInput } from './plan-input.ts';

/**
 * Where each parallel group's ranks sit. Megatron orders ranks tensor-fastest, then context, then
 * data, then pipeline ("tp-cp-dp-pp", megatron/core/parallel_state.py), so a tensor-parallel group
 * fills a node first, and the data-parallel groups of one node share its NICs.
 */
export interface ParallelGroups {
  readonly tensor: CommGroup;
  readonly context: CommGroup;
  /** The ranks that hold the same weights and sum their gradients: data × context (see weightReplicas). */
  readonly data: CommGroup;
  /** Pipeline neighbours sit on different nodes. */
  readonly pipelineCrossesNodes: boolean;
  /** Tensor-parallel group spans more than one node (slow: warned about). */
  readonly tensorCrossesNodes: boolean;
  /** The GPUs of each NVLink domain the ranks fill (placedDomainGpus). */
  readonly domainGpus: number;
}

/**
 * Ranks holding the same weights: data × context. Context-parallel ranks see different tokens of the
 * same sequences, so their weight gradients sum too: Megatron-Core's DistributedDataParallel reduces
 * gradients, and its distributed optimizer shards state, over the "dp-cp" group
 * (parallel_state.get_data_parallel_group(with_context_parallel=True)).
 */
export const weightReplicas = (input: Pick<PlanInput, 'data' | 'context'>): number => input.data * input.context;

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));



/**
 * A group of `size` ranks taken every `stride` ranks, on nodes (or NVLink domains) of `gpusPerNode`
 * GPUs in a cluster of `gpus`. Ranks per node must divide the group for the tuner's symmetric placement:
 * on power-of-two nodes that is min(size, gpusPerNode / stride); on a 72-GPU NVL72 domain a 256-rank
 * group straddles domains unevenly (72+72+72+40), and we take the largest even split that fits a domain
 * (64 per domain over 4 domains). A group spanning fewer GPUs than a domain that the domain size is no
 * multiple of tiles across domain edges (TP 16 on 72-GPU racks: ranks 64–79, 8 in each rack); the
 * straddling group sets the step, so its split is costed: gcd(span, domain) GPUs of the span per domain.
 */
function strided(size: number, stride: number, gpusPerNode: number, gpus: number): CommGroup {
  const span = size * stride;
  const straddles = span < gpusPerNode && gpusPerNode % span !== 0 && gpus > gpusPerNode;
  const limit = straddles ? Math.floor(gcd(span, gpusPerNode) / stride) : Math.floor(gpusPerNode / stride);
  const ranksPerNode = largestDivisorAtMost(size, clamp(limit, 1, size));
  const concurrentGroupsPerNode = Math.max(1, Math.floor(gpusPerNode / ranksPerNode));
  return { ranks: size, ranksPerNode, concurrentGroupsPerNode };
}

/**
 * The GPUs of each NVLink domain a job's ranks fill, in rank order. On nodes that are their own domain, a node's.
 * A job larger than a rack-scale domain (GB200 NVL72: 18 trays of 4 GPUs) is packed a rack at a time, or placed in
 * equal segments of whole trays, one a rack, as Slurm's topology/block plugin does with `--segment`
 * (slurm.schedmd.com/topology.html, "Block Topology"; the GB200 cloud guides ask for it), whichever leaves fewer of
 * the layout's groups (tensor, tensor × context, data × context) across a rack edge: 128 GPUs with 32-GPU
 * data-parallel groups are two racks of 64, not 72 + 56, while 192 GPUs with 12-GPU TP × CP blocks stay packed
 * 72 + 72 + 48 (64 would split them). Only segments that need no more racks than packing (⌈gpus / domain⌉, the racks
 * a nodes answer counts): 1,024 GPUs have none (16 × 64 would take a 16th rack). Ties keep packing, then the larger.
 */
export function placedDomainGpus(input: Pick<PlanInput, 'nvlinkDomainGpus' | 'gpusPerNode' | 'nodes' | 'tensor' | 'context' | 'data'>): number {
  const { nvlinkDomainGpus: domain, gpusPerNode: tray, tensor: t, context: c, data: d } = input;
  const gpus = input.nodes * tray;
  if (gpus <= domain || domain === tray) return domain;
  // Groups narrower than a placement that it is no multiple of straddle its edges (strided()). No array a call: the
  // search places millions of candidates.
  const splits = (span: number, placed: number): number => (span < placed && placed % span !== 0 ? 1 : 0);
  const straddling = (placed: number): number => splits(t, placed) + splits(t * c, placed) + splits(t * c * d, placed);
  let best = domain;
  let fewestSplit = straddling(domain);
  const fewest = gpus / Math.ceil(gpus / domain);
  for (let segment = domain - (domain % tray); segment >= fewest && fewestSplit > 0; segment -= tray) {
    const split = gpus % segment === 0 ? straddling(segment) : fewestSplit;
    if (split < fewestSplit) [best, fewestSplit] = [segment, split];
  }
  return best;
}

export function parallelGroups(input: PlanInput): ParallelGroups {
  const g = placedDomainGpus(input);
  const { tensor: t, context: c, data: d, pipeline: p } = input;
  const gpus = t * c * d * p;
  const tensor = strided(t, 1, g, gpus);
  return {
    tensor,
    context: strided(c, t, g, gpus),
    // The dp-cp group: tensor rank and stage fixed, context and data ranks contiguous after it.
    data: strided(c * d, t, g, gpus),
    // Stages are laid out one after another (pp outermost): once the pipeline holds more GPUs than a node,
    // some boundary has its two stages on different nodes (TP 2 · DP 2 · PP 4 on two 8-GPU nodes: stage 1 → 2),
    // and the slowest boundary is the one costed.
    pipelineCrossesNodes: p > 1 && gpus > g,
    tensorCrossesNodes: tensor.ranksPerNode < t,
    domainGpus: g,
  };
}
