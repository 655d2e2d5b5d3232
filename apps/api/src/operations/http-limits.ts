import { formatGrouped } from '@trainplan/units';
import type { FieldIssue, JsonSchema } from '@trainplan/protocol';

/** The bounds an HTTP limit may lay over a property: a number's maximum, an array's length. */
export type HttpLimit = Pick<JsonSchema, 'maximum' | 'maxItems'>;

/**
 * A request schema as /openapi.json publishes it: the library's, which `validate` checks (the CLI's bounds,
 * wider: candidateBudget up to 1e8), with the API's work limits laid over its top-level properties, so a
 * client reads the bound it will meet. Past one the body is still well-formed: the API refuses it with a
 * 422 naming the limit (problems.ts overBudget), not a 400, so validation stays the library's.
 */
export function withHttpLimits(schema: JsonSchema, limits: Readonly<Record<string, HttpLimit>>): JsonSchema {
  const properties = { ...schema.properties };
  for (const [name, limit] of Object.entries(limits)) {
    const property = properties[name];
    // A programmer error (a renamed property), caught when the operations load.
    if (property === undefined) throw new Error(`${schema.title ?? 'the request schema'} has no property ${name}`);
    properties[name] = { ...property, ...limit };
  }
  return { ...schema, properties };
}

type Validated<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

/**
 * A validator whose 400 quotes the API's limits, not the library's: an issue at a limited property says the bound
 * this API publishes (QA: a non-array `nodes` was told "an array of 1 to 64 items" where /openapi.json says 16). The
 * library's messages put an array's bound as "of 1 to 64 items" and a number's as "≤ 100,000,000" or "from 1 to
 * 100,000,000" (packages/protocol/src/schema/scalars.ts); those are rewritten, and the issue says whose limit it is.
 */
export function withHttpIssues<T>(validate: (body: unknown) => Validated<T>, limits: Readonly<Record<string, HttpLimit>>): (body: unknown) => Validated<T> {
  const rewrite = (issue: FieldIssue): FieldIssue => {
    const limit = limits[issue.path];
    if (limit === undefined) return issue;
    let message = issue.message;
    if (limit.maxItems !== undefined) message = message.replace(/(array of \d[\d,]* to )\d{1,3}(?:,\d{3})*( items)/, `$1${formatGrouped(limit.maxItems)}$2`);
    if (limit.maximum !== undefined) message = message.replace(/(≤ |from \d[\d,]* to )\d{1,3}(?:,\d{3})*/, `$1${formatGrouped(limit.maximum)}`);
    return message === issue.message ? issue : { ...issue, message: `${message} (this API's limit)` };
  };
  return (body) => {
    const v = validate(body);
    return v.ok ? v : { ok: false, issues: v.issues.map(rewrite) };
  };
}

