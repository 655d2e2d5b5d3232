import { withShapeDefaults } from '@trainplan/model';
import type { ResolvedPlan } from './resolve.ts';
import type { ModelObjectInput, ResolvedJson, ResolvedModelShape } from './wire.ts';

/** The fields of `resolved` written here: what a scenario sets beyond the degrees, kernels and batch (wire.ts ResolvedJson). */
export type ResolvedExtensions = Pick<ResolvedJson,
  'modelShape' | 'scatterGather' | 'overlapGradReduce' | 'overlapTensorParallelComm' | 'overlapPipelineComm' | 'asyncTensorParallelGradComm' | 'tokens'>;

/**
 * The rest of what a scenario sets that changes its estimate, as planned, so that the resolved block fed back as a scenario
 * (resolved-scenario.ts) gives the same estimate (QA: without the overlap switches, the contract example fed back stepped
 * 29.59 s where it had stepped 29.05 s, and an interleaved plan on 2 stages was refused for want of overlapPipelineComm):
 * the parallelism switches, each false by default (scenario-schema.ts); the token budget where given; and a model given by
 * its shape, every default filled in (withShapeDefaults), with its own seqLength (a run's training.seqLength is
 * resolved.seqLength) and its name only where the scenario gave one (`model` names it, or says "custom").
 * Its own module so that the widget, which reads none of these, leaves it out of its bundle (apps/widget build.ts).
 */
export function resolvedExtensions({ plan, modelInput }: ResolvedPlan): ResolvedExtensions {
  return {
    ...(typeof modelInput !== 'string' && { modelShape: modelShapeOf(modelInput) }),
    scatterGather: plan.scatterGather,
    overlapGradReduce: plan.overlapGradReduce,
    overlapTensorParallelComm: plan.overlapTensorParallelComm,
    overlapPipelineComm: plan.overlapPipelineComm,
    asyncTensorParallelGradComm: plan.asyncTensorParallelGradComm === true,
    ...(plan.tokens !== undefined && { tokens: plan.tokens }),
  };
}

/** The model object's fields, each with its default (the planner's ModelShape also has fields no scenario sets: maxPositions). */
function modelShapeOf(input: ModelObjectInput): ResolvedModelShape {
  const m = withShapeDefaults(input);
  return {
    layers: m.layers, hiddenSize: m.hiddenSize, attentionHeads: m.attentionHeads, kvHeads: m.kvHeads, ffnHiddenSize: m.ffnHiddenSize,
    vocabSize: m.vocabSize, seqLength: m.seqLength, gatedMlp: m.gatedMlp, tiedEmbeddings: m.tiedEmbeddings,
    positionEmbedding: m.positionEmbedding, linearBias: m.linearBias, normalization: m.normalization,
    ...(input.name !== undefined && { name: input.name }),
  };
}
