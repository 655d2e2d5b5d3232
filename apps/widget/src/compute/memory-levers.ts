import { runEstimate, type EstimateInfeasible, type EstimateJson, type ScenarioInput } from '@trainplan/protocol';

/** From here a sequence is long enough that context parallelism is the lever to name (Llama 3's long-context stage ran 128k on CP 16). */
const LONG_SEQUENCE = 16_384;

/**
 * The fewest bytes of model state a parameter keeps in mixed-precision Adam training: ZeRO's 16-bit weights and gradients
 * and fp32 master weights, momentum and variance, 2 + 2 + 12, all sharded by stage 3 (Rajbhandari et al. 2020, Figure 1;
 * packages/model's modelStateBytes); Megatron's modes keep 18, some of it unsharded. Written here, not imported, as the
 * bundle carries no such export of the model package's; memory-levers.test.ts holds it equal to bytesPerParameter('zero-3', 1).
 */
export const LEAST_STATE_BYTES_PER_PARAMETER = 16;

/** A change to try: what the message calls it, the scenario's parts it changes, and a lever that, found, makes it needless. */
interface Lever {
  readonly label: string;
  readonly cluster?: object;
  readonly training?: object;
  readonly parallelism?: object;
  readonly unless?: string;
}

/** Peak memory per GPU of a scenario (an out-of-memory answer carries it too); undefined when no plan runs. */
function peakOf(s: ScenarioInput): number | undefined {
  const e = runEstimate(s) as EstimateJson;
  return e.ok ? e.memory.totalBytes : e.memory?.totalBytes;
}

/**
 * What would make a refused plan fit, each checked by estimating the plan with it (the core the page runs). First the
 * least any split of these GPUs can hold per GPU: the model states spread over all of them (no parallelism or sharding
 * spreads them thinner). Above the memory of a GPU nothing here fits, and the one fix is more nodes, at least as many
 * as would hold the states so spread (QA: GPT-3 175B on one node was told to try full recompute, more t, more p or the
 * distributed optimizer, each lowering 2.94 TiB, none near 80 GiB; this says at least 5, where TP 8 · PP 5 runs in
 * 78.1 GiB, and the CLI's search, which keeps a margin, 6). An answer without the parameter count (another API's) skips
 * this (no parameters, no nodes needed).
 * Otherwise a lever is named when its peak is below `peak`. Listing the levers the form had not pulled was
 * not enough: selective recompute freed nothing beside flash attention (81.2 GiB again on 64 nodes), nor the
 * distributed optimizer on one data-parallel replica, whose one fix, more nodes, was never said. Recompute and
 * sequence parallelism cut activations (Korthikanti et al. 2022), t, p and c split the model, the distributed optimizer
 * shards the optimizer state over the replicas (Rajbhandari et al. 2020); more nodes make room for more p or replicas.
 */
export function memoryLevers(s: ScenarioInput, { resolved: r, memory: m, parameters }: EstimateInfeasible): string[] {
  if (!r || !m) return [];
  const least = Math.ceil((LEAST_STATE_BYTES_PER_PARAMETER * (parameters ?? 0)) / m.capacityBytes / r.gpusPerNode);
  if (least > r.nodes) return [`more nodes (the model states alone need at least ${least})`];
  const peak = m.totalBytes;
  const nodes = r.nodes * 2;
  const levers: Lever[] = [
    ...(r.recompute === 'none' ? [{ label: 'selective recompute', parallelism: { recompute: 'selective' } }] : []),
    ...(r.recompute !== 'full' ? [{ label: 'full recompute', parallelism: { recompute: 'full' } }] : []),
    ...(r.tensor > 1 && !r.sequenceParallel ? [{ label: 'sequence parallelism', parallelism: { sequenceParallel: true } }] : []),
    { label: 'more t', parallelism: { tensor: r.tensor * 2 } },
    { label: 'more p', parallelism: { pipeline: r.pipeline * 2 } },
    ...(r.seqLength >= LONG_SEQUENCE ? [{ label: 'more c (context parallelism)', parallelism: { context: r.context * 2 } }] : []),
    ...(r.distributedOptimizer ? [] : [{ label: 'the distributed optimizer', parallelism: { distributedOptimizer: true } }]),
    ...(r.microBatchSize > 1 ? [{ label: 'a smaller micro-batch', training: { microBatchSize: 1 } }] : []),
    // More nodes only where the same GPUs cannot do it: more p there, or sharding over the replicas there are.
    { label: 'more nodes, for more p', cluster: { nodes }, parallelism: { pipeline: r.pipeline * 2 }, unless: 'more p' },
    {
      label: r.distributedOptimizer ? 'more nodes, for more replicas' : 'more nodes with the distributed optimizer',
      cluster: { nodes }, parallelism: { distributedOptimizer: true }, unless: 'the distributed optimizer',
    },
  ];
  // The data-parallel degree a link states follows the GPUs and the split (it must not stay fixed).
  const { data: _data, ...split } = s.parallelism ?? {};
  const found: string[] = [];
  for (const { label, cluster, training, parallelism, unless } of levers) {
    if (unless && found.includes(unless)) continue;
    const changed = { ...s, cluster: { ...s.cluster, ...cluster }, training: { ...s.training, ...training }, parallelism: { ...split, ...parallelism } } as ScenarioInput;
    if ((peakOf(changed) ?? peak) < peak * 0.999) found.push(label);
  }
  return found;
}
