import { days } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const nodes = (span: string): string => `how many nodes to train llama3-70b on 2T tokens ${span}`;

describe('spans of time with a name of their own are deadlines of their days, never a default 30', () => {
  it.each([
    ['within a fortnight', 14],
    ['in a fortnight', 14],
    ['within 2 fortnights', 28],
    ['in half a month', 15],
    ['in a couple of weeks', 14],
    ['in a quarter', 91],
    ['over the weekend', 2],
  ])('%s is %d days', (span, inDays) => {
    expect(parse(nodes(span)).stated.deadlineSeconds).toBe(days(inDays));
  });
  it('says how long a quarter and half a month were taken as', () => {
    expect(parse(nodes('in a quarter')).defaults.map((d) => d.text)).toContain('a quarter taken as 91 days (365 over 4, rounded down)');
    expect(parse(nodes('in half a month')).defaults.some((d) => d.text.startsWith('half a month taken as 15 days'))).toBe(true);
  });
  it('"a quarter of" is no deadline', () => {
    expect(parse('how long to train llama3-8b on a quarter of 1T tokens on 64 h100').stated.deadlineSeconds).toBeUndefined();
  });
  it('"asap" is said not understood beside the default deadline it leaves', () => {
    const answer = ask(nodes('asap'), { publicUrl: null });
    expect(answer.assumptions.find((a) => a.startsWith('a 30-day deadline'))).toContain('"asap" not understood');
  });
  it('"asap" where no deadline is taken is said not read', () => {
    const answer = ask('how long to train llama3-8b on 1T tokens on 64 h100 asap', { publicUrl: null });
    expect(answer.notes.some((n) => n.startsWith('Not read: "asap"'))).toBe(true);
  });
});
