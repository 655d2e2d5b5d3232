import { describe, expect, it } from 'vitest';
import { pastDouble, powersOfTen, shiftedPoint, unreadableNumbers } from '../src/lexicon/powers-of-ten.ts';
import { writtenNumbers } from '../src/lexicon/numbers.ts';
import { ask, parse } from '../src/index.ts';

const ninesOf = (digits: number): string => '9'.repeat(digits);

describe('powers of ten are written out exactly, the point moved in the digits', () => {
  it.each([
    ['1', -9, '0.000000001'], ['1', -3, '0.001'], ['2.5', -2, '0.025'], ['1.5', 12, '1500000000000'], ['5.76', 23, '576000000000000000000000'],
    ['1', 308, `1${'0'.repeat(308)}`], ['12.5', 0, '12.5'], ['0.5', 1, '5'], ['0', 5, '0'],
  ])('shiftedPoint(%s, %d) is %s', (mantissa, exponent, digits) => expect(shiftedPoint(mantissa, exponent)).toBe(digits));

  it.each([
    // QA: "1e-9 days" was read as 9 days and "1e-3 days" as 3: the exponent's sign and its third digit were left apart.
    ['1e-9 days', '0.000000001 days'], ['1e-3 days', '0.001 days'], ['2.5e-2 days', '0.025 days'], ['1e3 gpus', '1000 gpus'],
    ['1.5e+12 tokens', '1500000000000 tokens'], ['1e100 tokens', `1${'0'.repeat(100)} tokens`], ['3 × 10^-3 days', '0.003 days'],
    ['10^12 tokens', '1000000000000 tokens'],
  ])('writtenNumbers("%s") is "%s"', (text, digits) => expect(writtenNumbers(text)).toBe(digits));

  it.each(['1e400 gpus', '1e-400 days', '1e99999 tokens', '10^400 tokens'])('"%s", past a double, is left as written', (text) => {
    expect(powersOfTen(text)).toBe(text);
  });

  it.each([['1e308', false], ['1e309', true], ['1e-323', false], ['1e-400', true], ['0e-400', false], [ninesOf(308), false], [ninesOf(309), true]])(
    'pastDouble(%s) is %s', (written, past) => expect(pastDouble(written)).toBe(past),
  );
});

describe('numbers no double holds are refused, each said: never read as another number', () => {
  it.each([
    ['in 1e-400 days', '"1e-400" is out of range: nearer 0 than the smallest number I read (about 5e-324)'],
    ['in 1e400 days', '"1e400" is out of range: more than the largest number I read (about 1.8e+308)'],
    [`in ${ninesOf(400)} days`, 'a number of 400 digits is out of range: more than the largest number I read (about 1.8e+308)'],
    ['on 1e400 H100s', '"1e400" is out of range: more than the largest number I read (about 1.8e+308)'],
    [`with ${ninesOf(400)} GPU-hours`, 'a number of 400 digits is out of range: more than the largest number I read (about 1.8e+308)'],
  ])('"%s": %s', (phrase, problem) => {
    const q = parse(`how long to train gpt3-175b on 64 H100s ${phrase}`.replace('on 64 H100s on', 'on'));
    expect(q.problems).toEqual([problem]);
    expect(q.stated.deadlineSeconds).toBeUndefined();
  });

  it.each(['NaN H100s', 'Infinity H100s', 'infinity GPUs', 'nan nodes'])('"on %s": no number, refused without naming it', (size) => {
    const a = ask(`how long to train gpt3-175b on ${size}`, { publicUrl: null });
    expect(a.ok).toBe(false);
    expect(a.headline).toBe('I could not answer that: a count written as a word that names no number cannot be planned: give it in digits (e.g. "256 H100", "2T tokens", "in 30 days").');
  });

  it('a count past a double before the GPU\'s name is left for the cluster\'s caps to refuse, and ZeRO-Infinity is no number', () => {
    expect(unreadableNumbers(`on ${ninesOf(400)} h100s`)).toEqual([]);
    expect(unreadableNumbers('with zero-infinity on 8 h100')).toEqual([]);
  });
});

describe('a power of ten no reader takes is said as typed, not as the digits it is written out in', () => {
  it.each([['on 1e300 on 64 h100', '"1e300"'], ['on 64 h100 with 3 × 10^-4 foo', '"3 × 10^-4 foo"']])('"%s": %s not read', (phrase, said) => {
    expect(parse(`how long to train gpt3-175b ${phrase}`).notRead?.map((n) => n.phrase)).toEqual([said]);
  });
});

describe('a deadline with a negative power of ten is the tiny span it is', () => {
  it.each([['1e-9 days', 86_400e-9, '86.4 µs'], ['1e-3 days', 86.4, '1 minute'], ['1e-5 hours', 0.036, '36.0 ms']])('"in %s" is %d s, said as %s and not met', (span, seconds, said) => {
    const question = `how long to train gpt3-175b on 64 H100s in ${span}`;
    expect(parse(question).stated.deadlineSeconds! / seconds).toBeCloseTo(1, 9);
    expect(ask(question, { publicUrl: null }).headline).toContain(`the ${said} asked cannot be met on the 64 GPUs named`);
  });
});
