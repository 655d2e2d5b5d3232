import {
  collectiveRequestJsonSchema, collectiveResponseJsonSchema, MAX_EMULATED_NODE_SIZES, runCollective,
  validateCollectiveRequest, type CollectiveRequest,
} from '@trainplan/protocol';
import { withHttpIssues, withHttpLimits, type HttpLimit } from './http-limits.ts';
import { INVALID_REASON_TEXT } from './invalid-reason.ts';
import { operation } from './operation.ts';

/**
 * The most emulator events one HTTP request may spend. The emulator runs at ≥ 2 M events/s on one
 * core (packages/collectives DEFAULT_EVENT_BUDGET's comment), so this is about a second of CPU: well
 * inside a Worker's CPU limit (30 s by default on the Standard plan), unlike the library's default of
 * 10 M. A request without eventBudget gets this one; a request asking for more is refused (422).
 */
export const HTTP_MAX_EVENT_BUDGET = 2_000_000;

/** The most (nodes × sizes) one HTTP request may emulate: protocol's limit (emulation-limit.ts), shared with the CLI. */
export const HTTP_MAX_EMULATED_NODE_SIZES = MAX_EMULATED_NODE_SIZES;

const limits: Record<string, HttpLimit> = { eventBudget: { maximum: HTTP_MAX_EVENT_BUDGET } };

export const collectiveOperation = operation<CollectiveRequest>({
  path: '/v1/collective',
  operationId: 'collective',
  summary: 'Cost a collective (NCCL closed form), optionally emulated on the topology graph',
  description: 'nccl-tests-like rows (bytes, seconds, algbw, busbw, algorithm, protocol) for one size, a list, or the '
    + `default sweep; emulate: true adds the bottleneck link and per-link utilisation. Emulation over HTTP is capped at `
    + `${HTTP_MAX_EVENT_BUDGET} events and ${HTTP_MAX_EMULATED_NODE_SIZES} node-sizes (nodes × sizes emulated); past either the `
    + `request is refused (422) naming the limit. ${INVALID_REASON_TEXT}`,
  requestSchema: withHttpLimits(collectiveRequestJsonSchema, limits),
  responseSchema: collectiveResponseJsonSchema,
  example: { op: 'all-reduce', gpu: 'h100-sxm', nodes: 2, sizes: [1048576, 1073741824] },
  subject: 'collective request',
  slow: true,
  validate: withHttpIssues(validateCollectiveRequest, limits),
  run(request) {
    if (request.eventBudget !== undefined && request.eventBudget > HTTP_MAX_EVENT_BUDGET) {
      return { overBudget: {
        detail: `eventBudget ${request.eventBudget} is over the API's limit of ${HTTP_MAX_EVENT_BUDGET} emulator events per request`,
        limit: { limit: 'eventBudget', max: HTTP_MAX_EVENT_BUDGET, requested: request.eventBudget },
      } };
    }
    // The API's cap applies to an emulation only; a closed-form request is passed as sent (its notes name what it sent).
    const answer = runCollective(request.emulate === true ? { ...request, eventBudget: request.eventBudget ?? HTTP_MAX_EVENT_BUDGET } : request);
    if (!answer.ok && answer.reason === 'event-budget') {
      // An emulation's need is known only as a lower bound (protocol's CollectiveLimitJson): `requested` is then
      // what it needs at least, and the problem says so, as the detail does in words.
      const lowerBound = answer.limit?.requestedIsLowerBound === true;
      return { overBudget: {
        detail: answer.message,
        limit: {
          limit: answer.limit?.name ?? 'eventBudget', max: answer.limit?.value ?? HTTP_MAX_EVENT_BUDGET, requested: answer.limit?.requested,
          ...(lowerBound && { requestedIsLowerBound: true }),
        },
      } };
    }
    return { answer };
  },
});
