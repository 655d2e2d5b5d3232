import { describe, expect, it } from 'vitest';
import {
  JSON_SCHEMA_DIALECT, MAX_SCENARIOS, scenarioJsonSchema, scenariosJsonSchema, validateScenario, validateScenarios,
  type JsonSchema,
} from '../src/index.ts';
import { checkJsonSchema, subschemas } from './support/json-schema-check.ts';
import { badScenarios, goodScenarios, minimalScenario } from './support/scenarios.ts';

const property = (schema: JsonSchema, ...keys: string[]): JsonSchema =>
  keys.reduce<JsonSchema>((at, key) => at.properties?.[key] ?? {}, schema);
const modelObject = scenarioJsonSchema.properties?.model?.oneOf?.[1] ?? {};

describe('the scenario JSON Schema', () => {
  it('is a JSON Schema 2020-12 document for an object', () => {
    expect(scenarioJsonSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(JSON_SCHEMA_DIALECT).toBe(scenarioJsonSchema.$schema);
    expect(scenarioJsonSchema.type).toBe('object');
    expect(scenarioJsonSchema.$id).toMatch(/^https:\/\//);
  });

  it.each<[string, JsonSchema, string[]]>([
    ['the scenario', scenarioJsonSchema, ['model', 'cluster', 'training']],
    ['a model object', modelObject, ['layers', 'hiddenSize', 'attentionHeads', 'vocabSize', 'seqLength']],
    ['cluster', property(scenarioJsonSchema, 'cluster'), ['gpu']],
    ['training', property(scenarioJsonSchema, 'training'), ['globalBatchSize']],
  ])('%s requires exactly the contract\'s required fields', (_, schema, required) => {
    expect(schema.required).toEqual(required);
  });

  it('parallelism requires nothing and defaults to {}', () => {
    const parallelism = property(scenarioJsonSchema, 'parallelism');
    expect(parallelism.required).toBeUndefined();
    expect(parallelism.default).toEqual({});
  });

  it('a model is a preset id or a model object (oneOf)', () => {
    expect(property(scenarioJsonSchema, 'model').oneOf?.map((s) => s.type)).toEqual(['string', 'object']);
  });

  it.each([
    [['training', 'microBatchSize'], 1],
    [['parallelism', 'tensor'], 1],
    [['parallelism', 'recompute'], 'none'],
    [['parallelism', 'distributedOptimizer'], false],
  ])('states the default of %j as %j', (keys, value) => {
    expect(property(scenarioJsonSchema, ...keys).default).toEqual(value);
  });

  // A default that follows the GPU (bf16, fp16 on a V100) is stated in words, not as a `default` a tool would send.
  it.each([['training', 'precision'], ['training', 'attentionKernel']])('states no single default for %s, %s', (...keys) => {
    const field = property(scenarioJsonSchema, ...keys);
    expect(field.default).toBeUndefined();
    expect(field.description).toMatch(/V100/);
  });

  it('states the cross-field rules: exactly one of nodes and gpus', () => {
    expect(property(scenarioJsonSchema, 'cluster').oneOf).toEqual([{ required: ['nodes'] }, { required: ['gpus'] }]);
  });

  it('every object refuses unknown keys and every field carries a description', () => {
    for (const [path, schema] of subschemas(scenarioJsonSchema)) {
      if (schema.type === 'object') expect(schema.additionalProperties, path).toBe(false);
      for (const [key, field] of Object.entries(schema.properties ?? {})) expect(field.description, `${path}/${key}`).toBeTruthy();
    }
  });

  it('every string and array has a maximum size (the hostile-input guards are published)', () => {
    for (const [path, schema] of subschemas(scenariosJsonSchema)) {
      if (schema.type === 'string' && schema.enum === undefined) expect(schema.maxLength, path).toBeGreaterThan(0);
      if (schema.type === 'array') expect(schema.maxItems, path).toBe(MAX_SCENARIOS);
    }
  });

  it('survives a JSON round trip unchanged (it is plain data)', () => {
    expect(JSON.parse(JSON.stringify(scenarioJsonSchema))).toEqual(scenarioJsonSchema);
  });
});

describe('the JSON Schema and the validator agree', () => {
  it.each(goodScenarios)('both accept %s', (_, scenario) => {
    expect(checkJsonSchema(scenarioJsonSchema, scenario)).toEqual([]);
    expect(validateScenario(scenario).ok).toBe(true);
  });

  it.each(badScenarios)('both refuse %s', (_, scenario) => {
    expect(checkJsonSchema(scenarioJsonSchema, scenario)).not.toEqual([]);
    expect(validateScenario(scenario).ok).toBe(false);
  });

  it.each([
    ['one scenario', minimalScenario, true],
    ['an array of two', [minimalScenario, minimalScenario], true],
    ['an empty array', [], false],
    [`an array of ${MAX_SCENARIOS + 1}`, Array.from({ length: MAX_SCENARIOS + 1 }, () => minimalScenario), false],
    ['an array holding a number', [minimalScenario, 3], false],
    ['a number', 3, false],
  ])('on the request body: %s is %s for both', (_, body, ok) => {
    expect(checkJsonSchema(scenariosJsonSchema, body).length === 0).toBe(ok);
    expect(validateScenarios(body).ok).toBe(ok);
  });
});
