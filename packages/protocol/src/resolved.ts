/**
 * A scenario after validation: the contract's input with every default it states filled in, so
 * the planner never re-derives a default. What stays optional has no input-only default: it
 * depends on a preset (`gpusPerNode`, `network`), on the model (`training.seqLength`), or on the
 * GPU count (`parallelism.data`).
 */
import type { ModelObjectInput, RecomputeMode, ScenarioInput, ScheduleId } from './wire.ts';

/** A model object with the contract's defaults: kvHeads = attentionHeads, ffnHiddenSize = 4 × hiddenSize. */
export interface ResolvedModelObject extends ModelObjectInput {
  kvHeads: number;
  ffnHiddenSize: number;
  gatedMlp: boolean;
  tiedEmbeddings: boolean;
}

type Parallelism = NonNullable<ScenarioInput['parallelism']>;

export interface ResolvedParallelism extends Parallelism {
  tensor: number;
  pipeline: number;
  virtualStages: number;
  context: number;
  sequenceParallel: boolean;
  recompute: RecomputeMode;
  distributedOptimizer: boolean;
  schedule: ScheduleId;
  scatterGather: boolean;
  overlapGradReduce: boolean;
  overlapTensorParallelComm: boolean;
  overlapPipelineComm: boolean;
  asyncTensorParallelGradComm?: boolean;
}

type Training = ScenarioInput['training'];

/**
 * Training after validation; precision and the attention kernel stay open (their defaults depend on the GPU),
 * and so does dropout (its default depends on the model): resolve.ts fills them.
 */
export interface ResolvedTraining extends Training {
  microBatchSize: number;
}

export interface ResolvedScenarioInput extends ScenarioInput {
  model: string | ResolvedModelObject;
  training: ResolvedTraining;
  parallelism: ResolvedParallelism;
}
