import { pipelineSlotsLabel, type PipelineSlots, type RecomputeMode, type StateSharding } from '@trainplan/model';
import type { PlanInput } from '@trainplan/planner';

/**
 * How activations are recomputed: Megatron's three modes, plus full recompute of only some layers of
 * each stage (`--recompute-granularity full --recompute-method block --recompute-num-layers N`), for
 * which the search picks the fewest layers that fit.
 */
export type RecomputeChoice = RecomputeMode | 'full-partial';

/** One parallel strategy: the part of a plan the search chooses. */
export interface Candidate {
  readonly tensor: number;
  readonly pipeline: number;
  /** What takes a layer's place in the pipeline split besides the layers (absent: the layers alone). */
  readonly pipelineSlots?: PipelineSlots;
  readonly data: number;
  readonly context: number;
  readonly virtualStages: number;
  readonly microBatchSize: number;
  readonly sequenceParallel: boolean;
  readonly recompute: RecomputeMode;
  /** With recompute 'full': layers recomputed per stage (absent: all of them). */
  readonly recomputeLayers?: number;
  readonly sharding: StateSharding;
}

/** What the search does not choose: the model, the machine, the batch and the software's switches. */
export type SearchBase = Omit<PlanInput,
  'tensor' | 'pipeline' | 'pipelineSlots' | 'data' | 'context' | 'virtualStages' | 'schedule' | 'microBatchSize' | 'sequenceParallel'
  | 'recompute' | 'recomputeLayers' | 'sharding'>;

/** The planner's input for one candidate (interleaved schedule exactly when there are virtual stages). */
export function planFor(base: SearchBase, c: Candidate): PlanInput {
  // Object.assign rather than `{ ...base, tensor, … }`: V8 (Node 20) adds each property written after a spread on a slow
  // path, about 0.7 µs apiece, which made this copy (15 µs) three times the estimate it feeds (QA profile of a frontier
  // search: planFor the hottest function); assign copies the same properties in the same order, 1.3 µs.
  const chosen = {
    tensor: c.tensor,
    pipeline: c.pipeline,
    ...(c.pipelineSlots !== undefined && c.pipelineSlots !== 'layers' && { pipelineSlots: c.pipelineSlots }),
  };
  return Object.assign({}, base, chosen, {
    data: c.data,
    context: c.context,
    virtualStages: c.virtualStages,
    schedule: c.virtualStages > 1 ? 'interleaved' : '1f1b',
    microBatchSize: c.microBatchSize,
    sequenceParallel: c.sequenceParallel,
    recompute: c.recompute,
    recomputeLayers: c.recomputeLayers,
    sharding: c.sharding,
    scatterGather: scatterGatherFor(base.scatterGather, c),
    overlapPipelineComm: overlapPipelineCommFor(base.overlapPipelineComm, c),
    overlapTensorParallelComm: overlapTensorParallelCommFor(base.overlapTensorParallelComm, c, base.nvlinkDomainGpus),
  } as const);
}

/**
 * Megatron skips scatter-gather when sequence parallelism already splits the pipeline sends: a plan
 * that picks sequence parallelism states it off rather than carry a setting that does nothing.
 */
export const scatterGatherFor = (requested: boolean, c: Pick<Candidate, 'sequenceParallel'>): boolean => requested && !c.sequenceParallel;

/**
 * Megatron overlaps pipeline sends only in the interleaved schedule (arguments.py turns overlap_p2p_comm
 * off otherwise): a plan without virtual stages states the overlap off rather than carry a setting that
 * does nothing.
 */
export const overlapPipelineCommFor = (requested: boolean, c: Pick<Candidate, 'virtualStages'>): boolean => requested && c.virtualStages > 1;

/**
 * Transformer Engine overlaps tensor-parallel collectives only where they are the all-gathers and reduce-scatters of
 * sequence parallelism (arguments.py asserts --sequence-parallel with --tp-comm-overlap) and within one NVLink domain
 * (Userbuffers: TransformerEngine#1071): a plan outside that states the overlap off, as it runs, rather than be
 * refused. Requesting the overlap means "where it applies", as for pipeline sends.
 */
export const overlapTensorParallelCommFor = (requested: boolean, c: Pick<Candidate, 'sequenceParallel' | 'tensor'>, nvlinkDomainGpus: number): boolean =>
  requested && c.sequenceParallel && c.tensor > 1 && c.tensor <= nvlinkDomainGpus;

/** A short human label: "TP 8 · PP 8 · DP 16 · mbs 1 · full recompute"; "PP 16 (+embedding, +loss)" when those take a layer's place. */
export function describeCandidate(c: Candidate): string {
  const parts = [`TP ${c.tensor}`, `PP ${c.pipeline}${pipelineSlotsLabel(c.pipelineSlots)}`, `DP ${c.data.toLocaleString('en-US')}`];
  if (c.context > 1) parts.push(`CP ${c.context}`);
  if (c.virtualStages > 1) parts.push(`v ${c.virtualStages}`);
  parts.push(`mbs ${c.microBatchSize}`);
  if (c.sequenceParallel) parts.push('SP');
  parts.push(c.recompute === 'none' ? 'no recompute'
    : c.recompute === 'full' && c.recomputeLayers !== undefined ? `full recompute of ${c.recomputeLayers} layer${c.recomputeLayers === 1 ? '' : 's'}/stage` : `${c.recompute} recompute`);
  if (c.sharding !== 'none') parts.push(c.sharding);
  return parts.join(' · ');
}
