import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import { DAY, TODAY } from './support/dates.ts';


describe('an impossible time of day after an ISO date is refused, as an impossible date is (QA: "T25:99" read as the day)', () => {
  const question = (when: string): string => `how many H100 nodes to train llama3-8b on 1T tokens ${when}`;

  it.each([
    // ISO 8601: hours 00–23 (24:00 the end of a day), minutes 00–59, seconds 00–60 (a leap second).
    ['by 2027-01-15T25:99'],
    ['by 2027-01-15T12:60'],
    ['by 2027-01-15T23:59:61'],
    ['by 2027-01-15T24:30'],
  ])('"%s" is no time: a problem, no deadline planned', (when) => {
    const q = parse(question(when), { today: TODAY });
    expect(q.stated.deadlineSeconds).toBeUndefined();
    expect(q.problems).toContainEqual(expect.stringMatching(new RegExp(`^"${when}" is no date: \\S+ is no time of day`)));
  });

  it.each(['by 2027-01-15T23:59', 'by 2027-01-15T24:00', 'by 2027-01-15T23:59:60Z'])('"%s" is a time: 15 January, 48 days', (when) => {
    const q = parse(question(when), { today: TODAY });
    expect(q.problems).toEqual([]);
    // 28 November → 15 January: 2 + 31 + 15 = 48 days.
    expect(q.stated.deadlineSeconds).toBe(48 * DAY);
  });
});

describe('GPU-hours written "600k H100h" or "600k hours of H100" (QA: said not read, and a default 128 nodes planned)', () => {
  const ASKED = (budget: string): string => `fastest way to train llama3-70b on 2T tokens with ${budget}`;

  it.each(['600k H100h', '600k hours of H100', '600k hours of H100s'])('"%s" is 600,000 H100 GPU-hours', (budget) => {
    const q = parse(ASKED(budget));
    expect(q.problems).toEqual([]);
    expect(q.stated.gpuHours).toBe(600_000);
    expect(q.stated.gpu).toBe('h100-sxm');
    expect(q.stated.gpus).toBeUndefined();
    expect(q.notRead ?? []).toEqual([]);
  });

  it('reads as "600k H100 hours" does', () => {
    expect(parse(ASKED('600k H100h')).stated).toEqual(parse(ASKED('600k H100 hours')).stated);
    expect(parse(ASKED('600k hours of H100')).stated).toEqual(parse(ASKED('600k H100 hours')).stated);
  });

  it('a length on the GPUs stays a length: "for 36 hours on H100" is no GPU-hour budget', () => {
    expect(parse('how long to train llama3-70b on 2T tokens for 36 hours on 64 H100').stated.gpuHours).toBeUndefined();
    expect(parse('train llama3-70b on 2T tokens for 36 hours on h100').stated.gpuHours).toBeUndefined();
  });
});

describe('"Not read" entries never say "not read" twice (QA: \'Not read: "$1M" (not read: money neither …)\')', () => {
  it.each([
    'how many H100 nodes to train llama3-70b on 15T tokens with 5M GPU hours and $1M at $2/GPU-hour',
    'how long to train llama3-70b on 2T tokens on 64 H100 at $2/GPU-hour or $3/GPU-hour',
    'how long to train llama3-70b on 2T tokens on 64 H100 in 30 days by 31 december',
    'how long to train a 34B model with 60 layers on 64 H100',
    'how long to train llama3-8b on 1T tokens on 64 H100 with comm overlap and recompute 4 layers',
  ])('"%s"', (question) => {
    const notes = ask(question, { publicUrl: null, today: TODAY }).notes.filter((n) => n.startsWith('Not read:'));
    expect(notes.length).toBeGreaterThan(0);
    for (const n of notes) expect(n.slice('Not read:'.length)).not.toMatch(/\bnot read\b/i);
  });

  it('the money said not read keeps its meaning: neither a price nor a budget', () => {
    const notes = ask('how many H100 nodes to train llama3-70b on 15T tokens with 5M GPU hours and $1M at $2/GPU-hour', { publicUrl: null }).notes;
    expect(notes).toContainEqual(expect.stringMatching(/^Not read: "\$1M" \(money neither a price nor a budget; write a budget as "a \$2M budget"/));
  });
});
