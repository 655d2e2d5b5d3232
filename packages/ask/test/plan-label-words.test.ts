import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { planLabelWords } from '../src/answer/plan-label-words.ts';

/** The Configuration line's plan, less the global batch, the sequence length, the precision and the hardware: what a headline names of it. */
const planOf = (configuration: string): string => configuration
  .replace(/^closest that works, not what was asked: /, '')
  .replace(/ · global batch [\d,]+ · seq [\d,]+/, '')
  .replace(/ · (?:BF16|FP16|FP8|FP32) on .*$/, '');

/** The search label's own words (@trainplan/search describeCandidate), none of which a bot's answer says. */
const LABEL_WORDS = /\bmbs \d|· v \d|· SP\b|distributed-optimizer|\bzero-\d|\(\+embedding|\(\+loss/;

describe("a plan is said one way in an answer: the Configuration line's words and order", () => {
  // Each expected line written by hand from the label's grammar: VP and CP before DP, "micro-batch" for mbs, the
  // recompute before "sequence parallel" (SP), "distributed optimizer" and "ZeRO-n" for the sharding, the pipeline
  // split's slots in the Configuration line's sentence.
  it.each([
    ['TP 2 · PP 8 · DP 32 · CP 4 · v 5 · mbs 1 · SP · no recompute · distributed-optimizer',
      'TP 2 · PP 8 · VP 5 · CP 4 · DP 32 · micro-batch 1 · no recompute · sequence parallel · distributed optimizer'],
    ['the plan that comes closest (TP 8 · PP 1 · DP 1 · mbs 1 · SP · full recompute) needs 857 GiB per GPU',
      'the plan that comes closest (TP 8 · PP 1 · DP 1 · micro-batch 1 · full recompute · sequence parallel) needs 857 GiB per GPU'],
    ['TP 4 · PP 16 (+embedding, +loss) · DP 1,024 · mbs 2 · full recompute of 3 layers/stage · zero-1',
      'TP 4 · PP 16 (the embedding and the loss each count as a layer) · DP 1,024 · micro-batch 2 · full recompute of 3 layers/stage · ZeRO-1'],
    ['TP 1 · PP 4 (+loss) · DP 8 · CP 2 · mbs 1 · selective recompute', 'TP 1 · PP 4 (the loss counts as a layer) · CP 2 · DP 8 · micro-batch 1 · selective recompute'],
    ['Runner-up interleaved, v 2: +4.1% step time', 'Runner-up interleaved, VP 2: +4.1% step time'],
    ['no label here: TP 8 on 64 GPUs', 'no label here: TP 8 on 64 GPUs'],
  ])('"%s"', (label, words) => {
    expect(planLabelWords(label)).toBe(words);
  });

  it('a best-configuration headline names the plan as its Configuration line does (QA: "DP 32 · CP 4 · v 5 · mbs 1" above "VP 5 · CP 4 · DP 32 · micro-batch 1")', () => {
    const a = ask('best config for llama3 70b on 2048 h100 for 15T tokens', { publicUrl: null, today: '2026-11-28' });
    expect(a.ok).toBe(true);
    expect(a.headline).toContain(`: ${planOf(a.configuration ?? '')} (`);
    expect(a.headline).not.toMatch(LABEL_WORDS);
  });

  it('a refusal passes on the protocol\'s closest plan in the same words', () => {
    const a = ask('best config for llama3 405b on 8 h100', { publicUrl: null, today: '2026-11-28' });
    expect(a.ok).toBe(false);
    expect(a.headline).toContain('the plan that comes closest (TP 8 · PP 1 · DP 1 · micro-batch 1 ·');
    expect([a.headline, ...a.notes].join('\n')).not.toMatch(LABEL_WORDS);
  });
});
