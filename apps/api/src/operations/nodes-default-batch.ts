import { formatGrouped } from '@trainplan/units';
import { deadlineBatchFor, defaultBatch, defaultBatchNote, type AskParameters } from '@trainplan/ask';
import { modelById } from '@trainplan/presets';
import { withUptimeHint } from './nodes-extensions.ts';
import {
  nodesRequestSchema, nodesText, runNodes, validate, withNodesExtensions, type FieldIssue, type NodesExtensions, type NodesRequest,
  type NodesResponseJson,
} from '@trainplan/protocol';

/**
 * POST /v1/nodes without training.globalBatchSize, planned as the CLI plans `trainplan nodes` without --global-batch
 * (apps/cli/src/commands/nodes.ts fromFlags and sizeBatch, apps/cli/src/default-batch.ts) and as the chat bot does
 * (@trainplan/ask): each cluster size at the default batch a question about that size alone takes, so that an API user
 * gets the CLI's and the bot's headline numbers for the same question (QA: 15T tokens of Llama 3 70B on H100 within
 * 5.7M GPU-hours was a 400 here and an answer there).
 */

/** What the default batch is computed from: the fields of the request the CLI's flags give @trainplan/ask. */
export type BatchInputs = Pick<AskParameters, 'model' | 'gpu' | 'system' | 'gpusPerNode' | 'seqLength' | 'nodes'>;

/**
 * A validated nodes request, and where its batch was omitted, what the default was computed from. Plain data: a
 * runtime with threads runs it on a worker (ApiOptions.runInBackground), so the per-size batch is rebuilt there.
 */
export interface NodesBody {
  readonly request: NodesRequest;
  readonly defaultBatch?: BatchInputs;
}

/** The answer's extension where the batch was assumed (documented in /openapi.json by nodes-schemas.ts). */
export interface AssumedGlobalBatch {
  /** The global batch, in sequences, the answer's cluster size was planned at (or, where the answer names none, the batch asked with no size). */
  sequences: number;
  /** The cluster size `sequences` is for; absent where it is the batch asked with no size. */
  nodes?: number;
  /** Why it is that size, in @trainplan/ask's wording (defaultBatchNote). */
  note: string;
}

export type NodesAnswer = NodesResponseJson & NodesExtensions & { assumedGlobalBatch?: AssumedGlobalBatch };

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
/** A count the request can take (apps/cli/src/default-batch.ts isCount): a bad one is the schema's to name, not a size to compute a batch from. */
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 1;

/**
 * The batch's inputs where the request omits training.globalBatchSize and may take a default: its model is a preset id
 * (the default is the preset's published batch, else about 4M tokens of its sequence length) and training is an object
 * or absent. A model given by its shape, an unknown id or a training that is no object: undefined, so the schema's 400
 * names the field as before. The CLI's askParameters: --gpu as a GPU or a system id, --gpus-per-node, --seq-length and
 * --nodes where they are counts.
 */
function batchInputs(body: unknown): BatchInputs | undefined {
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
 * Validates a nodes request, first filling an omitted batch (batchInputs) as the CLI's request builder does: with
 * `nodes`, that size's default; otherwise the default with no size, which the search replaces per size (runNodesBody)
 * and which the tokens' one-step check and the refusals name. A request with its batch is validated as it came.
 */
export function validateNodesBody(body: unknown): { ok: true; value: NodesBody } | { ok: false; issues: FieldIssue[] } {
  const inputs = batchInputs(body);
  const sequences = inputs === undefined ? undefined : defaultBatch(inputs).sequences;
  // A default ask could not compute (NaN from a bad size) is left out: the schema then names the missing field.
  const filled = inputs !== undefined && isCount(sequences) && isObject(body)
    ? { ...body, training: { ...(isObject(body.training) ? body.training : {}), globalBatchSize: sequences } } : body;
  const v = validate(nodesRequestSchema, filled);
  if (!v.ok) return { ok: false, issues: withUptimeHint(v.issues) };
  return { ok: true, value: { request: v.value, ...(filled !== body && inputs !== undefined && { defaultBatch: inputs }) } };
}

/**
 * runNodes, with each cluster size at its own default where the batch was omitted: runNodes' `globalBatchFor` as the
 * CLI's sizeBatch gives it. With `nodes`, each size (the sizes around it, where nothing runs there) at the default a
 * request for that size takes; with a deadline, a budget or the frontier, ask's deadlineBatchFor (that default, unless
 * rounding to the size's GPUs moved it more than 10% from its aim: then the batch asked with no size; and, the faster
 * taken, the multiple of its rounding unit on the other side of the aim, at most 25% under or 10% over it).
 */
export function runNodesBody({ request, defaultBatch: inputs }: NodesBody, options: Parameters<typeof runNodes>[1]): NodesAnswer {
  if (inputs === undefined) return withNodesExtensions(request, true, runNodes(request, options));
  const globalBatchFor = request.nodes === undefined ? deadlineBatchFor(inputs) : (nodes: number) => defaultBatch({ ...inputs, nodes }).sequences;
  const answer = runNodes(request, { ...options, globalBatchFor });
  return { ...withNodesExtensions(request, false, answer), assumedGlobalBatch: assumedGlobalBatch(inputs, request, answer, globalBatchFor) };
}

const PER_SIZE = 'training.globalBatchSize omitted: each cluster size was planned at the default batch a request with nodes set to that size takes, '
  + 'or at the multiple of its data-parallel unit across the default\'s aim where that is faster';

/**
 * Which batch was assumed, as the CLI's assumed line says it (assumedBatchLine with --nodes, perSizeBatchLine otherwise):
 * with `nodes`, that size's default; otherwise the one the answer's size (or the closest's) took, and why.
 */
function assumedGlobalBatch(inputs: BatchInputs, request: NodesRequest, answer: NodesResponseJson, batchFor: (nodes: number) => number): AssumedGlobalBatch {
  const sized = request.nodes === undefined ? deadlineBatchFor(inputs) : undefined;
  if (request.nodes !== undefined) {
    const own = defaultBatch({ ...inputs, nodes: request.nodes });
    return { sequences: own.sequences, nodes: request.nodes, note: `training.globalBatchSize omitted: ${defaultBatchNote(own)}` };
  }
  // A refused request (ok false, invalid: tokens under one step) was checked at the batch asked with no size.
  const nodes = answer.ok ? answer.nodes : answer.reason === 'invalid' ? undefined : answer.closest?.nodes;
  if (nodes === undefined) {
    return {
      sequences: request.training.globalBatchSize,
      note: `training.globalBatchSize omitted: ${defaultBatchNote(defaultBatch(inputs))}, the default with no cluster size (each size searched takes the default a request with nodes set to it takes)`,
    };
  }
  const own = defaultBatch({ ...inputs, nodes });
  // The closest's plan carries the batch it took, as the answer's does; batchFor's where it carries none.
  const used = answer.ok ? answer.configuration.scenario.training.globalBatchSize : answer.closest?.scenario?.training.globalBatchSize ?? batchFor(nodes);
  // Which batch the size took (its own, the one across its aim, or the one asked with no size), in ask's words, with how to
  // plan that size alone at it in the request's fields.
  const took = sized?.said(nodes, used);
  const said = took === undefined || took.why === 'own' ? defaultBatchNote(own)
    : took.why === 'across' ? `${took.note}; a request with nodes ${nodes} and training.globalBatchSize ${used} plans that size alone at it`
    : `global batch ${formatGrouped(used)} sequence${used === 1 ? '' : 's'}, the batch asked with no size (${nodesText(nodes)} would round it to `
      + `${formatGrouped(own.sequences)}, more than 10% from its aim)`;
  return { sequences: used, nodes, note: `${PER_SIZE}; on ${nodesText(nodes)}: ${said}` };
}

