import { describe, expect, it } from 'vitest';
import { blankLiteralArguments, stripProperties } from '../src/strip-properties.ts';

describe('stripProperties', () => {
  it.each([
    ['an arrow', "const s = { a: 1, toJsonSchema: () => ({ b: [1, '}'], c: `${x}` }), d: 2 };", 'const s = { a: 1,  d: 2 };'],
    ['a method, last', "const s = { a: 1, toJsonSchema() { return { e: '{', f: g(1, 2) }; } };", 'const s = { a: 1, };'],
    ['a keyword object over lines', 'object(shape, {\n  refine() {},\n  jsonSchema: {\n    oneOf: [{ required: [\'a\'] }],\n  },\n});', 'object(shape, {\n  refine() {},\n  \n});'],
    ['a comment with a bracket in the value', 'const s = { toJsonSchema: () => x(/* ) */ 1), a: 1 };', 'const s = {  a: 1 };'],
  ])('removes %s and its comma, leaving the other properties', (_, source, expected) => {
    expect(stripProperties(source, ['toJsonSchema', 'jsonSchema'])).toBe(expected);
  });

  it('removes properties next to each other on one line, each with its comma', () => {
    expect(stripProperties('const e = { a: 1, b: 2, c: f(3, 4), d: 5 };', ['b', 'c'])).toBe('const e = { a: 1,   d: 5 };');
    expect(stripProperties('const e = { b: 2, c: 3 };', ['b', 'c'])).toBe('const e = {  };');
    expect(stripProperties('p(6.8), tree: p(1), collnetDirect: p(0, 0), collnetChain: p(0), nvls: p(2)', ['collnetDirect', 'collnetChain']))
      .toBe('p(6.8), tree: p(1),   nvls: p(2)');
  });

  it('leaves optional members, type members and calls of the name alone', () => {
    const source = 'interface O { jsonSchema?: J; toJsonSchema(): J; }\nconst j = schema.toJsonSchema();\nconst k = { ...schema.toJsonSchema() };';
    expect(stripProperties(source, ['toJsonSchema', 'jsonSchema'])).toBe(source);
  });

  it('returns a source whose brackets it cannot pair unchanged', () => {
    const source = 'const s = { toJsonSchema: () => ({ a: [1 }) };';
    expect(stripProperties(source, ['toJsonSchema'])).toBe(source);
  });
});

describe('blankLiteralArguments', () => {
  it('blanks the literal a description-only helper takes, at that parameter, in calls of the same source', () => {
    const source = "const flag = (value: boolean, description: string) => withDefault(boolean({ description }), value);\n"
      + "const a = flag(true, 'Over' + \"lap\"), b = flag(false, text), c = other.flag(true, 'kept'), d = noflag(true, 'kept');";
    expect(blankLiteralArguments(source, 'description')).toBe(
      "const flag = (value: boolean, description: string) => withDefault(boolean({ description }), value);\n"
      + "const a = flag(true,''), b = flag(false, text), c = other.flag(true, 'kept'), d = noflag(true, 'kept');",
    );
  });

  it('follows a helper that hands the description to another such helper, and a template that only suffixes it', () => {
    const source = 'const positive = (max: number, description: string) => integer({ min: 1, max, description });\n'
      + 'const degree = (description: string) => withDefault(positive(thousand(64), description), 1);\n'
      + 'const bytes = (description: string) => number({ min: 0, description: `${description}, in bytes.` });\n'
      + "degree('Tensor-parallel degree.'); bytes('Weights');";
    expect(blankLiteralArguments(source, 'description')).toContain("degree(''); bytes('');");
  });

  it('blanks the default a description-only helper gives, its options holding a call (`max: thousand(100)`)', () => {
    const source = "const price = (description = 'Price of one GPU-hour.') => optional(number({ max: thousand(100), description }));\n"
      + "const a = price(), b = price('Price of serving.');";
    expect(blankLiteralArguments(source, 'description')).toBe(
      "const price = (description = '') => optional(number({ max: thousand(100), description }));\n"
      + "const a = price(), b = price('');",
    );
  });

  it.each([
    ['a message', 'const why = (description: string) => `invalid: ${description}`;\nwhy(\'shown to the user\');'],
    ['an argument of a function that is not a description helper', "const f = (description: string) => g(1, description, 2);\nf('kept');"],
    ['a template with an expression', 'const flag = (description: string) => boolean({ description });\nflag(`on ${x()}`);'],
  ])('leaves %s as it is', (_, source) => {
    expect(blankLiteralArguments(source, 'description')).toBe(source);
  });
});
