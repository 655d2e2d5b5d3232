import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import type { AskParameters } from '../src/question.ts';

/**
 * Each on/off switch read in one grammar (lexicon/switch-words.ts, applied by parse/switches-read.ts applySwitch): said on,
 * planned on; said off, planned off (the emulator's off is the closed form, the default: nothing set); said twice, on and off,
 * the first planned and the other said as contradicting it, in either order; said both ways at once, said, nothing set.
 */
const BASE = 'how long to train llama3-70b on 2T tokens on 64 H100 nodes with tp 8 pp 4';

type Field = 'overlapTensorParallelComm' | 'overlapGradReduce' | 'overlapPipelineComm' | 'scatterGather' | 'dropout' | 'attentionKernel' | 'emulate';

/** Each switch: its field, its words on and off, and the values planned on and off (undefined: nothing set). */
const SWITCHES: readonly { field: Field; on: string; off: string; planned: readonly [on: AskParameters[Field], off: AskParameters[Field]] }[] = [
  { field: 'overlapTensorParallelComm', on: 'with tp comm overlap', off: 'no tp comm overlap', planned: [true, false] },
  { field: 'overlapGradReduce', on: 'with overlap grad reduce', off: 'without overlap grad reduce', planned: [true, false] },
  { field: 'overlapPipelineComm', on: 'overlap p2p on', off: 'overlap p2p off', planned: [true, false] },
  { field: 'scatterGather', on: 'with scatter gather', off: 'no scatter gather', planned: [true, false] },
  { field: 'dropout', on: 'with dropout', off: 'no dropout', planned: [true, false] },
  { field: 'attentionKernel', on: 'with flash attention', off: 'without flash attention', planned: ['flash', 'unfused'] },
  { field: 'emulate', on: 'emulated', off: 'not emulated', planned: [true, undefined] },
];

const contradicting = (other: string, planned: string) => [{ phrase: `"${other}"`, why: `contradicts "${planned}", which is planned; say one` }];

describe.each(SWITCHES)('$field', ({ field, on, off, planned }) => {
  it(`"${on}": on, nothing said not read`, () => {
    const q = parse(`${BASE}, ${on}`);
    expect(q.stated[field]).toBe(planned[0]);
    expect(q.notRead ?? []).toEqual([]);
  });

  it(`"${off}": off, nothing said not read`, () => {
    const q = parse(`${BASE}, ${off}`);
    expect(q.stated[field]).toBe(planned[1]);
    expect(q.notRead ?? []).toEqual([]);
  });

  it(`"${on}, ${off}": on planned, the off said as contradicting it`, () => {
    const q = parse(`${BASE}, ${on}, ${off}`);
    expect(q.stated[field]).toBe(planned[0]);
    expect(q.notRead).toEqual(contradicting(off, on));
  });

  it(`"${off}, ${on}": off planned, the on said as contradicting it`, () => {
    const q = parse(`${BASE}, ${off}, ${on}`);
    expect(q.stated[field]).toBe(planned[1]);
    expect(q.notRead).toEqual(contradicting(on, off));
  });
});

describe('the emulator read as every switch is', () => {
  it.each(['emulation off', 'emulated: no'])('"%s": the closed form, as "not emulated" (read apart, it ran the emulator)', (phrase) => {
    const q = parse(`${BASE}, ${phrase}`);
    expect(q.stated.emulate).toBeUndefined();
    expect(q.notRead ?? []).toEqual([]);
    expect(ask(`all-reduce 1 GB on 64 H100 ${phrase}`, { publicUrl: null }).headline).toBe(ask('all-reduce 1 GB on 64 H100', { publicUrl: null }).headline);
  });

  it('"with and without the emulator": said as asked both ways, the closed form planned', () => {
    const q = parse(`${BASE}, with and without the emulator`);
    expect(q.stated.emulate).toBeUndefined();
    expect(q.notRead).toEqual([{ phrase: '"with and without the emulator"', why: expect.stringMatching(/^asks it both on and off/) }]);
  });

  it('"not emulated, emulated" on a stated layout: its scenario costs collectives in closed form, as planned (read apart, emulated)', () => {
    expect(ask(`${BASE}, not emulated, emulated`, { publicUrl: null }).scenario?.cluster.communicationModel).not.toBe('emulated');
    expect(ask(`${BASE}, emulated`, { publicUrl: null }).scenario?.cluster.communicationModel).toBe('emulated');
  });
});
