import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import type { NodesResponseJson } from '@trainplan/protocol';
import { compactCount } from '../src/format.ts';
import { trillion } from '@trainplan/units';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

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
      + `(${compactCount(perDay)} a day; ${Math.round(data.days)} days for the 15.0T below)`);
  });

  it('with no time given it is the time to train the tokens taken, as before', () => {
    expect(ask('how many tokens can I train llama 3 8b on 64 h100', { publicUrl: null }).headline).toMatch(/^Llama 3 8B on H100 SXM5 80GB: \d+ days to train 15\.0T tokens on 8 nodes \(64 GPUs\)$/);
  });
});
