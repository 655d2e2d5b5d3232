import { batchAsSequencesWarning, plannedBatch, type FieldIssue, type NodesRequest, type NodesResponseJson } from '@trainplan/protocol';

/**
 * What POST /v1/nodes adds to protocol's answer (documented in /openapi.json by nodes-schemas.ts): the uptime its days
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
export function withNodesExtensions<A extends NodesResponseJson>(request: NodesRequest, batchGiven: boolean, answer: A): A & NodesExtensions {
  if (!answer.ok && answer.reason === 'invalid') return answer;
  const planned = batchGiven ? plannedBatch(answer) : undefined;
  const warning = planned && batchAsSequencesWarning(planned);
  return { ...answer, uptime: request.uptime ?? 1, ...(warning !== undefined && { warnings: [warning] }) };
}

/**
 * The schema's refusal of uptime with what the field is: "expected a number > 0 and ≤ 1, got 90" alone does not say
 * that 90% is 0.9.
 */
export function withUptimeHint(issues: FieldIssue[]): FieldIssue[] {
  return issues.map((i) => (i.path === 'uptime'
    ? { ...i, message: `${i.message} (uptime is the share of wall-clock time spent training, above 0 and at most 1: 0.9 for 90%, Meta's figure for Llama 3)` }
    : i));
}
