export type { ModelShape, ModelShapeInput } from './shape.ts';
export { withShapeDefaults } from './shape.ts';
export type { AttendLimit } from './attend-limit.ts';
export { attendLimit, learnedPositionRows } from './attend-limit.ts';
export type { ParameterBreakdown } from './parameters.ts';
export { parameterBreakdown, parameterCount, kvWidth } from './parameters.ts';
export type { AttentionFlopConvention, RecomputeMode, LayerForwardFlops, StepFlopsInput } from './flops.ts';
export {
  layerForwardFlopsPerToken, modelFlopsPerStep, hardwareFlopsPerStep,
  narayananHardwareFlops,
} from './flops.ts';
export type { ActivationInput, AttentionKernel, LayerActivationTerms, PipelineSchedule } from './activations.ts';
export {
  layerActivationTerms, activationBytesPerLayer, workingBytesPerLayer, inFlightMicroBatches, inFlightOnStage,
  embeddingActivationBytes,
} from './activations.ts';
export type { StateSharding, ModelStateBytes } from './model-states.ts';
export { modelStateBytes, bytesPerParameter } from './model-states.ts';
export type { PipelineSlots, PipelineSplit } from './pipeline-split.ts';
export { layersPerStage, PIPELINE_SLOTS, SLOT_INDEX, pipelineSlotsLabel, pipelineSplit, slotCount, slotsOf, slotsTaken, splitsIntoChunks } from './pipeline-split.ts';
export { stageParameters } from './stage-parameters.ts';
export { fp8WeightCopyBytes } from './fp8-weights.ts';
export { kvCacheBytesPerToken } from './kv-cache.ts';
export type { ValueFormat } from './value-bytes.ts';
export { BYTES_16BIT, BYTES_FP32, bytesPerValue } from './value-bytes.ts';
