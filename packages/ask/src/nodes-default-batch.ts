import { modelById } from '@trainplan/presets';
import {
  nodesRequestSchema, runNodes, validate, withNodesExtensions, type FieldIssue, type NodesExtensions, type NodesRequest,
  type NodesResponseJson,
} from '@trainplan/protocol';
import { assumedGlobalBatch, type AssumedGlobalBatch, type BatchInputs } from './assumed-global-batch.ts';
import { deadlineBatchFor, defaultBatch } from './defaults.ts';

/**
 * A nodes request body without training.globalBatchSize, planned as `trainplan nodes` without --global-batch plans it
 * (apps/cli/src/commands/nodes.ts fromFlags and sizeBatch) and as the chat bot does: each cluster size at the default
 * batch a question about that size alone takes. One body, one answer, whichever surface reads it: POST /v1/nodes
 * (apps/api nodes-default-batch.ts, which reads an estimate's training.tokens first) and `trainplan nodes --input` call
 * these (QA: --input refused the body the API planned, "training: missing required field").
 */

/**
 * A validated nodes request, and where its batch was omitted, what the default was computed from. Plain data: a
 * runtime with threads runs it on a worker (the API's runInBackground), so the per-size batch is rebuilt there.
 */
export interface NodesBody {
  readonly request: NodesRequest;
  readonly defaultBatch?: BatchInputs;
}

/** runNodes' answer with what POST /v1/nodes adds to it: the uptime, the batch warning, and the batch assumed where none was given. */
export type NodesAnswer = NodesResponseJson & NodesExtensions & { assumedGlobalBatch?: AssumedGlobalBatch };

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
/** A count the request can take: a bad one is the schema's to name, not a size to compute a batch from. */
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 1;

/**
 * The batch's inputs where the body omits training.globalBatchSize and may take a default: its model is a preset id
 * (the default is the preset's published batch, else about 4M tokens of its sequence length) and training is an object
 * or absent. A model given by its shape, an unknown id or a training that is no object: undefined, so the schema names
 * the field as before. As the CLI's flags give them: cluster.gpu as a GPU or a system id, cluster.gpusPerNode,
 * training.seqLength and nodes where they are counts.
 */
export function nodesBatchInputs(body: unknown): BatchInputs | undefined {
  if (!isObject(body) || typeof body.model !== 'string' || modelById(body.model) === undefined) return undefined;
  const { training, cluster, nodes } = body;
  if (training !== undefined && !isObject(training)) return undefined;
  if (training?.globalBatchSize !== undefined) return undefined;
  const gpu = isObject(cluster) && typeof cluster.gpu === 'string' ? cluster.gpu : undefined;
  const gpusPerNode = isObject(cluster) ? cluster.gpusPerNode : undefined;
  const seqLength = training?.seqLength;
  return {
    model: body.model, ...(gpu !== undefined && { gpu, system: gpu }), ...(isCount(gpusPerNode) && { gpusPerNode }),
    ...(isCount(seqLength) && { seqLength }), ...(isCount(nodes) && { nodes }),
  };
}

/**
 * Validates a nodes body, first filling an omitted batch (nodesBatchInputs) as the CLI's request builder does: with
 * `nodes`, that size's default; otherwise the default with no size, which the search replaces per size (runNodesBody)
 * and which the tokens' one-step check and the refusals name. A body with its batch is validated as it came.
 */
export function validateNodesBody(body: unknown): { ok: true; value: NodesBody } | { ok: false; issues: FieldIssue[] } {
  const inputs = nodesBatchInputs(body);
  const sequences = inputs === undefined ? undefined : defaultBatch(inputs).sequences;
  // A default ask could not compute (NaN from a bad size) is left out: the schema then names the missing field.
  const filled = inputs !== undefined && isCount(sequences) && isObject(body)
    ? { ...body, training: { ...(isObject(body.training) ? body.training : {}), globalBatchSize: sequences } } : body;
  const v = validate(nodesRequestSchema, filled);
  if (!v.ok) return { ok: false, issues: v.issues };
  return { ok: true, value: { request: v.value, ...(filled !== body && inputs !== undefined && { defaultBatch: inputs }) } };
}

/**
 * runNodes, with each cluster size at its own default where the batch was omitted: runNodes' `globalBatchFor` as the
 * CLI's sizeBatch gives it, deadlineBatchFor in every mode (that default, unless rounding to the size's GPUs moved it
 * more than 10% from its aim: then the batch asked with no size; and, the faster taken, the multiple of its rounding
 * unit on the other side of the aim, at most 25% under or 10% over it). With `nodes`, that size at the same batches
 * (and at the request's, its own default, where none of those runs: the protocol's searchAskedSize), so that a deadline
 * answering N nodes and `nodes` N name one plan (QA: Llama 3 8B on H100, 15T tokens, 30 days: 103 nodes at 412
 * sequences, 29.9 days; nodes 103 at its own 515 alone said 33.6). The answer carries withNodesExtensions' fields and,
 * where the batch was omitted, assumedGlobalBatch.
 */
export function runNodesBody({ request, defaultBatch: inputs }: NodesBody, options: Parameters<typeof runNodes>[1]): NodesAnswer {
  if (inputs === undefined) return withNodesExtensions(request, true, runNodes(request, options));
  const globalBatchFor = deadlineBatchFor(inputs);
  const answer = runNodes(request, { ...options, globalBatchFor });
  return { ...withNodesExtensions(request, false, answer), assumedGlobalBatch: assumedGlobalBatch(inputs, request, answer, globalBatchFor) };
}
