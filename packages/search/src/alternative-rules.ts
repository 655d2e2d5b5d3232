import { pipelineSplit, slotCount, type PipelineSlots } from '@trainplan/model';
import type { PlanIssue, PlanRule } from '@trainplan/planner';
import { countOf } from '@trainplan/units';
import type { Candidate, SearchBase } from './candidate.ts';

/**
 * Why a neighbour of the best plan cannot run, in words for whoever reads the search's answer (the CLI prints it, the
 * HTTP API returns it): the planner's issue (checkPlan) names the scenario field to change and, for some rules, a size
 * to try instead, which suit an estimate's caller but not an alternative, whose sizes are the search's own choice. The
 * rules whose planner text names a field or offers a size are said here; the others' planner text is already plain
 * words about the plan itself ("128 attention heads do not split evenly over 256 tensor-parallel ranks").
 */
const OWN_WORDS: Readonly<Partial<Record<PlanRule, (base: SearchBase, c: Candidate) => string>>> = {
  // checkPlan's text ends with a stage count to use instead, chosen without the batch: one the batch may not divide.
  'pipeline-split': (base, c) => noSplitText(base.model.layers, c.pipeline, c.pipelineSlots ?? 'layers'),
  'interleave-needs-overlap': () => 'the interleaved schedule on 2 pipeline stages needs overlapped pipeline sends, which these settings leave off',
  'context-needs-fused-attention': () => "context parallelism runs only in Transformer Engine's fused attention, and these settings use the unfused attention",
  'tp-overlap-needs-sequence-parallel': () => 'tensor-parallel communication overlap needs sequence parallelism',
  'tp-overlap-crosses-nvlink': (base, c) => `tensor-parallel communication overlap runs only within an NVLink domain (${countOf(base.nvlinkDomainGpus, 'GPU')}), `
    + `which TP ${c.tensor} crosses`,
  'recompute-layers': (_base, c) => `Megatron recomputes the same number of layers in each of the ${c.virtualStages} model chunks of a stage, `
    + `and ${c.recomputeLayers} per stage is not a multiple of ${c.virtualStages}`,
  'recompute-layers-needs-full': () => 'a count of recomputed layers applies only to full recompute',
  // checkPlan's text points at zeroStage and distributedOptimizer, fields a search's caller did not set.
  'zero-with-pipeline': (_base, c) => `ZeRO-${c.sharding.slice(5)} does not run with a pipeline (DeepSpeed and Megatron-FSDP refuse it)`,
};

/** One line on why `c` cannot run: the first rule of Megatron's it breaks (checkPlan's `issue`), without field names. */
export function cannotRunText(base: SearchBase, c: Candidate, issue: PlanIssue): string {
  return OWN_WORDS[issue.rule]?.(base, c) ?? issue.message;
}

const slotWords = (slots: PipelineSlots): string =>
  slots === 'embedding-and-loss' ? 'the embedding and the loss' : slots === 'embedding' ? 'the embedding' : 'the loss';

/**
 * Why L layers have no split over p stages (@trainplan/model pipelineSplit): Megatron's uneven split gives the middle
 * stages ⌈L/p⌉ layers each and the first and last the rest, at least one each; with the embedding or the loss counted
 * as a layer (--account-for-embedding/loss-in-pipeline-split) the slots must divide by p.
 */
function noSplitText(L: number, p: number, slots: PipelineSlots): string {
  if (slots !== 'layers' && pipelineSplit(L, p) !== undefined) {
    return `${L} layers with ${slotWords(slots)} make ${slotCount(L, slots)} slots, which ${p} pipeline stages do not divide`;
  }
  const b = Math.ceil(L / p);
  const left = L - (p - 2) * b;
  return `${L} layers have no split over ${p} stages: ${left < 0
    ? `the ${p - 2} middle stages of ⌈${L}/${p}⌉ = ${countOf(b, 'layer')} each would take ${(p - 2) * b}, more than the ${L}`
    : `the ${p - 2} middle stages of ⌈${L}/${p}⌉ = ${countOf(b, 'layer')} each would leave ${left} for the first and last, which need at least one each`}`;
}
