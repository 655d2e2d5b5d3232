import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

/**
 * Every switch reader takes the one negation grammar (lexicon/switch-words.ts). QA: "don't use flash attention", "not
 * emulated", "tp comm overlap: no", "--no-overlap-p2p-communication", "dropout set to 0" and others each planned the switch on.
 */
const BASE = 'how long to train llama3-70b on 2T tokens on 64 H100 nodes with tp 8 pp 4';

describe('a switch negated or given an off value is planned off', () => {
  it.each([
    ["don't use tp comm overlap", 'overlapTensorParallelComm'],
    ['tp comm overlap: no', 'overlapTensorParallelComm'],
    ['overlap grad reduce = 0', 'overlapGradReduce'],
    ['vp 2, --no-overlap-p2p-communication', 'overlapPipelineComm'],
  ])('"%s": %s false, nothing said not read', (phrase, field) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.stated[field as 'overlapGradReduce']).toBe(false);
    expect(q.notRead ?? []).toEqual([]);
  });

  it.each(["don't use flash attention", 'never use flash attention', 'FA2 disabled'])('"%s": the unfused kernel, as "without flash attention"', (phrase) => {
    expect(parse(`${BASE}, ${phrase}`).stated.attentionKernel).toBe('unfused');
    expect(ask(`${BASE}, ${phrase}`, { publicUrl: null }).stepTimeSeconds).toBe(ask(`${BASE} without flash attention`, { publicUrl: null }).stepTimeSeconds);
  });

  it.each([
    "don't use dropout", 'not using dropout', 'dropout turned off', 'dropout set to 0', 'dropout rate 0.0', 'dropout probability 0', 'dropout-free',
  ])('"%s": dropout off, its 0 no number left unread', (phrase) => {
    const q = parse(`${BASE}, ${phrase}`);
    expect(q.stated.dropout).toBe(false);
    expect(q.notRead ?? []).toEqual([]);
  });

  it.each(['in fp8 without fp8 weights', 'in fp8, no fp8 params'])('"%s": FP8 arithmetic with the 16-bit weights (no fp8Params)', (phrase) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.stated.precision).toBe('fp8');
    expect(q.stated.fp8Params).toBeUndefined();
  });

  it('"without the emulator" and "not emulated": the closed form, never the emulator', () => {
    expect(parse(`${BASE} without the emulator`).stated.emulate).toBeUndefined();
    const collective = ask('all-reduce 1 GB on 64 H100 not emulated', { publicUrl: null });
    expect(collective.headline).not.toContain('emulated');
    expect(parse('all-reduce 1 GB on 64 H100 emulated').stated.emulate).toBe(true);
  });
});

describe('a schedule negated is not that schedule', () => {
  it.each(['without gpipe', 'not gpipe'])('"%s": no GPipe (which would not fit), the plan as without the words', (phrase) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.stated.schedule).toBeUndefined();
    expect(ask(`${BASE} ${phrase}`, { publicUrl: null }).headline).toBe(ask(BASE, { publicUrl: null }).headline);
  });

  it.each(['with no interleaved schedule', 'non-interleaved (1F1B)', 'with the non-interleaved schedule'])('"%s": 1F1B, nothing contradicted', (phrase) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.stated.schedule).toBe('1f1b');
    expect(q.notRead ?? []).toEqual([]);
  });

  it('"without interleaving" beside vp 2: the chunks planned, the words said as contradicting them', () => {
    const q = parse(`${BASE} vp 2 without interleaving`);
    expect(q.stated).toMatchObject({ virtualStages: 2 });
    expect(q.notRead).toEqual([{ phrase: '"without interleaving"', why: expect.stringMatching(/^contradicts the 2 model chunks per stage asked/) }]);
  });
});

describe('a switch said both ways is said, never one picked silently', () => {
  it.each(['with and without tp comm overlap', 'with and without flash attention'])('"%s": said, the default planned', (phrase) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.stated.overlapTensorParallelComm).toBeUndefined();
    expect(q.stated.attentionKernel).toBeUndefined();
    expect(q.notRead).toEqual([{ phrase: `"${phrase}"`, why: expect.stringMatching(/^asks it both on and off/) }]);
  });

  it('"with dropout and no dropout": the first planned, the other said as contradicting it', () => {
    const q = parse(`${BASE} with dropout and no dropout`);
    expect(q.stated.dropout).toBe(true);
    expect(q.notRead).toEqual([{ phrase: '"no dropout"', why: 'contradicts "with dropout", which is planned; say one' }]);
  });

  it('"--hidden-dropout 0.1 --attention-dropout 0.0": dropout on (one is above 0), no contradiction and no 0.1 unread', () => {
    const q = parse(`${BASE}, --hidden-dropout 0.1 --attention-dropout 0.0`);
    expect(q.stated.dropout).toBe(true);
    expect(q.notRead ?? []).toEqual([]);
  });
});
