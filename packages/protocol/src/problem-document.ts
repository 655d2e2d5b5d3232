/**
 * trainplan's problem documents (RFC 9457, `application/problem+json`): the table of the problem types of its own, and
 * the document of an invalid input, the body of a 400 from the HTTP API (its `issues` member an extension §3.2 allows).
 *
 * One table holds the types: the `type` URI each problem carries (the constants below, apps/api's problems.ts) and the
 * page the API serves at that URI's path (apps/api's GET /problems/{name}, listed on /docs) are both made from it. A
 * dereferenceable type "SHOULD" lead a reader to "human-readable documentation for the problem type" (§3.1.1); the URIs
 * stay as published, since a client may match them (the type is "the primary identifier", §3.1.1). Other problems are
 * `about:blank`, titled with their status's reason phrase (§4.2.1).
 */
import { formatIssue, issuesMessage, ISSUES_IN_DETAIL } from './problem.ts';
import type { FieldIssue } from './wire.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** What the URI of every problem type of ours begins with; the API serves each at `/problems/` + its name. */
export const PROBLEM_TYPE_BASE = 'https://trainplan.dev/problems/';

/** A problem type's page: its title, the status it comes with, what it means, and what to do about it. */
export interface ProblemTypeDoc {
  readonly title: string;
  readonly status: number;
  readonly means: string;
  readonly todo: string;
}

export const PROBLEM_TYPES = {
  'invalid-scenario': {
    title: 'Invalid scenario',
    status: 400,
    means: 'The body of POST /v1/estimate or /v1/memory is not a scenario the API can read: not JSON or MessagePack, '
      + 'not an object, a field missing, of the wrong type or out of range, or a key the schema does not have (or an array '
      + 'empty or of over 1,024 scenarios). The body\'s issues list each offending field by its JSON path '
      + '("parallelism.tensor") with what was expected; detail and message say the first three. In an array, a malformed '
      + 'scenario is answered in its slot (ok: false, reason "invalid", its issues at "[2].cluster.nodes"), beside the others.',
    todo: 'Fix each field the issues name and send the request again. The scenario\'s schema and an example are in '
      + '/openapi.json (and to try on /docs). A scenario that reads is not refused this way: an unknown preset id (GET '
      + '/v1/presets lists them), a plan that does not fit or does not divide, is a 200 whose answer is ok: false, with '
      + 'its reason.',
  },
  'invalid-request': {
    title: 'Invalid request',
    status: 400,
    means: 'The body of another POST (/v1/search, /v1/nodes, /v1/scale, /v1/inference, /v1/collective) is not a '
      + 'request of its kind the API can read; the problem\'s title names the kind ("Invalid search request"). As for a '
      + 'scenario, the issues list each offending field by its JSON path, with what was expected.',
    todo: 'Fix each field the issues name and send the request again. Each operation\'s request schema, with the '
      + 'API\'s limits laid over it, and an example are in /openapi.json (and to try on /docs).',
  },
  'over-budget': {
    title: 'Over budget',
    status: 422,
    means: 'The request reads, but answering it would take more work than this API spends on one request: a search\'s '
      + 'candidateBudget, the cluster sizes of a scale request, a collective\'s emulator events, the GPUs under the '
      + 'emulated communication model, or the pipeline stages asked for. The detail names the limit; the body\'s limit, '
      + 'max and requested members say which it is, its value, and what the request asked.',
    todo: 'Ask for less (a smaller budget, fewer sizes or stages), or split the work over several requests. The CLI '
      + 'runs the same model without these limits (trainplan search, trainplan estimate --emulate).',
  },
} as const satisfies Readonly<Record<string, ProblemTypeDoc>>;

export type ProblemTypeName = keyof typeof PROBLEM_TYPES;

// The calls below are marked pure: the widget, which imports the protocol but none of these, leaves them and the table
// out of its bundle (esbuild keeps a top-level call it cannot tell is free of side effects).

/** The names in the table's order. */
export const PROBLEM_TYPE_NAMES = /* @__PURE__ */ Object.keys(PROBLEM_TYPES) as ProblemTypeName[];

/** The `type` URI of a problem type of ours: `https://trainplan.dev/problems/invalid-scenario`. */
export const problemTypeUri = (name: ProblemTypeName): string => `${PROBLEM_TYPE_BASE}${name}`;

export const INVALID_SCENARIO_PROBLEM_TYPE = /* @__PURE__ */ problemTypeUri('invalid-scenario');
/** The problem type of a 400 whose body is another request than a scenario (a collective, search, nodes… request). */
export const INVALID_REQUEST_PROBLEM_TYPE = /* @__PURE__ */ problemTypeUri('invalid-request');
/** The problem type of a 422: a well-formed request past one of the API's work limits. */
export const OVER_BUDGET_PROBLEM_TYPE = /* @__PURE__ */ problemTypeUri('over-budget');

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  issues: FieldIssue[];
  /**
   * The scenario contract's invalid answer (`{ ok: false, reason: "invalid", message }`) beside RFC 9457's members, so a
   * tool that reads the body as the contract says sees the same answer the CLI prints and an array's slot holds (QA: a
   * single invalid scenario's 400 had none of the contract's fields).
   */
  ok: false;
  reason: 'invalid';
  message: string;
}

/** An invalid input's problem document: titled for what the input is ("Invalid scenario", "Invalid search request"). */
export function problemDetails(issues: FieldIssue[], status = 400, subject = 'scenario'): ProblemDetails {
  const shown = issues.slice(0, ISSUES_IN_DETAIL).map(formatIssue).join('; ');
  const more = issues.length - ISSUES_IN_DETAIL;
  const detail = issues.length === 0
    ? `The ${subject} is invalid.`
    : `The ${subject} has ${issues.length === 1 ? '1 issue' : `${issues.length} issues`}: ${shown}${more > 0 ? `; and ${more} more` : ''}.`;
  return {
    type: subject === 'scenario' ? INVALID_SCENARIO_PROBLEM_TYPE : INVALID_REQUEST_PROBLEM_TYPE,
    title: `Invalid ${subject}`,
    status,
    detail,
    issues: issues.map(({ path, message }) => ({ path, message })),
    ok: false,
    reason: 'invalid',
    message: issues.length === 0 ? `invalid ${subject}` : issuesMessage(issues),
  };
}
