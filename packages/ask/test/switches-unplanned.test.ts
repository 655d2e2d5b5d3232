import { describe, expect, it } from 'vitest';
import { parse } from '../src/parse.ts';

/** A training switch asked of an answer that plans no training run is said not read, never dropped (parse/switches-planned.ts). */
describe('training switches beside serving or a collective', () => {
  it('serving: each said a training setting', () => {
    const q = parse('serve llama3-70b on 8 h100 with tp comm overlap and gpipe');
    expect(q.intent).toBe('serving');
    expect(q.notRead).toEqual([
      { phrase: '"with tp comm overlap"', why: 'a training setting: the serving plan does not take it' },
      { phrase: '"gpipe"', why: 'a training setting: the serving plan does not take it' },
    ]);
  });
  it('a collective: the emulator is its own, a training switch is said', () => {
    const q = parse('all-reduce 1 GB on 64 H100 emulated without flash attention');
    expect(q.stated.emulate).toBe(true);
    expect(q.notRead).toEqual([{ phrase: '"without flash attention"', why: 'a training setting: a collective plans no training run' }]);
  });
});
