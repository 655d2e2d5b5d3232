import { describe, expect, it } from 'vitest';
import { boolean, enumOf, integer, literal, number, string, validate, type Schema } from '../../src/index.ts';

const issueOf = (schema: Schema<unknown>, value: unknown) => {
  const result = validate(schema, value);
  return result.ok ? undefined : result.issues.map((issue) => issue.message).join(' | ');
};

describe('integer', () => {
  const degree = integer({ min: 1, max: 1000 });
  it.each([
    [0, 'expected an integer ≥ 1, got 0'],
    [1001, 'expected an integer ≤ 1000, got 1001'],
    [2.5, 'expected an integer from 1 to 1000, got 2.5'],
    [NaN, 'expected an integer from 1 to 1000, got NaN'],
    [Infinity, 'expected an integer from 1 to 1000, got Infinity'],
    ['8', 'expected an integer from 1 to 1000, got "8"'],
    [true, 'expected an integer from 1 to 1000, got true'],
    [null, 'expected an integer from 1 to 1000, got null'],
    [[8], 'expected an integer from 1 to 1000, got an array of 1 item'],
    [{}, 'expected an integer from 1 to 1000, got an object'],
    [8n, 'expected an integer from 1 to 1000, got a bigint (8)'],
  ])('refuses %s: %s', (value, message) => expect(issueOf(degree, value)).toBe(message));

  it.each([1, 8, 1000, 4.0])('accepts %d', (value) => expect(validate(degree, value)).toEqual({ ok: true, value }));

  it('says a large number given as it says its bound, grouped by thousands', () => {
    expect(issueOf(integer({ min: 1, max: 65_536 }), 100_000)).toBe('expected an integer ≤ 65,536, got 100,000');
    expect(issueOf(integer({ min: 1, max: 65_536 }), 1.5e5 + 0.5)).toBe('expected an integer from 1 to 65,536, got 150000.5');
    // Past the safe integers but below 1e21, grouped too: 2^60 = 1,152,921,504,606,846,976, which a double holds exactly
    // and JavaScript writes shortest as 1152921504606847000 (QA: 19 bare digits, while -2^40 was grouped).
    expect(issueOf(integer({ min: 1, max: 65_536 }), 2 ** 60)).toBe('expected an integer ≤ 65,536, got 1,152,921,504,606,847,000');
    // Past that it stays short: "1e+308", not 309 digits.
    expect(issueOf(integer({ min: 1, max: 65_536 }), Number.MAX_VALUE)).toBe('expected an integer ≤ 65,536, got 1.7976931348623157e+308');
  });

  it('publishes its bounds as minimum and maximum', () => {
    expect(integer({ min: 1, max: 8, description: 'd' }).toJsonSchema()).toEqual({ description: 'd', type: 'integer', minimum: 1, maximum: 8 });
  });
});

describe('number', () => {
  const positive = number({ greaterThan: 0 });
  it.each([
    [0, 'expected a number > 0, got 0'],
    [-1, 'expected a number > 0, got -1'],
    [NaN, 'expected a number > 0, got NaN'],
    [-Infinity, 'expected a number > 0, got -Infinity'],
    ['1e12', 'expected a number > 0, got "1e12"'],
  ])('greaterThan 0 refuses %j: %s', (value, message) => expect(issueOf(positive, value)).toBe(message));

  it('accepts fractions and names a crossed maximum', () => {
    expect(validate(positive, 0.5)).toEqual({ ok: true, value: 0.5 });
    expect(issueOf(number({ min: 0, max: 1 }), 1.5)).toBe('expected a number ≤ 1, got 1.5');
  });

  it('publishes greaterThan as exclusiveMinimum', () => {
    expect(number({ greaterThan: 0, max: 10 }).toJsonSchema()).toEqual({ type: 'number', exclusiveMinimum: 0, maximum: 10 });
  });
});

describe('string', () => {
  it.each([
    [string({ minLength: 1, maxLength: 8 }), '', 'expected a non-empty string of at most 8 characters, got ""'],
    [string({ maxLength: 3 }), 'abcd', 'expected a string of at most 3 characters, got "abcd"'],
    [string({ minLength: 2, maxLength: 3 }), 'a', 'expected a string of 2 to 3 characters, got "a"'],
    [string(), 5, 'expected a string of at most 1024 characters, got 5'],
  ])('refuses a bad value: %#', (schema, value, message) => expect(issueOf(schema, value)).toBe(message));

  it('refuses a long string by default and quotes only its start', () => {
    const message = issueOf(string(), 'x'.repeat(100_000)) ?? '';
    expect(message).toContain('(a string of 100,000 characters)');
    expect(message.length).toBeLessThan(150);
  });

  it('counts code points, as JSON Schema does: two emoji are two characters', () => {
    expect(validate(string({ maxLength: 2 }), '🚀🚀').ok).toBe(true);
  });

  it('with an enum option is an enum', () => {
    const precision = string({ enum: ['fp16', 'bf16'] });
    expect(issueOf(precision, 'fp4')).toBe('expected one of fp16, bf16, got "fp4"');
    expect(precision.toJsonSchema()).toEqual({ type: 'string', enum: ['fp16', 'bf16'] });
  });
});

describe('boolean, enumOf and literal', () => {
  it('boolean refuses "true" and 0', () => {
    expect(issueOf(boolean(), 'true')).toBe('expected true or false, got "true"');
    expect(issueOf(boolean(), 0)).toBe('expected true or false, got 0');
  });

  it.each([
    [enumOf([0, 1, 2, 3]), 5, 'expected one of 0, 1, 2, 3, got 5'],
    [enumOf([0, 1, 2, 3]), '1', 'expected one of 0, 1, 2, 3, got "1"'],
    // A slip of a named value says which it meant: its case, its hyphens, or a letter or two off (meant-choice.ts).
    [enumOf(['none', 'full']), 'None', 'expected one of none, full, got "None" (did you mean none?)'],
    [enumOf(['static', 'continuous']), 'continous', 'expected one of static, continuous, got "continous" (did you mean continuous?)'],
    [enumOf(['none', 'selective', 'full', 'full-partial']), 'ful', 'expected one of none, selective, full, full-partial, got "ful" (did you mean full or full-partial?)'],
    [enumOf(['fp16', 'bf16', 'fp8']), 'xyz', 'expected one of fp16, bf16, fp8, got "xyz"'],
    [literal(true), false, 'expected true, got false'],
    [literal('v1'), 'v2', 'expected "v1", got "v2"'],
  ])('refuses a value outside the set: %#', (schema, value, message) => expect(issueOf(schema, value)).toBe(message));

  it('publish enum with its JSON type, and const', () => {
    expect(enumOf([0, 1]).toJsonSchema()).toEqual({ type: 'integer', enum: [0, 1] });
    expect(enumOf(['a', 1]).toJsonSchema()).toEqual({ enum: ['a', 1] });
    expect(literal(false).toJsonSchema()).toEqual({ const: false });
  });
});
