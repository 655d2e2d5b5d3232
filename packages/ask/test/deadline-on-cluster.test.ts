import { describe, expect, it } from 'vitest';
import type { EstimateOk, NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import { compactCount } from '../src/format.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;
const DAY_SECONDS = 86_400;

describe('a deadline on a stated cluster is the question: does the cluster train the tokens in time', () => {
  it.each([
    'can i train 405b in 1 month on 8k h100',
    'can i train 70b on 2T tokens in 30 days on 512 h100',
    'is 2 weeks enough to train 8b on 64 h100',
    'train 70b in 3 weeks on 128 h100 nodes with tp 8 pp 4',
  ])('"%s" is a time question with its deadline kept', (question) => {
    const q = parse(question);
    expect(q.intent).toBe('time');
    expect(q.stated.deadlineSeconds).toBeGreaterThan(0);
  });

  it('a plan slower than the deadline says it misses it, and what the cluster trains in that time', () => {
    const a = ask('can i train 70b on 2T tokens in 30 days on 512 h100', { publicUrl: null });
    const days = (a.data as NodesOk).days;
    // 2T tokens at the plan's rate, for 30 days of them.
    expect(days).toBeGreaterThan(30);
    expect(a.headline).toContain(`not within the 30 days asked: ${compactCount((2e12 * 30) / days)} of the 2.00T tokens in that time`);
  });

  it('a plan faster than the deadline says it is within it', () => {
    const a = ask('can i train 8b on 300B tokens in 30 days on 64 h100', { publicUrl: null });
    expect((a.data as NodesOk).days).toBeLessThan(30);
    expect(a.headline).toMatch(/, within the 30 days asked$/);
  });

  it('a fixed layout is held to the deadline too (its estimate\'s time to train)', () => {
    const a = ask('train 70b on 2T tokens in 3 weeks on 128 h100 nodes with tp 8 pp 4', { publicUrl: null });
    const days = (a.data as EstimateOk).timeToTrain?.days ?? 0;
    expect(days).toBeGreaterThan(0);
    expect(a.headline).toContain(days <= 21 ? 'within the 21 days asked' : 'not within the 21 days asked');
    expect(parse('train 70b on 2T tokens in 3 weeks on 128 h100 nodes with tp 8 pp 4').stated.deadlineSeconds).toBe(21 * DAY_SECONDS);
  });
});

describe('a fixed layout\'s time to train counts its cluster as the search\'s answers do', () => {
  it('"how long to train gpt3 175b on 300B tokens on 128 nodes with tp 8 pp 8" says its nodes and GPUs, as "… on 128 nodes" without a layout does', () => {
    const fixed = ask('how long to train gpt3 175b on 300B tokens on 128 nodes with tp 8 pp 8', { publicUrl: null });
    expect(fixed.headline).toMatch(/ to train 300B tokens on 128 nodes \(1,024 GPUs\)$/);
    expect(ask('how long to train gpt3 175b on 300B tokens on 128 nodes', { publicUrl: null }).headline).toMatch(/ on 128 nodes \(1,024 GPUs\)$/);
  });
});
