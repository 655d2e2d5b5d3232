/** The two entry points of the toolkit: validate an `unknown` value, and publish a JSON Schema document. */
import { createContext, formatPath, report } from './context.ts';
import type { Checked, JsonSchema, Limits, Path, Schema } from './types.ts';

export interface Issue {
  /** JSON path of the offending value: `parallelism.tensor`, `[2].cluster.gpu`; '' is the whole input. */
  path: string;
  message: string;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

export interface ValidateOptions {
  limits?: Partial<Limits>;
  /** Where the value sits in a larger document; issue paths start with it (`[3]` for the 4th scenario). */
  at?: Path;
}

/**
 * Validates `value` against `schema`, reporting every issue (up to `limits.maxIssues`, then a count).
 * Never throws: a value that throws while being read (a hostile getter or a revoked Proxy, which
 * cannot come from JSON but can from a caller) becomes an issue like any other.
 */
export function validate<T>(schema: Schema<T>, value: unknown, options: ValidateOptions = {}): Validation<T> {
  const ctx = createContext(options.limits);
  const at = options.at ?? [];
  let checked: Checked<T> = { ok: false };
  try {
    checked = schema.check(value, at, ctx);
  } catch {
    report(ctx, at, 'could not be read: the value threw while being inspected');
  }
  // The count names the value validated (`[3]` for the 4th scenario), not the root of a larger document.
  if (ctx.dropped > 0) ctx.issues.push({ path: formatPath(at), message: `${ctx.dropped} more issues not shown` });
  if (checked.ok && ctx.issues.length === 0) return { ok: true, value: checked.value };
  return { ok: false, issues: ctx.issues };
}

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** A standalone JSON Schema 2020-12 document for `schema`, as OpenAPI 3.1 embeds it. */
export function jsonSchemaDocument(schema: Schema<unknown>, meta: { id?: string; title?: string } = {}): JsonSchema {
  return {
    $schema: JSON_SCHEMA_DIALECT,
    ...(meta.id !== undefined && { $id: meta.id }),
    ...(meta.title !== undefined && { title: meta.title }),
    ...schema.toJsonSchema(),
  };
}
