import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import {
  collectiveResponseJsonSchema, inferenceResponseJsonSchema, scaleResponseJsonSchema,
  searchResponseJsonSchema, validateCollectiveResponse, validateInferenceResponse, validateNodesResponse,
  validateScaleResponse, validateSearchResponse, type JsonSchema,
} from '@trainplan/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../src/index.ts';
import { nodesHttpResponseJsonSchema } from '../src/operations/nodes-schemas.ts';
import { RESPONSE_CASES, type ResponseCase } from './response-requests.ts';

// Real answers of each endpoint held to the response schema /openapi.json publishes, two ways: the
// toolkit's own validator, and Ajv (an independent JSON Schema 2020-12 implementation) reading the
// published document. Every field an answer carries must be documented, so neither the code nor
// the schema can move without the other.

type Path = ResponseCase['path'];
type Json = Record<string, unknown>;

const TOOLKIT: Record<Path, { jsonSchema: JsonSchema; validate: (value: unknown) => { ok: boolean } }> = {
  '/v1/collective': { jsonSchema: collectiveResponseJsonSchema, validate: validateCollectiveResponse },
  '/v1/search': { jsonSchema: searchResponseJsonSchema, validate: validateSearchResponse },
  // The toolkit's, with the API's one extension beside it (assumedGlobalBatch, where the request omitted the batch: nodes-schemas.ts).
  '/v1/nodes': { jsonSchema: nodesHttpResponseJsonSchema, validate: validateNodesResponse },
  '/v1/scale': { jsonSchema: scaleResponseJsonSchema, validate: validateScaleResponse },
  '/v1/inference': { jsonSchema: inferenceResponseJsonSchema, validate: validateInferenceResponse },
};
const PATHS = Object.keys(TOOLKIT) as Path[];

const app = createApi();
let document: { paths: Record<string, { post: { responses: Record<string, { content: Record<string, { schema: JsonSchema }> }> } }> };
const ajvValidators = new Map<Path, ValidateFunction>();
const answers = new Map<string, { status: number; body: Json }>();

const published = (path: Path, type = 'application/json'): JsonSchema => document.paths[path]!.post.responses['200']!.content[type]!.schema;

beforeAll(async () => {
  document = await (await app.request('/openapi.json')).json() as typeof document;
  // Unknown keywords are errors (strictSchema). Ajv's style rules strictRequired and strictTypes stay
  // off: the scenario's `oneOf: [{ required: ['nodes'] }, …]` and `if/then` refinements name
  // properties and bounds declared beside them, which is valid JSON Schema that those rules flag.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false });
  for (const path of PATHS) ajvValidators.set(path, ajv.compile(published(path)));
  for (const c of RESPONSE_CASES) {
    const res = await app.request(c.path, { method: 'POST', body: JSON.stringify(c.body), headers: { 'content-type': 'application/json' } });
    answers.set(`${c.path} ${c.name}`, { status: res.status, body: await res.json() as Json });
  }
}, 60_000);

const answerOf = (c: ResponseCase) => answers.get(`${c.path} ${c.name}`)!;
const dig = (value: unknown, dotted: string): unknown =>
  dotted.split('.').reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Json)[key] : undefined), value);

/**
 * Paths of the fields in `value` that `schema` does not document: walks the JSON Schema beside the
 * value (properties, items, and for oneOf the branch whose const fields match, else the closest).
 */
function undocumented(value: unknown, schema: JsonSchema, at = ''): string[] {
  if (Array.isArray(value)) return schema.items ? value.flatMap((item, i) => undocumented(item, schema.items!, `${at}[${i}]`)) : [];
  if (value === null || typeof value !== 'object') return [];
  const object = value as Json;
  if (schema.properties) {
    return Object.entries(object).flatMap(([key, field]) => {
      const property = schema.properties![key];
      return property === undefined ? [`${at}.${key}`] : undocumented(field, property, `${at}.${key}`);
    });
  }
  if (schema.oneOf) {
    const matching = schema.oneOf.filter((branch) => Object.entries(branch.properties ?? {})
      .every(([key, property]) => property.const === undefined || object[key] === property.const));
    const results = (matching.length > 0 ? matching : schema.oneOf).map((branch) => undocumented(value, branch, at));
    return results.reduce((best, r) => (r.length < best.length ? r : best));
  }
  return [];
}

describe('/openapi.json documents each answer with its response schema', () => {
  it.each(PATHS)('%s: the 200 answer is the toolkit schema, in JSON and MessagePack, ok true or ok false', (path) => {
    const { $schema: _dialect, $id: _id, ...embedded } = TOOLKIT[path].jsonSchema;
    expect(published(path)).toEqual(embedded);
    expect(published(path, 'application/msgpack')).toEqual(embedded);
    // Branches told apart by `ok`, each an object that lists its fields; where ok: false has more than one
    // branch (/v1/scale: an invalid request, and a sweep where no size runs), each has its own reason, a constant.
    const branches = published(path).oneOf ?? [];
    const [okBranch, ...failures] = branches;
    expect(okBranch?.properties?.ok?.const).toBe(true);
    expect(failures.map((b) => b.properties?.ok?.const)).toEqual(failures.map(() => false));
    expect(failures.length).toBe(path === '/v1/scale' ? 2 : 1);
    if (failures.length > 1) {
      const reasons = failures.map((b) => b.properties?.reason?.const);
      expect(new Set(reasons).size, JSON.stringify(reasons)).toBe(failures.length);
      for (const r of reasons) expect(typeof r).toBe('string');
    }
    for (const branch of branches) expect(Object.keys(branch.properties ?? {}).length).toBeGreaterThan(3);
  });
});

describe('real answers validate against the published response schemas', () => {
  it('the cases cover every endpoint, each with feasible and ok: false answers', () => {
    for (const path of PATHS) {
      const cases = RESPONSE_CASES.filter((c) => c.path === path);
      expect(cases.some((c) => c.expect.ok), path).toBe(true);
      expect(cases.some((c) => !c.expect.ok), path).toBe(true);
    }
  });

  it.each(RESPONSE_CASES.map((c) => [c.path, c.name, c] as const))('%s, %s: a 200 answer as expected', (_, __, c) => {
    const { status, body } = answerOf(c);
    expect(status).toBe(200);
    expect(body.ok).toBe(c.expect.ok);
    if (!c.expect.ok) expect(body.reason).toBe(c.expect.reason);
    for (const part of c.shows ?? []) expect(dig(body, part), part).toBeDefined();
  });

  it.each(RESPONSE_CASES.map((c) => [c.path, c.name, c] as const))('%s, %s: valid for the toolkit and for Ajv', (path, _, c) => {
    const { body } = answerOf(c);
    expect(TOOLKIT[path].validate(body)).toEqual(expect.objectContaining({ ok: true }));
    const ajv = ajvValidators.get(path)!;
    expect(ajv(body), JSON.stringify(ajv.errors?.slice(0, 3))).toBe(true);
  });

  it.each(RESPONSE_CASES.map((c) => [c.path, c.name, c] as const))('%s, %s: every field it carries is documented', (path, _, c) => {
    expect(undocumented(answerOf(c).body, published(path))).toEqual([]);
  });
});

describe('the response schemas are not vacuous', () => {
  const find = (path: Path, name: string) => answerOf(RESPONSE_CASES.find((c) => c.path === path && c.name === name)!).body;
  const clone = <T>(value: T): T => structuredClone(value);
  // Each breaks one promise of the wire type; both validators must refuse it.
  const BROKEN: [string, Path, () => unknown][] = [
    ['a row whose seconds is a string', '/v1/collective', () => {
      const a = clone(find('/v1/collective', 'closed form, two sizes')) as { rows: Json[] };
      a.rows[0]!.seconds = 'fast';
      return a;
    }],
    ['a failure with a reason not in the list', '/v1/collective', () => ({ ...find('/v1/collective', 'an unknown GPU'), reason: 'tired' })],
    ['a best plan without its estimate', '/v1/search', () => {
      const a = clone(find('/v1/search', 'GPT-3 on 128 nodes, top 3')) as { best: Json };
      delete a.best.estimate;
      return a;
    }],
    ["a plan's scenario that POST /v1/estimate would refuse", '/v1/search', () => {
      const a = clone(find('/v1/search', 'GPT-3 on 128 nodes, top 3')) as { top: { scenario: { parallelism: Json } }[] };
      a.top[0]!.scenario.parallelism.tensor = 0;
      return a;
    }],
    ['a configuration with a negative day count', '/v1/nodes', () => ({ ...find('/v1/nodes', 'fewest nodes for 300B tokens in 30 days'), days: -1 })],
    ['a scale answer in an unknown mode', '/v1/scale', () => ({ ...find('/v1/scale', 'strong scaling over three sizes'), mode: 'sideways' })],
    ['an inference point without its KV cache', '/v1/inference', () => {
      const a = clone(find('/v1/inference', 'Llama 3 70B on H100')) as { frontier: Json[] };
      delete a.frontier[0]!.kvCacheBytesPerGpu;
      return a;
    }],
  ];
  it.each(BROKEN)('%s is refused by the toolkit and by Ajv (%s)', (_, path, broken) => {
    const value = broken();
    expect(TOOLKIT[path].validate(value).ok).toBe(false);
    expect(ajvValidators.get(path)!(value)).toBe(false);
  });

  it('a field the schema does not list is reported as undocumented', () => {
    const answer = { ...find('/v1/scale', 'strong scaling over three sizes'), surprise: 1 };
    expect(undocumented(answer, published('/v1/scale'))).toEqual(['.surprise']);
  });
});
