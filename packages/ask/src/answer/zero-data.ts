import type { AskParameters } from '../question.ts';

/**
 * A question naming a ZeRO stage or FSDP means its model states sharded over data-parallel ranks (Rajbhandari et al.
 * 2020): a layout of data parallel 1 shards nothing, whatever stage it is costed with. So the best-configuration search
 * first tries the layouts with the most data parallelism, as a ZeRO or FSDP user runs them: no pipeline (DeepSpeed's
 * pipeline engine refuses ZeRO-2 and 3, and FSDP runs none), tensor parallelism within a node and at most half the GPUs,
 * and context parallelism small enough that data parallel is at least 2 (tensor × context ≤ GPUs / 2). Where none of
 * those fits, every layout is searched and the answer says why data parallelism could not be kept.
 */

/** The search constraints of ZeRO's data-parallel layouts; undefined when no stage is asked or the question fixes a layout size itself. */
export function zeroDataConstraints(p: AskParameters, gpus: number, gpusPerNode: number): Record<string, unknown> | undefined {
  if (p.zeroStage === undefined) return undefined;
  if (p.tensor !== undefined || p.pipeline !== undefined || p.context !== undefined || p.data !== undefined) return undefined;
  const half = Math.floor(gpus / 2);
  if (half < 1) return undefined;
  const maxTensor = Math.max(1, Math.min(gpusPerNode, half));
  const maxContext = Math.max(1, Math.floor(half / maxTensor));
  return { pipelineSizes: [1], maxTensor, maxContext };
}

/** Says how the layout was held to ZeRO's data parallelism, or why it could not be. */
export function zeroLayoutNote(
  p: AskParameters, gpus: number, keptData: boolean, resolved: { data: number; context: number; pipeline: number } | undefined,
): string {
  const stage = `ZeRO-${p.zeroStage ?? 3}`;
  if (keptData) {
    return `${stage} asked: searched the layouts that shard it over data parallelism (no pipeline, tensor × context parallel at most half the ${gpus} GPUs, so data parallel ≥ 2); this one shards the model states ${resolved === undefined ? '' : `over ${resolved.data * resolved.context} ranks`}`.trimEnd();
  }
  const shards = resolved === undefined ? 0 : resolved.data * resolved.context;
  const why = `no layout without a pipeline and with data parallel ≥ 2 fits on ${gpus} GPUs`;
  return shards >= 2
    ? `${stage} asked: ${why}; the plan needs pipeline parallel ${resolved?.pipeline ?? ''} and shards over ${shards} data-parallel ranks`
    : `${stage} asked, but ${why}: the plan that fits has data parallel 1, where ${stage} shards nothing; more GPUs would let it shard`;
}
