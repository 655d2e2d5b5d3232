import { describe, expect, it } from 'vitest';
import {
  array, formatPath, integer, jsonSchemaDocument, object, validate, type Path, type Schema,
} from '../../src/index.ts';

describe('paths', () => {
  it.each<[Path, string]>([
    [[], ''],
    [['parallelism', 'tensor'], 'parallelism.tensor'],
    [[2, 'cluster', 'gpu'], '[2].cluster.gpu'],
    [['warnings', 0], 'warnings[0]'],
    [['a b'], '["a b"]'],
    [['x'.repeat(100)], `["${'x'.repeat(64)}…"]`],
  ])('%j is written %s', (path, text) => expect(formatPath(path)).toBe(text));
});

describe('validate', () => {
  it('prefixes every path with `at`', () => {
    expect(validate(object({ n: integer() }), { n: 'x' }, { at: [3] })).toMatchObject({ ok: false, issues: [{ path: '[3].n' }] });
  });

  it('stops keeping issues after maxIssues and says how many it dropped', () => {
    const result = validate(array(integer()), Array.from({ length: 10 }, () => 'x'), { limits: { maxIssues: 3 } });
    expect(result.ok || result.issues.map((issue) => issue.path)).toEqual(['[0]', '[1]', '[2]', '']);
    expect(result.ok || result.issues[3]?.message).toBe('7 more issues not shown');
  });

  it('says how many it dropped at the value it validated (`at`), not at the root of a larger document', () => {
    const result = validate(array(integer()), Array.from({ length: 10 }, () => 'x'), { at: [3], limits: { maxIssues: 3 } });
    expect(result.ok || result.issues.at(-1)).toEqual({ path: '[3]', message: '7 more issues not shown' });
  });

  it('refuses to nest deeper than 32 levels, even in a schema that nests itself, without overflowing the stack', () => {
    // A schema 10,000 arrays deep, built in a loop, and a value as deep: only the depth guard stops the walk.
    let schema: Schema<unknown> = integer();
    let value: unknown = 1;
    for (let i = 0; i < 10_000; i++) {
      schema = array(schema);
      value = [value];
    }
    const result = validate(schema, value);
    expect(result).toEqual({ ok: false, issues: [{ path: '[0]'.repeat(32), message: 'nested deeper than 32 levels' }] });
  });

  it('never throws: a value that throws while read is an issue', () => {
    const hostile = new Proxy({}, { getOwnPropertyDescriptor: () => { throw new Error('boom'); } });
    expect(validate(object({ n: integer() }), hostile)).toEqual({
      ok: false, issues: [{ path: '', message: 'could not be read: the value threw while being inspected' }],
    });
  });
});

describe('jsonSchemaDocument', () => {
  it('adds the 2020-12 dialect, an $id and a title in front of the schema', () => {
    expect(jsonSchemaDocument(integer(), { id: 'https://example.org/n.json', title: 'N' })).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://example.org/n.json', title: 'N', type: 'integer',
    });
  });
});
