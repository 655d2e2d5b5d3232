/**
 * The shared shape of every schema in the toolkit. One definition answers two questions:
 * "is this `unknown` JSON a valid T, and if not, what is wrong and where?" (`check`) and
 * "what is the JSON Schema 2020-12 for it?" (`toJsonSchema`), so the validator and the
 * published OpenAPI document cannot drift apart.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The subset of JSON Schema 2020-12 that the toolkit emits. */
export interface JsonSchema {
  $schema?: string;
  $id?: string;
  title?: string;
  description?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  enum?: readonly (string | number)[];
  const?: string | number | boolean;
  default?: JsonValue;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  not?: JsonSchema;
  if?: JsonSchema;
  then?: JsonSchema;
}

/** A path into the input: object keys and array indices, formatted by `formatPath`. */
export type PathSegment = string | number;
export type Path = readonly PathSegment[];

/** The outcome of one check; the issues themselves are collected in the context. */
export type Checked<T> = { ok: true; value: T } | { ok: false };

/** Limits that keep a hostile input from costing more than a linear walk. */
export interface Limits {
  /** Containers nested deeper than this are reported, not entered. */
  maxDepth: number;
  /** Issues beyond this many are counted, not kept. */
  maxIssues: number;
}

/** Mutable state of one validation run. */
export interface Context {
  readonly limits: Limits;
  readonly issues: { path: string; message: string }[];
  /** Issues that did not fit under `limits.maxIssues`. */
  dropped: number;
  depth: number;
}

/**
 * How an object treats a field that is absent: 'required' reports it, 'optional' leaves it out,
 * 'default' validates the default in its place (so the output always has it).
 */
export type Presence = 'required' | 'optional' | 'default';

export interface Schema<T> {
  /** What a valid value is, for messages: "an integer ≥ 1", "one of fp16, bf16, fp8". */
  readonly expected: string;
  readonly presence: Presence;
  /** The JSON default when presence is 'default'. */
  readonly defaultValue?: JsonValue;
  /** Set by `literal`: the one value allowed; `object` treats such fields as discriminators. */
  readonly constant?: string | number | boolean;
  /** Whether the value has this schema's JSON type; `union` uses it to pick a branch. */
  accepts(value: unknown): boolean;
  check(value: unknown, at: Path, ctx: Context): Checked<T>;
  toJsonSchema(): JsonSchema;
}

/** The validated type of a schema. */
export type Infer<S> = S extends Schema<infer T> ? T : never;

/** Options every combinator takes. */
export interface BaseOptions {
  description?: string;
  /** Overrides the generated "expected …" phrase in messages. */
  expected?: string;
}
