import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import type { EstimateOk, NodesResponseJson } from '@trainplan/protocol';
import { compactCount } from '../src/format.ts';
import { formatDuration, trillion } from '@trainplan/units';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

/** Days as the CLI writes them (units' formatDuration, "295.8 days"), less a ".0" the bot does not write. */
const cliDays = (days: number): string => formatDuration(days * 24 * 60 * 60).replace(/\.0 days$/, ' days');

describe('"how many tokens" in a time on a cluster: the tokens its best plan trains in that time', () => {
  it('"how many tokens can I train llama 3 8b on in 2 weeks on 64 h100" plans the 64 GPUs named, not the nodes for 15T tokens', () => {
    const question = 'how many tokens can I train llama 3 8b on in 2 weeks on 64 h100';
    expect(parse(question).intent).toBe('time');
    const a = ask(question, { publicUrl: null });
    const data = a.data as NodesOk;
    expect(data.gpus).toBe(64);
    // At the plan's rate: the tokens taken over its days, for 14 of them.
    const perDay = trillion(15) / data.days;
    expect(a.headline).toBe(`Llama 3 8B on H100 SXM5 80GB: 8 nodes (64 GPUs) train about ${compactCount(14 * perDay)} tokens in 14 days `
      + `(${compactCount(perDay)} a day; ${cliDays(data.days)} for the 15.0T below)`);
  });

  it('with no time given it is the time to train the tokens taken, as before', () => {
    expect(ask('how many tokens can I train llama 3 8b on 64 h100', { publicUrl: null }).headline).toMatch(/^Llama 3 8B on H100 SXM5 80GB: [\d,]+(?:\.\d)? days to train 15\.0T tokens on 8 nodes \(64 GPUs\)$/);
  });
});

describe('"how many tokens per day" on a cluster: the rate its best plan trains at', () => {
  const SECONDS_PER_DAY = 24 * 60 * 60;
  it.each([
    ['how many tokens per day can 1024 h100 train for llama 3 70b', 1, 'a day'],
    ['how many tokens a week can 1024 h100 train for llama 3 70b', 7, 'a week'],
    ['how many tokens/hour can 1024 h100 train for llama 3 70b', 1 / 24, 'an hour'],
    ['how many tokens per second can 1024 h100 train for llama 3 70b', 1 / SECONDS_PER_DAY, 'a second'],
    ['how many tokens daily on 1024 h100 for llama 3 70b', 1, 'a day'],
    ['how many tokens a month can 1024 h100 train for llama 3 70b', 30, 'a month \\(30 days\\)'],
  ])('"%s" answers the tokens in that period at the plan\'s rate on the GPUs named, not the days for 15T tokens', (question, periodDays, period) => {
    const a = ask(question, { publicUrl: null });
    const data = a.data as NodesOk;
    expect(data.gpus).toBe(1024);
    // The plan trains the tokens taken (15T, Llama 3's) in data.days: that rate over the period asked.
    const inPeriod = (trillion(15) / data.days) * periodDays;
    expect(a.headline).toMatch(new RegExp(`^Llama 3 70B on H100 SXM5 80GB: 128 nodes \\(1,024 GPUs\\) train about ${compactCount(inPeriod).replace('.', '\\.')} tokens ${period}`));
    expect(a.headline).not.toMatch(/^[^(]*days to train/);
  });
});

describe('"how many tokens" with a stated layout: the same reading on that layout', () => {
  it.each([
    ['how many tokens per day can 64 h100 train for llama 3 8b with tp 2', 1, 'a day'],
    ['how many tokens can 64 h100 train for llama 3 8b with tp 2 in 2 weeks', 14, 'in 14 days'],
  ])('"%s" answers the tokens in that time on TP 2, not the days for 15T tokens', (question, periodDays, period) => {
    const a = ask(question, { publicUrl: null });
    const e = a.data as EstimateOk;
    expect(e.resolved.tensor).toBe(2);
    const inPeriod = (trillion(15) / (e.timeToTrain?.days ?? Number.NaN)) * periodDays;
    expect(a.headline).toContain(`8 nodes (64 GPUs) train about ${compactCount(inPeriod)} tokens ${period}`);
  });
});

describe('"how many tokens per second per gpu": one GPU\'s share first, then the cluster\'s', () => {
  it('"how many tokens per second per gpu for llama2-70b on 512 a100s": the cluster\'s rate over its 512 GPUs', () => {
    const a = ask('how many tokens per second per gpu for llama2-70b on 512 a100s', { publicUrl: null });
    const data = a.data as NodesOk;
    expect(data.gpus).toBe(512);
    // The plan trains the tokens taken (2T, Llama 2's) in data.days: that rate a second, and a 512th of it per GPU.
    const perSecond = trillion(2) / data.days / (24 * 60 * 60);
    expect(a.headline).toBe(`Llama 2 70B on A100 SXM4 80GB: about ${compactCount(perSecond / 512)} tokens a second per GPU; `
      + `64 nodes (512 GPUs) train about ${compactCount(perSecond)} tokens a second (${cliDays(data.days)} for the 2.00T below)`);
  });
});
