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
  run(value: T): OperationResult;
  /**
   * Which requests may take seconds of CPU (a search per cluster size, an emulation), which a runtime with threads runs
   * off the thread that serves requests (ApiOptions.runInBackground): true, every one; a function of the validated
   * value, those it names (/v1/estimate and /v1/memory: the scenarios that ask for the emulator, seconds, where the
   * closed form's estimates take µs and stay). Absent: none.
   */
  readonly slow?: true | ((value: T) => boolean);
}

/** Whether this request of `op` may take seconds (PostOperation.slow): run where the runtime runs slow work. */
export const runsSlow = (op: PostOperation, value: unknown): boolean => op.slow === true || (op.slow !== undefined && op.slow(value));

/** What an operation's run gives: the answer (200), or a refusal (422). Plain data either way. */
export type OperationResult = { answer: unknown } | { overBudget: OverBudget };

/**
 * Runs an operation's `run` elsewhere (infra/node: on a worker thread), by the operation's path and its validated
 * value (plain data); `busy` when that elsewhere has too much waiting already, or (`stopping`) is shutting down, which
 * the API answers 503.
 */
export type RunInBackground = (path: string, value: unknown) => Promise<OperationResult | { busy: { retryAfterSeconds: number; stopping?: boolean } }>;

/** Erases the value type so operations of different requests sit in one list. */
export const operation = <T>(op: PostOperation<T>): PostOperation => op as PostOperation;

/** One scenario of a request: validated, or (in an array) malformed, answered in its slot as it came. */
export type ScenarioSlot = { ok: true; value: ResolvedScenarioInput } | { ok: false; raw: unknown };

/**
 * One scenario or an array of them (POST /v1/estimate and /v1/memory): each slot, whether to answer with an array,
 * and the valid scenarios (what work limits count).
 */
export type Scenarios = { array: boolean; slots: ScenarioSlot[]; values: ResolvedScenarioInput[] };

/**
 * A body that is no scenario, or an array not of 1 to 1,024 items, is a 400. In such an array, each malformed scenario
 * is answered in its slot (ok false, reason invalid, its issues under [i]), as the contract answers an array (in order)
 * and an invalid scenario (ok false, "invalid", naming the field), and as the CLI answers the same array: one bad
 * scenario does not cost the others their answers. A single malformed scenario stays a 400 naming its fields.
 */
export function validateScenarioBody(body: unknown): { ok: true; value: Scenarios } | { ok: false; issues: FieldIssue[] } {
  const v = validateScenarios(body);
  if (v.ok) return { ok: true, value: { array: v.array, values: v.values, slots: v.values.map((value) => ({ ok: true, value })) } };
  if (!v.array || !Array.isArray(body) || body.length === 0 || v.results.length !== body.length) return { ok: false, issues: v.issues };
  const slots = v.results.map((r, i): ScenarioSlot => (r.ok ? { ok: true, value: r.value } : { ok: false, raw: body[i] }));
  return { ok: true, value: { array: true, slots, values: slots.flatMap((x) => (x.ok ? [x.value] : [])) } };
}
