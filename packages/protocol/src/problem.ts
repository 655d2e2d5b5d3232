/**
 * Invalid input as an RFC 9457 problem document (`application/problem+json`), the body of a 400
 * from the HTTP API. The `issues` member is an extension RFC 9457 §3.2 allows.
 */
import type { FieldIssue } from './wire.ts';

export const INVALID_SCENARIO_PROBLEM_TYPE = 'https://trainplan.dev/problems/invalid-scenario';
/** The problem type of a 400 whose body is another request than a scenario (a collective, search, nodes… request). */
export const INVALID_REQUEST_PROBLEM_TYPE = 'https://trainplan.dev/problems/invalid-request';
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

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

/** How many issues `detail` spells out; the full list is in `issues`. */
const ISSUES_IN_DETAIL = 3;

/** `parallelism.tensor: expected an integer ≥ 1, got 0`; an issue about the whole input has no path. */
export function formatIssue(issue: FieldIssue): string {
  return issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`;
}

/** The first few issues on one line, `a: …; b: … (and 2 more)`: the `message` of every invalid answer. */
export function issuesMessage(issues: readonly FieldIssue[]): string {
  const more = issues.length - ISSUES_IN_DETAIL;
  return issues.slice(0, ISSUES_IN_DETAIL).map(formatIssue).join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}

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
