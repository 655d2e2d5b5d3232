import { describe, expect, it } from 'vitest';
import { progressBar } from '../../src/format/progress-bar.ts';
import { fakeIo } from '../support/fake-io.ts';

const draws = (err: string): string[] => err.split('\r').filter((s) => s.trim() !== '');

describe('progressBar', () => {
  it('draws nothing unless stderr is a terminal', () => {
    const io = fakeIo();
    const bar = progressBar(io, 'searching');
    bar.note('x');
    bar.onProgress(1, 2);
    bar.done();
    expect(io.err()).toBe('');
  });

  it('redraws at most 41 times for a pass, however many reports, and only forwards', () => {
    const io = { ...fakeIo(), stderrIsTTY: true };
    const bar = progressBar(io, 'searching');
    for (let i = 0; i <= 10_000; i++) bar.onProgress(i, 10_000);
    bar.onProgress(5_000, 10_000);
    expect(draws(io.err())).toHaveLength(41);
    expect(draws(io.err()).at(-1)).toBe(`searching [${'#'.repeat(30)}] 100%`);
  });

  it('a note starts a new pass from 0%, and a shorter line blanks what the longer one left', () => {
    const io = { ...fakeIo(), stderrIsTTY: true };
    const bar = progressBar(io, 'sizing');
    bar.note('128 nodes (cluster size 8)');
    bar.onProgress(1, 1);
    bar.note('96 nodes (cluster size 9)');
    const last = io.err().split('\r').at(-1)!;
    expect(last.trimEnd()).toBe(`sizing 96 nodes (cluster size 9) [${'.'.repeat(30)}] 0%`);
    expect(last.length).toBe(`sizing 128 nodes (cluster size 8) [${'#'.repeat(30)}] 100%`.length);
    bar.done();
    expect(io.err().endsWith(`\r${' '.repeat(last.length)}\r`)).toBe(true);
  });
});
