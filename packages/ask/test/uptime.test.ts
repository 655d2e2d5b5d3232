import { describe, expect, it } from 'vitest';
import type { EstimateOk, NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { statedMfuNote } from '../src/answer/stated-mfu.ts';
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
      + `of which ${formatDays(wall * 0.9)} training and ${formatDays(wall * 0.1)} lost to restarts, failures and checkpoint stalls.`);
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

/** An answer's figure by its label ('' when it has none). */
const figure = (a: ReturnType<typeof ask>, label: string): string => a.figures.find((f) => f.label === label)?.value ?? '';

describe('every figure of an answer at an uptime is on the wall clock, as the headline and the CLI\'s nodes are', () => {
  it('how long at 90% uptime: the time to train figure is the ideal days and GPU-hours over 0.9, the training days beside them', () => {
    const at100 = ask('how long to train llama3-8b on 1T tokens on 64 H100', { publicUrl: null });
    const at90 = ask('how long to train llama3-8b on 1T tokens on 64 H100 at 90% uptime', { publicUrl: null });
    // The ideal (100%) plan's own figures: the same layout at both uptimes, the uptime only stretching the wall clock.
    const ideal = at100.data as NodesOk;
    expect((at90.data as NodesOk).configuration.scenario).toEqual(ideal.configuration.scenario);
    // By hand: wall-clock days = ideal days / 0.9, and so GPU-hours (the same GPUs held the whole time); 90% of them train.
    const days = ideal.days / 0.9;
    const gpuHours = ideal.gpuHours / 0.9;
    expect(figure(at90, 'Time to train')).toBe(`${formatDays(days)} for 1.00T tokens · ${compactCount(gpuHours)} GPU-hours, on the wall clock at 90% uptime (${formatDays(days * 0.9)} of it training)`);
    // The headline says the same days: "… 12.3 days to train 1.00T tokens on 8 nodes (64 GPUs)".
    expect(at90.headline).toContain(`${formatDays(days)} to train 1.00T tokens`);
    // At 100% nothing changes: the figure is the estimate's own.
    expect(figure(at100, 'Time to train')).toBe(`${formatDays(ideal.days)} for 1.00T tokens · ${compactCount(ideal.gpuHours)} GPU-hours`);
  });

  it('QA: "how many nodes … in 30 days at 90% uptime on h100": the figure says the headline\'s days and the wall clock\'s GPU-hours', () => {
    const a = ask('how many nodes to train llama3-70b on 2T tokens in 30 days at 90% uptime on h100', { publicUrl: null });
    const data = a.data as NodesOk;
    const ideal = data.configuration.estimate.timeToTrain!;
    // By hand: the estimate's ideal days and GPU-hours over the uptime are the wall clock's (QA: 26.7 days · 600k GPU-hours in
    // the figure, 29.7 days in the headline; the CLI's nodes says 29.7 days · 666,714 GPU-hours).
    expect(data.days).toBeCloseTo(ideal.days / 0.9, 6);
    expect(data.gpuHours).toBeCloseTo(ideal.gpuHours / 0.9, 0);
    const time = figure(a, 'Time to train');
    expect(time.startsWith(`${formatDays(ideal.days / 0.9)} for 2.00T tokens · ${compactCount(ideal.gpuHours / 0.9)} GPU-hours, on the wall clock at 90% uptime`)).toBe(true);
    expect(a.headline).toContain(`in ${formatDays(ideal.days / 0.9)} (deadline 30 days)`);
    // No figure or note says the ideal days as if they were the time to train.
    expect(a.notes.join(' ')).not.toContain('the time to train figure');
  });

  it('a stated MFU\'s days are on the wall clock too: 10 ideal days at 40% predicted are 16 at 25%, 20 at 80% uptime', () => {
    const e = { mfu: 0.4, stepTimeSeconds: 2, resolved: { nodes: 8, gpusPerNode: 8, gpus: 64 }, timeToTrain: { days: 10 } } as unknown as EstimateOk;
    // 10 × 0.4 / 0.25 = 16 days training; over a 0.8 uptime, 16 / 0.8 = 20 days on the wall clock, within a 30-day deadline.
    expect(statedMfuNote({ mfu: 0.25, uptime: 0.8, deadlineSeconds: 30 * 86_400 }, e, 0.8)).toBe(
      'You stated 25% MFU; the planner predicts 40.0% for this layout. At 25% MFU the same 8 nodes would take 20 days, within the 30-day deadline.',
    );
  });
});
