import type { InferencePointJson } from '@trainplan/protocol';
import { countOf } from '@trainplan/units';
import type { AskParameters } from '../question.ts';
import { belowOneProblem } from './whole-counts.ts';
import { layoutOf } from './stated-data-note.ts';

/**
 * DP and CP stated in a serving question. A serving plan is replicas of one TP × PP shape (vLLM's and TensorRT-LLM's
 * tensor and pipeline parallel sizes), as many as the GPUs hold or the load needs: DP is that replica count, which the
 * plan sets, and context parallelism is not planned for serving. Neither is dropped without a word.
 */

/** A DP or CP stated below 1, refused in the protocol's words; empty when none is. */
export function servingParallelProblems(p: AskParameters): string[] {
  return [belowOneProblem('data', p.data), belowOneProblem('context', p.context)].filter((x): x is string => x !== undefined);
}

/** What became of a stated DP and CP in the plan `best` on `gpus` GPUs (undefined when none is named). */
export function servingParallelNotes(p: AskParameters, best: InferencePointJson, gpus: number | undefined): string[] {
  const notes: string[] = [];
  if (p.context !== undefined && p.context > 1) {
    notes.push(`CP ${p.context} asked: a serving replica is planned as TP × PP only (context parallelism is not modelled for serving), so this plan has none.`);
  }
  const data = p.data;
  if (data === undefined) return notes;
  if (best.load !== undefined) {
    if (best.load.replicas !== data) notes.push(`DP ${data} asked: at a request rate the replicas are what the load needs, here ${countOf(best.load.replicas, 'replica')}.`);
    return notes;
  }
  if (gpus === undefined) {
    notes.push(`DP ${data} asked: give the GPUs ("on ${data * best.gpus} GPUs") for ${countOf(data, 'replica')} of this plan.`);
    return notes;
  }
  const replicas = Math.floor(gpus / best.gpus);
  if (replicas === data) return notes;
  const lead = `DP ${data} asked: a serving plan's replicas are the GPUs over each replica's TP × PP, here ${countOf(replicas, 'replica')}`;
  notes.push(gpus % data === 0
    ? `${lead}; for ${countOf(data, 'replica')}, state a TP × PP of ${gpus / data} (e.g. "${layoutOf(gpus / data)}").`
    : `${lead}; DP ${data} does not divide the ${countOf(gpus, 'GPU')}.`);
  return notes;
}
