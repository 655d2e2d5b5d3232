import {
  inferenceRequestJsonSchema, inferenceRequestSchema, inferenceResponseJsonSchema, runInferenceWithRemedy, runScale, runSearch,
  scaleRequestJsonSchema, scaleRequestSchema, scaleResponseJsonSchema, searchRequestJsonSchema, searchResponseJsonSchema, validate,
  validateSearchRequest, type InferenceRequest, type ScaleRequest, type SearchRequest,
} from '@trainplan/protocol';
import { withHttpIssues, withHttpLimits, type HttpLimit } from './http-limits.ts';
import { INVALID_REASON_TEXT } from './invalid-reason.ts';
import { runNodesBody, validateNodesBody, type NodesBody } from './nodes-default-batch.ts';
import { nodesHttpRequestJsonSchema, nodesHttpResponseJsonSchema } from './nodes-schemas.ts';
import { operation, type OverBudget } from './operation.ts';

/**
 * The most full planner estimates one search may run over HTTP. A full estimate costs tens of µs
 * (docs/benchmarks.md), so a search at this cap is a fraction of a second of CPU, inside a Worker's
 * CPU limit; past it the search ranks what it evaluated and says so (budgetExhausted, a warning).
 * A request asking for a larger candidateBudget is refused (422) naming the limit.
 */
export const HTTP_MAX_CANDIDATE_BUDGET = 5000;
/** The most cluster sizes one /v1/scale request may sweep: each size is one search. */
export const HTTP_MAX_SCALE_SIZES = 16;

const budgetRefusal = (requested: number | undefined): OverBudget | undefined =>
  requested !== undefined && requested > HTTP_MAX_CANDIDATE_BUDGET
    ? {
      detail: `candidateBudget ${requested} is over the API's limit of ${HTTP_MAX_CANDIDATE_BUDGET} full estimates per search`,
      limit: { limit: 'candidateBudget', max: HTTP_MAX_CANDIDATE_BUDGET, requested },
    }
    : undefined;

const options = { candidateBudget: HTTP_MAX_CANDIDATE_BUDGET };
const searchLimits: Record<string, HttpLimit> = { candidateBudget: { maximum: HTTP_MAX_CANDIDATE_BUDGET } };
const scaleLimits: Record<string, HttpLimit> = { nodes: { maxItems: HTTP_MAX_SCALE_SIZES } };

export const searchOperation = operation<SearchRequest>({
  path: '/v1/search',
  operationId: 'search',
  summary: 'Find the fastest (or cheapest) parallel configuration of a model on a cluster',
  description: 'Enumerate → evaluate → rank: the best plan as a contract scenario with its estimate, the top k, the nearest '
    + `alternatives and why they lose, and what was pruned. At most ${HTTP_MAX_CANDIDATE_BUDGET} full estimates per request. ${INVALID_REASON_TEXT}`,
  requestSchema: withHttpLimits(searchRequestJsonSchema, searchLimits),
  responseSchema: searchResponseJsonSchema,
  example: { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 }, top: 3 },
  subject: 'search request',
  slow: true,
  validate: withHttpIssues(validateSearchRequest, searchLimits),
  run(request) {
    const refusal = budgetRefusal(request.candidateBudget);
    return refusal ? { overBudget: refusal } : { answer: runSearch(request, options) };
  },
});

export const nodesOperation = operation<NodesBody>({
  path: '/v1/nodes',
  operationId: 'nodes',
  summary: 'The fewest nodes that train a token budget within a deadline or budget, the days on given nodes, or the time–cost curve over cluster sizes (frontier)',
  description: `Capacity planning over the configuration search (each search capped at ${HTTP_MAX_CANDIDATE_BUDGET} full estimates). `
    + 'Every size is planned at training.globalBatchSize where it is given. Omitted (with a model preset id), each size is planned '
    + 'as the CLI without --global-batch and the chat bot plan it: at its own default (the model\'s published batch, else about 4M '
    + 'tokens, or one sequence per 8 GPUs on a large cluster aimed at most at 2^24 = 16.8M tokens, rounded so that the size\'s GPUs '
    + 'divide it: up to 10% over the aim), and the answer\'s assumedGlobalBatch names the batch its size took and why. The token budget '
    + 'is tokens, or training.tokens as an estimate\'s scenario carries it. '
    + INVALID_REASON_TEXT,
  requestSchema: nodesHttpRequestJsonSchema,
  responseSchema: nodesHttpResponseJsonSchema,
  example: { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, days: 30 },
  subject: 'nodes request',
  slow: true,
  validate: validateNodesBody,
  run: (body) => ({ answer: runNodesBody(body, options) }),
});

export const scaleOperation = operation<ScaleRequest>({
  path: '/v1/scale',
  operationId: 'scale',
  summary: 'Strong or weak scaling: step time, throughput per GPU and efficiency against node count',
  description: `One search per size, at most ${HTTP_MAX_SCALE_SIZES} sizes and ${HTTP_MAX_CANDIDATE_BUDGET} full estimates per search over HTTP. ${INVALID_REASON_TEXT}`,
  requestSchema: withHttpLimits(scaleRequestJsonSchema, scaleLimits),
  responseSchema: scaleResponseJsonSchema,
  example: { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, nodes: [32, 64, 128] },
  subject: 'scale request',
  slow: true,
  validate: withHttpIssues((body) => validate(scaleRequestSchema, body), scaleLimits),
  run(request) {
    if (request.nodes.length > HTTP_MAX_SCALE_SIZES) {
      return { overBudget: {
        detail: `${request.nodes.length} cluster sizes are over the API's limit of ${HTTP_MAX_SCALE_SIZES} per request (each size is one search)`,
        limit: { limit: 'nodes', max: HTTP_MAX_SCALE_SIZES, requested: request.nodes.length },
      } };
    }
    return { answer: runScale(request, options) };
  },
});

export const inferenceOperation = operation<InferenceRequest>({
  path: '/v1/inference',
  operationId: 'inference',
  summary: 'Serving a model: latency, KV cache, batch and throughput per tensor/pipeline choice',
  description: 'Prefill and decode time, KV-cache memory and the largest batch within the latency bounds, per TP × PP shape. '
    + 'ok: true answers any valid request, each shape\'s result in byShape; where no plan serves it, best is absent and unservable '
    + '(no shape holds the model) or closest (the plan nearest the bounds) says why, and remedy what to change for one: check best, not ok, for a plan. '
    + INVALID_REASON_TEXT,
  requestSchema: inferenceRequestJsonSchema,
  responseSchema: inferenceResponseJsonSchema,
  example: { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512 },
  subject: 'inference request',
  slow: true,
  validate: (body) => validate(inferenceRequestSchema, body),
  // With its remedy where there is no plan, as the CLI's stderr says it (the protocol's runInferenceWithRemedy).
  run: (request) => ({ answer: runInferenceWithRemedy(request) }),
});
