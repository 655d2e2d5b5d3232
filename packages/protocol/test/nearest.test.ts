import { describe, expect, it } from 'vitest';
import { MODEL_IDS } from '@trainplan/presets';
import { editDistance, nearest, nearestAll } from '../src/nearest.ts';

const FLAGS = ['model', 'gpu', 'gpus', 'gpus-per-node', 'nodes', 'global-batch', 'seq-length', 'tensor', 'top', 'tokens', 'json'];

describe('editDistance', () => {
  it.each([
    ['model', 'model', 0],
    ['modle', 'model', 1], // one transposition
    ['global-bach', 'global-batch', 1],
    ['gpu', 'gpus', 1],
    ['kitten', 'sitting', 3], // the textbook Levenshtein pair
    ['', 'top', 3],
  ])('%j → %j is %i edits', (a, b, edits) => {
    expect(editDistance(a, b)).toBe(edits);
    expect(editDistance(b, a)).toBe(edits);
  });

  /** The distance by its definition: the whole (|a|+1) × (|b|+1) table, every cell the cheapest of its edits (Damerau 1964). */
  function byTable(a: string, b: string): number {
    const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        const options = [d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)];
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) options.push(d[i - 2]![j - 2]! + 1);
        d[i]![j] = Math.min(...options);
      }
    }
    return d[a.length]![b.length]!;
  }

  it('with a bound, the distance where it is within it and one more than the bound where not, as the whole table says, for every pair', () => {
    // Every string of up to 5 letters over {a, b, c} (364), each against a seventh of them, with bounds 0 to 3.
    const words = [''];
    for (let n = 0; words.length < 364; n++) for (const c of 'abc') words.push(words[n] + c);
    const wrong: unknown[] = [];
    for (const a of words) {
      for (const b of words.filter((_, k) => k % 7 === a.length)) {
        const exact = byTable(a, b);
        if (editDistance(a, b) !== exact) wrong.push([a, b, exact, editDistance(a, b)]);
        for (const bound of [0, 1, 2, 3]) if (editDistance(a, b, bound) !== Math.min(exact, bound + 1)) wrong.push([a, b, bound, editDistance(a, b, bound)]);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('strings whose lengths differ by more than the bound are past it (each edit changes the length by at most one)', () => {
    expect(editDistance('x'.repeat(1_000_000), 'gpt3-175b', 2)).toBe(3);
    expect(editDistance('gpt3-175b', 'x'.repeat(1_000_000), 2)).toBe(3);
  });
});

describe('nearest', () => {
  it.each([
    ['modle', 'model'],
    ['global_batch', 'global-batch'],
    ['globalbatch', 'global-batch'],
    ['Model', 'model'],
    ['node', 'nodes'],
    ['seq-len', 'seq-length'], // the only flag it begins
    ['gpus-per-nodes', 'gpus-per-node'],
  ])('%j → %j', (typed, meant) => {
    expect(nearest(typed, FLAGS)).toBe(meant);
  });

  it.each([
    'frobnicate', // near nothing
    'tp', // two letters: too short to be one edit from "top" and not mean something else
    'gpux', // one edit from both gpu and gpus: which is meant cannot be said
    'to', // begins both top and tokens
  ])('%j suggests nothing', (typed) => {
    expect(nearest(typed, FLAGS)).toBeUndefined();
  });
});

describe('a typed word much longer than every known name', () => {
  /** The fastest of five runs, in ms (the first warms up). */
  const fastest = (f: () => void): number => Math.min(...Array.from({ length: 5 }, () => {
    const start = performance.now();
    f();
    return performance.now() - start;
  }));

  it('is a slip of none, and is answered in about the time a word of their length is (QA: a 1 MB model id took 79 s)', () => {
    const huge = 'x'.repeat(100_000);
    expect(nearestAll(huge, MODEL_IDS)).toEqual([]);
    expect(nearestAll(`${MODEL_IDS[0]!}${huge}`, MODEL_IDS)).toEqual([]);
    // Generous: 20 times the time of a word as long as the longest name (each name compared); the whole tables took 6 s
    // for these 100,000 letters.
    const asLong = 'y'.repeat(Math.max(...MODEL_IDS.map((id) => id.length)));
    const ids = fastest(() => nearestAll(asLong, MODEL_IDS));
    expect(fastest(() => nearestAll(huge, MODEL_IDS)) / ids).toBeLessThan(20);
  });
});
