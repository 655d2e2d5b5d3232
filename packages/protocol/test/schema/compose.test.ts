import { describe, expect, it } from 'vitest';
import { array, integer, literal, map, object, string, union, validate } from '../../src/index.ts';

describe('array', () => {
  const sizes = array(integer({ min: 1 }), { minItems: 1, maxItems: 3 });

  it('reports each bad item at its index', () => {
    expect(validate(sizes, [1, 0, 'x'])).toEqual({
      ok: false,
      issues: [
        { path: '[1]', message: 'expected an integer ≥ 1, got 0' },
        { path: '[2]', message: 'expected an integer ≥ 1, got "x"' },
      ],
    });
  });

  it.each([
    [[], 'expected an array of 1 to 3 items, got 0 items'],
    [[1, 2, 3, 4], 'expected an array of 1 to 3 items, got 4 items'],
    [{ length: 1 }, 'expected an array of 1 to 3 items, got an object'],
  ])('refuses %j as a whole', (value, message) => {
    expect(validate(sizes, value)).toEqual({ ok: false, issues: [{ path: '', message }] });
  });

  it('caps arrays at 1024 items unless told otherwise, without looking at the items', () => {
    const huge = Array.from({ length: 5000 }, () => 'not a number');
    expect(validate(array(integer()), huge)).toEqual({ ok: false, issues: [{ path: '', message: 'expected an array of at most 1,024 items, got 5,000 items' }] });
    expect(array(integer()).toJsonSchema()).toEqual({ type: 'array', items: { type: 'integer' }, maxItems: 1024 });
  });

  it('nests paths: [2].cluster.gpu', () => {
    const list = array(object({ cluster: object({ gpu: string() }) }));
    const ok = { cluster: { gpu: 'a' } };
    expect(validate(list, [ok, ok, { cluster: { gpu: 1 } }])).toMatchObject({ ok: false, issues: [{ path: '[2].cluster.gpu' }] });
  });
});

describe('union', () => {
  const model = union([string({ minLength: 1 }), object({ layers: integer({ min: 1 }) })], { expected: 'an id or a shape' });

  it('picks the branch by JSON type and reports that branch\'s issues only', () => {
    expect(validate(model, 'gpt3')).toEqual({ ok: true, value: 'gpt3' });
    expect(validate(model, { layers: 0 })).toEqual({ ok: false, issues: [{ path: 'layers', message: 'expected an integer ≥ 1, got 0' }] });
    expect(validate(model, '')).toMatchObject({ ok: false, issues: [{ message: expect.stringContaining('non-empty string') }] });
  });

  it('names every branch when none fits', () => {
    expect(validate(model, 5)).toEqual({ ok: false, issues: [{ path: '', message: 'expected an id or a shape, got 5' }] });
  });

  it('picks an object branch by its literal fields', () => {
    const answer = union([object({ ok: literal(true), n: integer() }), object({ ok: literal(false), why: string() })]);
    expect(validate(answer, { ok: false, why: 'x' })).toEqual({ ok: true, value: { ok: false, why: 'x' } });
    expect(validate(answer, { ok: false, n: 1 })).toMatchObject({ ok: false, issues: [{ path: 'why' }, { path: 'n' }] });
  });

  it('publishes oneOf', () => {
    expect(model.toJsonSchema().oneOf).toHaveLength(2);
  });
});

describe('map', () => {
  it('transforms a valid value and keeps the inner JSON Schema', () => {
    const doubled = map(integer({ min: 0 }), (n) => n * 2);
    expect(validate(doubled, 4)).toEqual({ ok: true, value: 8 });
    expect(validate(doubled, -1).ok).toBe(false);
    expect(doubled.toJsonSchema()).toEqual({ type: 'integer', minimum: 0 });
  });
});
