import { validateScenarios, type FieldIssue, type JsonSchema, type ResolvedScenarioInput } from '@trainplan/protocol';

/** A refusal of a well-formed request that would exceed a work budget; the limit is named. */
export interface OverBudget {
  detail: string;
  /** e.g. `{ limit: 'candidateBudget', max: 20000, requested: 50000 }`. */
  limit: Record<string, unknown>;
}

/**
 * One POST endpoint as data: how its body is validated, what runs, and the JSON Schemas that
 * /openapi.json publishes. The request schema is the one `validate` checks against (both come from
 * protocol's toolkit), so the document and the validator cannot drift apart; at most the API's work
 * limits narrow it (http-limits.ts), which `run` refuses with a 422.
 */
export interface PostOperation<T = unknown> {
  readonly path: `/v1/${string}`;
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly requestSchema: JsonSchema;
  readonly responseSchema: JsonSchema;
  readonly example: unknown;
  /**
   * What the body is, for the 400's title and detail ("Invalid collective request"); default
   * "scenario" (the contract's scenario, POST /v1/estimate and /v1/memory).
   */
  readonly subject?: string;
  validate(body: unknown): { ok: true; value: T } | { ok: false; issues: FieldIssue[] };
  /** The answer (200, ok true or false), or a refusal (422). Never throws for a validated value. */
  run(value: T): { answer: unknown } | { overBudget: OverBudget };
}

/** Erases the value type so operations of different requests sit in one list. */
export const operation = <T>(op: PostOperation<T>): PostOperation => op as PostOperation;

/** One scenario or an array of them (POST /v1/estimate and /v1/memory): the values, and whether to answer with an array. */
export type Scenarios = { array: boolean; values: ResolvedScenarioInput[] };

export function validateScenarioBody(body: unknown): { ok: true; value: Scenarios } | { ok: false; issues: FieldIssue[] } {
  const v = validateScenarios(body);
  return v.ok ? { ok: true, value: { array: v.array, values: v.values } } : { ok: false, issues: v.issues };
}
