import { batchAsSequencesWarning, plannedBatch } from './nodes-batch-warning.ts';
import type { NodesRequest } from './nodes.ts';
import type { NodesResponseJson } from './wire.ts';

/**
 * What POST /v1/nodes and `trainplan nodes --json` add to runNodes' answer (documented in the API's /openapi.json by apps/api nodes-schemas.ts): the uptime its days
 * and GPU-hours assume, always (protocol's runNodes echoes it only where the request gave one), and a warning where the
 * batch given reads as a token count typed as sequences (QA: `globalBatchSize: 4000000` meaning "4M tokens" planned
 * 123 optimizer steps of 16.4B tokens for Llama 2 7B's 2T tokens, unsaid).
 */
export interface NodesExtensions {
  /** The share of wall-clock time spent training that days, GPU-hours and costs assume: the request's, or 1. */
  uptime?: number;
  /** Advice for humans about the request: a global batch implausible as sequences (batchAsSequencesWarning). */
  warnings?: string[];
}

/**
 * `answer` with the uptime it was planned at, and the batch warning where `batchGiven` (an omitted batch takes a default,
 * which is never a token count typed as sequences). A refusal (ok false, invalid) planned nothing: it is left as it is.
 */
export function withNodesExtensions<A extends NodesResponseJson>(request: Pick<NodesRequest, 'uptime'> | Readonly<Record<string, unknown>>, batchGiven: boolean, answer: A): A & NodesExtensions {
  if (!answer.ok && answer.reason === 'invalid') return answer;
  const planned = batchGiven ? plannedBatch(answer) : undefined;
  const warning = planned && batchAsSequencesWarning(planned);
  // A request that planned was valid: its uptime, where it gave one, is a number in (0, 1] (nodesRequestSchema).
  return { ...answer, uptime: typeof request.uptime === 'number' ? request.uptime : 1, ...(warning !== undefined && { warnings: [warning] }) };
}
