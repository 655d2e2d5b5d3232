import { describe, expect, it } from 'vitest';
import { boolean, integer, literal, nearest, object, optional, runInference, string, validate, withDefault, type Schema } from '../../src/index.ts';

const point = object({
  x: integer({ min: 0 }),
  label: optional(string({ maxLength: 10 })),
  visible: withDefault(boolean(), true),
});

describe('object', () => {
  it('fills defaults and leaves absent optional fields out', () => {
    expect(validate(point, { x: 1 })).toEqual({ ok: true, value: { x: 1, visible: true } });
    expect(validate(point, { x: 1, label: 'a', visible: false })).toEqual({ ok: true, value: { x: 1, label: 'a', visible: false } });
  });

  it('reports a missing required field with what it expects', () => {
    expect(validate(point, {})).toEqual({ ok: false, issues: [{ path: 'x', message: 'missing required field: expected an integer ≥ 0' }] });
  });

  it('reports every bad field and every unknown key, each at its own path', () => {
    const result = validate(point, { x: -1, label: 3, visibel: true, 'odd key': 1 });
    expect(result).toEqual({
      ok: false,
      issues: [
        { path: 'x', message: 'expected an integer ≥ 0, got -1' },
        { path: 'label', message: 'expected a string of at most 10 characters, got 3' },
        { path: 'visibel', message: 'unknown field (did you mean visible?)' },
        { path: '["odd key"]', message: 'unknown field (known fields: x, label, visible)' },
      ],
    });
  });

  it('a key that is a field one object down is hinted at its path there, before a near miss here (gpu → cluster.gpu, not gpus)', () => {
    const request = object({
      model: string(),
      gpus: optional(integer({ min: 1 })),
      cluster: object({ gpu: string(), network: optional(string()) }),
      extra: optional(object({ network: optional(string()) })),
    });
    const result = validate(request, { model: 'm', gpu: 'h100-sxm', network: 'ib', cluster: { gpu: 'h100-sxm' } });
    expect(result).toEqual({
      ok: false,
      issues: [
        { path: 'gpu', message: 'unknown field (did you mean cluster.gpu?)' },
        { path: 'network', message: 'unknown field (did you mean cluster.network or extra.network?)' },
      ],
    });
  });

  it('suggests a field by the rule CLI flags and ids go by (nearest.ts): the one a key begins, else within two edits, ties each named', () => {
    const training = object({ globalBatchSize: integer(), microBatchSize: optional(integer()), precision: optional(string()) });
    const cluster = object({ gpu: string(), gpus: optional(integer()) });
    const message = <T,>(schema: Schema<T>, key: string) => {
      const r = validate(schema, { globalBatchSize: 1, gpu: 'g', [key]: 1 });
      return r.ok ? '' : r.issues.find((i) => i.path === key)?.message;
    };
    // `global` begins globalBatchSize as `--global` begins --global-batch: the two say the same field.
    expect(nearest('global', ['global-batch', 'micro-batch', 'precision'])).toBe('global-batch');
    expect(message(training, 'global')).toBe('unknown field (did you mean globalBatchSize?)');
    // Case is no edit, one slipped letter is: both meant.
    expect(message(training, 'GlobalBatchSize')).toBe('unknown field (did you mean globalBatchSize?)');
    expect(message(training, 'precison')).toBe('unknown field (did you mean precision?)');
    // One edit from each of two fields: both named, not whichever comes first.
    expect(message(cluster, 'gpuz')).toBe('unknown field (did you mean gpu or gpus?)');
    // Three letters dropped is past the two edits a flag may slip by: the list, not a guess.
    expect(message(training, 'glbalBtchSze')).toBe('unknown field (known fields: globalBatchSize, microBatchSize, precision)');
  });

  it('an inference request with its GPU at the top level is pointed to cluster.gpu', () => {
    const a = runInference({ model: 'llama3-8b', gpu: 'h100-sxm', promptTokens: 2048, outputTokens: 128 });
    expect(a.ok || a.issues).toContainEqual({ path: 'gpu', message: 'unknown field (did you mean cluster.gpu?)' });
  });

  it.each(['constructor', 'toString', 'hasOwnProperty'])('treats the inherited name %s as an unknown key', (key) => {
    expect(validate(point, { x: 1, [key]: 1 })).toMatchObject({ ok: false, issues: [{ path: key }] });
  });

  it("with unknownKeys 'strip' drops unknown keys and omits additionalProperties", () => {
    const open = object({ x: integer() }, { unknownKeys: 'strip' });
    expect(validate(open, { x: 1, y: 2 })).toEqual({ ok: true, value: { x: 1 } });
    expect(open.toJsonSchema()).toEqual({ type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] });
  });

  it('runs refine on the raw input even when a field is invalid, so every issue shows at once', () => {
    const range = object({ lo: integer(), hi: integer() }, {
      refine: (raw, issue) => { if (typeof raw.lo === 'number' && typeof raw.hi === 'number' && raw.lo > raw.hi) issue('hi', 'expected hi ≥ lo'); },
    });
    expect(validate(range, { lo: 5, hi: 1 })).toEqual({ ok: false, issues: [{ path: 'hi', message: 'expected hi ≥ lo' }] });
    expect(validate(range, { lo: 5, hi: 1, z: 0 })).toMatchObject({ ok: false, issues: [{ path: 'z' }, { path: 'hi' }] });
  });

  it('validates an object default in place of an absent field, a fresh copy each time', () => {
    const outer = object({ inner: withDefault(object({ n: withDefault(integer(), 2) }), {}) });
    const first = validate(outer, {});
    const second = validate(outer, {});
    expect(first).toEqual({ ok: true, value: { inner: { n: 2 } } });
    expect(first.ok && second.ok && first.value.inner !== second.value.inner).toBe(true);
  });

  it('refuses to define an invalid default: that is a bug in the schema, not in the input', () => {
    expect(() => withDefault(integer({ min: 1 }), 0)).toThrow('invalid default 0: expected an integer ≥ 1, got 0');
  });

  it('publishes properties, required fields, defaults and additionalProperties: false', () => {
    expect(point.toJsonSchema()).toEqual({
      type: 'object',
      properties: {
        x: { type: 'integer', minimum: 0 },
        label: { type: 'string', maxLength: 10 },
        visible: { type: 'boolean', default: true },
      },
      required: ['x'],
      additionalProperties: false,
    });
  });

  it('accepts only objects whose literal fields match, which is how a union tells branches apart', () => {
    const ok = object({ ok: literal(true) });
    expect(ok.accepts({ ok: true })).toBe(true);
    expect(ok.accepts({ ok: false })).toBe(false);
    expect(ok.accepts([])).toBe(false);
  });
});
