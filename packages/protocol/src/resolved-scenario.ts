/**
 * An estimate's `resolved` block written back as a contract scenario: the scenario that gives the same estimate
 * (the same step time, breakdown, memory and MFU, to the bit). The block is flat; a scenario has sections, and
 * each field of the block goes into the section that has a field of its name (estimate-schema.ts documents the
 * same rule for callers of the HTTP API). What the block derives (gpus, microBatches, layersPerStage) is not
 * fed back: the scenario derives it again.
 */
import type { ReceivedResolvedJson, ScenarioInput } from './wire.ts';

/** The fields of a resolved block present in it, as they are (a reader's block may lack any extension). */
const present = <T extends object>(fields: T): Partial<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * A resolved block (toEstimateJson's `resolved`, or an out-of-memory answer's) → the scenario it resolves. A model
 * given by its shape comes back as that shape (`modelShape`), since `model` then holds only its name. ZeRO's stage
 * is given only past 0: the scenario takes `zeroStage` or `distributedOptimizer: true`, not both.
 */
export function scenarioOfResolved(r: ReceivedResolvedJson): ScenarioInput {
  return {
    model: r.modelShape ?? r.model,
    cluster: {
      gpu: r.gpu,
      gpusPerNode: r.gpusPerNode,
      nodes: r.nodes,
      network: r.network,
      ...present({ communicationModel: r.communicationModel, oversubscription: r.oversubscription }),
    },
    training: {
      globalBatchSize: r.globalBatchSize,
      microBatchSize: r.microBatchSize,
      precision: r.precision,
      seqLength: r.seqLength,
      ...present({
        tokens: r.tokens, dropout: r.dropout, attentionKernel: r.attentionKernel, crossEntropyKernel: r.crossEntropyKernel,
        gradientAccumulation: r.gradientAccumulation, fp8Params: r.fp8Params,
      }),
    },
    parallelism: {
      tensor: r.tensor,
      pipeline: r.pipeline,
      data: r.data,
      context: r.context,
      virtualStages: r.virtualStages,
      schedule: r.schedule,
      sequenceParallel: r.sequenceParallel,
      recompute: r.recompute,
      ...(r.zeroStage > 0 ? { zeroStage: r.zeroStage as 1 | 2 | 3 } : { distributedOptimizer: r.distributedOptimizer }),
      ...present({
        recomputeLayers: r.recomputeLayers, embeddingInPipelineSplit: r.embeddingInPipelineSplit, lossInPipelineSplit: r.lossInPipelineSplit,
        scatterGather: r.scatterGather, overlapGradReduce: r.overlapGradReduce, overlapTensorParallelComm: r.overlapTensorParallelComm,
        overlapPipelineComm: r.overlapPipelineComm, asyncTensorParallelGradComm: r.asyncTensorParallelGradComm,
      }),
    },
  };
}
