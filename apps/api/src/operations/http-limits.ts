import type { JsonSchema } from '@trainplan/protocol';

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
