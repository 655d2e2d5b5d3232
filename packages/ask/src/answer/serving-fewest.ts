import { fewestServingGpus, retryInference, runInference, type InferenceResponseJson } from '@trainplan/protocol';
import { countOf } from '@trainplan/units';
import { clusterGpusOf } from '../cluster-of.ts';
import type { ParsedQuestion } from '../question.ts';

/**
 * "What is the minimum number of H100s to serve llama 3 70b", "fewest A100 40GB GPUs to serve llama 2 7b": the fewest GPUs
 * that serve, asked with no count. QA: these were answered with the plan of most tokens/s per GPU the protocol finds with
 * no count (Llama 3 70B as TP 2 · PP 8, 16 H100; Llama 2 7B as TP 4 · PP 2, 8 A100 of 40 GB, whose 12.6 GiB of weights
 * fit on one). The count is the protocol's search (fewestServingGpus), the one the CLI's remedy names counts from:
 * `trainplan inference … --gpus 1` plans one GPU, or where one holds no replica says "give --gpus 2, the fewest that serve";
 * this only words what it finds.
 */

type Served = Extract<InferenceResponseJson, { ok: true }>;

/** A GPU as a count names it: "GPUs", "cards", "nodes", or the GPU's own name ("H100s", "a100", "B200s"). */
const GPU_WORD = String.raw`(?:gpus?|cards?|accelerators?|chips?|devices?|nodes?|[a-z]{1,3}\d{2,4}[a-z]*s?)`;
/** A word of a GPU's name before "GPUs": "A100", "40GB", "SXM", "NVIDIA" (never "latency on", which "minimum latency on h100" holds). */
const GPU_NAME_WORD = String.raw`(?:[a-z]*\d[\w.-]*|nvidia|tesla|sxm\d?|pcie|hgx|dgx)`;
/**
 * Words asking the fewest GPUs: "minimum number of H100s", "min GPUs", "fewest A100 40GB GPUs", "smallest number of GPUs",
 * "least GPUs", "how few GPUs". Not "at least 8 GPUs" (a count stated), nor the GPUs' memory or GPU-hours ("minimum GPU
 * memory", "fewest GPU-hours": a memory question and training's cheapest); "smallest" only of a number ("the smallest GPU"
 * is a kind of GPU).
 */
export const ASKS_FEWEST_GPUS = new RegExp(String.raw`(?:\b(?:min(?:imum|imal)?|fewest|lowest|smallest|least)\s+(?:possible\s+)?(?:number|count|amount)\s+of\s+|\b(?:min(?:imum|imal)?|fewest|(?<!\bat\s)least)\s+|\bhow\s+few\s+)`
  + String.raw`(?:${GPU_NAME_WORD}\s+){0,3}?${GPU_WORD}\b(?![\s-]*(?:hours?|hrs?|memory|vram|hbm|ram)\b)`, 'i');

/**
 * Whether answerServing plans the question on the fewest GPUs that serve (fewestGpusToServe): the fewest asked with no count
 * named, and no rate, whose plan is already the fewest GPUs for it. One test for the answer and for runsSearch, which defers it.
 */
export const asksFewestServing = (q: ParsedQuestion): boolean =>
  clusterGpusOf(q.parameters) === undefined && q.parameters.requestsPerSecond === undefined && ASKS_FEWEST_GPUS.test(q.text);

/** The fewest GPUs that serve and the protocol's answer on them; `fromRemedy` where the protocol's remedy named the count. */
export interface FewestServing {
  readonly gpus: number;
  readonly result: Served;
  readonly fromRemedy: boolean;
}

/**
 * The fewest GPUs that serve `one` (the request on one GPU, its count set anew on each try) within its bounds, and the answer on
 * that count (its best plan defined), from the protocol's search (fewestServingGpus), the one the CLI's remedy names its counts
 * from: the counts a replica holding the model divides, from the fewest that hold it, asked in turn until one's plan serves.
 * `fromRemedy` where `trainplan inference … --gpus 1` names that count (one GPU holds no replica, and its remedy is more GPUs,
 * not fewer requests or chunked prefill).
 * Undefined where nothing serves within the bounds.
 */
export function fewestGpusToServe(one: Record<string, unknown>): FewestServing | undefined {
  const onOne = runInference(one);
  if (!onOne.ok) return undefined;
  const found = fewestServingGpus(one, retryInference(one), onOne);
  const serves = found?.serves;
  return serves === undefined ? undefined : { gpus: serves.gpus, result: serves.answer, fromRemedy: found?.named === serves.gpus };
}

/** "2 GPUs are the fewest that serve it within the bounds (the count the CLI's inference names): " before the plan's headline. */
export function fewestLead(fewest: FewestServing, bounded: boolean, plan: string): string {
  const within = bounded ? ' within the bounds' : '';
  const named = fewest.fromRemedy ? " (the count the CLI's inference names)" : '';
  return `${countOf(fewest.gpus, 'GPU')} ${fewest.gpus === 1 ? 'is the fewest that serves' : 'are the fewest that serve'} it${within}${named}: ${plan}`;
}
