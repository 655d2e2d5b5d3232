import { describe, expect, it } from 'vitest';
import type { NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { compactCount, formatDays } from '../src/format.ts';
import { parse } from '../src/parse.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

describe('an uptime stated is read as the share of wall-clock time spent training', () => {
  it.each([
    ['at 90% uptime', 0.9],
    ['with 95% availability', 0.95],
    ['with an uptime of 90%', 0.9],
    ['uptime 0.9', 0.9],
    // 100% − 10% lost.
    ['with 10% downtime', 0.9],
    ['downtime of 5%', 0.95],
    ['assuming 10% of the time is lost to failures', 0.9],
  ])('"%s" is an uptime of %d', (phrase, uptime) => {
    const q = parse(`how long to train llama3-8b on 1T tokens on 64 H100 ${phrase}`);
    expect(q.problems).toEqual([]);
    expect(q.stated.uptime).toBe(uptime);
    expect(q.notRead ?? []).toEqual([]);
  });

  it.each([
    ['at 0% uptime', '"at 0% uptime" is out of range: the share of time spent training is above 0% and at most 100% (Meta reports over 90% for Llama 3 405B)'],
    ['with 100% downtime', '"with 100% downtime" is out of range: the share of time spent training is above 0% and at most 100% (Meta reports over 90% for Llama 3 405B)'],
    ['uptime 90', '"uptime 90": an uptime is a share of the time, at most 1; for 90% write "90% uptime" (or 0.9)'],
  ])('"%s" is refused, never clamped', (phrase, problem) => {
    expect(parse(`how long to train llama3-8b on 1T tokens on 64 H100 ${phrase}`).problems).toEqual([problem]);
  });
});

describe('the nodes search plans the uptime, and every answer of it says the uptime it assumed', () => {
  it('how long at 90% uptime: the days are the ideal ones over 0.9, the split said (as the CLI\'s nodes says it)', () => {
    const at100 = ask('how long to train llama3-8b on 1T tokens on 64 H100', { publicUrl: null });
    const at90 = ask('how long to train llama3-8b on 1T tokens on 64 H100 at 90% uptime', { publicUrl: null });
    const ideal = (at100.data as NodesOk).days;
    const wall = (at90.data as NodesOk).days;
    // Wall-clock days = ideal days / uptime (the nodes request's uptime, packages/protocol search/nodes.ts).
    expect(wall).toBeCloseTo(ideal / 0.9, 6);
    expect(at100.assumptions).toContain('at 100% uptime: no restarts or failures counted (say "at 90% uptime" for Meta\'s Llama 3 figure)');
    // Of the wall-clock days, 90% train (the ideal days) and 10% are lost.
    expect(at90.notes).toContain(`At 90% uptime, as asked: ${formatDays(wall)} and ${compactCount((at90.data as NodesOk).gpuHours)} GPU-hours on the wall clock, `
      + `of which ${formatDays(wall * 0.9)} training (the time to train figure) and ${formatDays(wall * 0.1)} lost to restarts, failures and checkpoint stalls.`);
    expect(at90.assumptions.join(' ')).not.toContain('100% uptime');
  });

  it('how many nodes with 10% downtime: a deadline sized on the wall clock needs at least the nodes it needs at 100%', () => {
    const at100 = ask('how many nodes to train llama3-8b on 1T tokens in 10 days', { publicUrl: null }).data as NodesOk;
    const at90 = ask('how many nodes to train llama3-8b on 1T tokens in 10 days with 10% downtime', { publicUrl: null }).data as NodesOk;
    expect(at90.uptime).toBe(0.9);
    expect(at90.days).toBeLessThanOrEqual(10);
    expect(at90.nodes).toBeGreaterThanOrEqual(at100.nodes);
  });

  it('a fixed layout (no nodes search) says the uptime not read, its times at 100%', () => {
    const q = parse('how long to train llama3-8b on 1T tokens on 64 H100 with tp 2 at 90% uptime');
    expect(q.stated.uptime).toBeUndefined();
    expect(q.notRead).toContainEqual({
      phrase: '"at 90% uptime"',
      why: 'an uptime is planned in how-many-nodes, how-long (with no layout fixed) and cheapest answers, whose days and GPU-hours it puts on the wall clock; this answer\'s times are at 100% uptime',
    });
  });
});
