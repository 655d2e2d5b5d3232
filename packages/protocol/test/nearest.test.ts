import { describe, expect, it } from 'vitest';
import { editDistance, nearest } from '../src/nearest.ts';

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
