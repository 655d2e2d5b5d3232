import { deadlineBatchFor, defaultBatch as askDefaultBatch, defaultBatchNote, type DefaultBatch } from '@trainplan/ask';
import { MAX_CLUSTER_GPUS, MAX_CLUSTER_NODES, MAX_GPUS_PER_NODE } from '@trainplan/protocol';
import type { FlagValues } from './flags.ts';
import { count, seqLength as seqLengthFlag } from './search-flags.ts';

/**
 * A count the request can take, 1 to the field's `max`: a bad one (--nodes 0, --seq-length -1, --nodes 1e308) is the schema's
 * to name, not a size to compute a batch from (QA: --nodes 1e308 was refused beside "--global-batch: … got Infinity", a
 * batch never given, derived from it). A sequence too long only makes the batch 1 sequence, which the schema takes.
 */
const isCount = (x: unknown, max = Number.POSITIVE_INFINITY): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 1 && x <= max;

/**
 * The global batch when --global-batch is not given, and why it is that size: the chat bot's for the same question
 * (the model's published batch, else about 4M tokens; @trainplan/ask defaultBatch), so that `search`, `nodes` and
 * `ask` plan one batch for one model.
 */
export function flagDefaultBatch(v: FlagValues): DefaultBatch {
  return askDefaultBatch(flagBatchInputs(v));
}

/** What the flags say of the batch's inputs, as the chat bot's parameters (and @trainplan/ask's assumedGlobalBatch's). */
export function flagBatchInputs(v: FlagValues): Parameters<typeof askDefaultBatch>[0] {
  const seqLength = seqLengthFlag(v);
  const nodes = count(v, 'nodes');
  const gpus = count(v, 'gpus');
  // --gpus-per-node sizes the cluster the batch is rounded for (4 GPUs a node: half the GPUs of the system's 8).
  const gpusPerNode = count(v, 'gpus-per-node');
  return {
    ...(typeof v.model === 'string' && { model: v.model }), ...(isCount(seqLength) && { seqLength }),
    // --gpu takes a GPU or a system id: the node size comes from whichever it is.
    ...(typeof v.gpu === 'string' && { gpu: v.gpu, system: v.gpu }), ...(isCount(nodes, MAX_CLUSTER_NODES) && { nodes }),
    ...(isCount(gpus, MAX_CLUSTER_GPUS) && { gpus }), ...(isCount(gpusPerNode, MAX_GPUS_PER_NODE) && { gpusPerNode }),
  };
}

/**
 * The batch a deadline's search plans each size at with no --global-batch, with the second batch it also plans each size at
 * (the faster taken) and how the batch a size took is said: the chat bot's (@trainplan/ask deadlineBatchFor).
 */
export const flagDeadlineBatchFor = (v: FlagValues): ReturnType<typeof deadlineBatchFor> => deadlineBatchFor(flagBatchInputs(v));

/**
 * "assumed (no --global-batch): global batch 1,536 sequences (…)", where the request built from flags took the default
 * batch; undefined when --global-batch or --input gave it, or the request carries none (a bad --model).
 */
export function assumedBatchLine(v: FlagValues, request: unknown): string | undefined {
  // `--input -` may carry any JSON (null, a number): the run names what is wrong with it; only a flag-built request has an assumed batch.
  const training: unknown = typeof request === 'object' && request !== null ? (request as { training?: unknown }).training : undefined;
  const batch = typeof training === 'object' && training !== null ? (training as { globalBatchSize?: unknown }).globalBatchSize : undefined;
  return v.input === undefined && v['global-batch'] === undefined && typeof batch === 'number'
    ? `assumed (no --global-batch): ${defaultBatchNote(flagDefaultBatch(v))}` : undefined;
}
