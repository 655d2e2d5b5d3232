import { pipelineSlotsLabel, slotsOf, slotsTaken, type PipelineSlots } from '@trainplan/model';

/**
 * The scenario's two pipeline-split fields for the planner's slots id: Megatron-Core's
 * --account-for-embedding-in-pipeline-split and --account-for-loss-in-pipeline-split, one field each
 * (resolve.ts turns them back into the id with slotsOf).
 */
export function pipelineSplitFlags(slots: PipelineSlots = 'layers'): { embeddingInPipelineSplit: boolean; lossInPipelineSplit: boolean } {
  const { embedding, loss } = slotsTaken(slots);
  return { embeddingInPipelineSplit: embedding, lossInPipelineSplit: loss };
}

/** " (+embedding, +loss)" for a scenario's or an estimate's two fields, after its pipeline size; nothing without them. */
export const pipelineSplitLabel = (f: { embeddingInPipelineSplit?: boolean; lossInPipelineSplit?: boolean }): string =>
  pipelineSlotsLabel(slotsOf(f.embeddingInPipelineSplit ?? false, f.lossInPipelineSplit ?? false));
