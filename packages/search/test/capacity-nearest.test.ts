import { describe, expect, it } from 'vitest';
import { NEAREST_WINDOW, nearestRunning, trainOnNodes } from '../src/index.ts';
import { gpt3Base } from './fixtures.ts';

const TOKENS = 300e9;
const runs = (n: number, base = gpt3Base) => trainOnNodes(base, n, TOKENS) !== undefined;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('nearestRunning: the nearest cluster size that runs, for GPT-3 175B at batch 1536 on DGX A100', () => {
  it('a tie goes to fewer nodes: 116 nodes run nothing, 112 and 120 (four away each) do, and 112 is the answer, with 120 beside it', () => {
    expect(runs(116)).toBe(false);
    for (const n of [...range(113, 115), ...range(117, 119)]) expect(runs(n), `${n} nodes`).toBe(false);
    expect(runs(112)).toBe(true);
    expect(runs(120)).toBe(true);
    const near = nearestRunning(gpt3Base, TOKENS, 116);
    expect(near.nearest?.nodes).toBe(112);
    expect(near.larger?.nodes).toBe(120);
    expect(near.smaller).toBeUndefined();
    expect(near.outsideWindow).toBeUndefined();
  });

  it('a strictly nearer larger size is the answer, with the nearest smaller that runs beside it: 125 nodes → 128, and 120', () => {
    for (const n of [...range(121, 124), 126, 127]) expect(runs(n), `${n} nodes`).toBe(false);
    expect(runs(128)).toBe(true);
    expect(runs(120)).toBe(true);
    const reported: [number, number][] = [];
    const near = nearestRunning(gpt3Base, TOKENS, 125, { onClusterSize: (n, before) => reported.push([n, before]) });
    expect(near.nearest?.nodes).toBe(128);
    expect(near.smaller?.nodes).toBe(120);
    expect(near.larger).toBeUndefined();
    // Each size once: 122–124 and 126–128 by the walk, then 121 and 120 below (122–124 are remembered).
    const sizes = [...range(120, 124), ...range(126, 128)];
    expect(near.searches).toBe(sizes.length);
    expect(reported.map(([n]) => n).sort((a, b) => a - b)).toEqual(sizes);
    expect(reported.map(([, before]) => before)).toEqual(range(0, sizes.length - 1));
  });

  it('nothing in the window runs: the smallest cluster the model fits on (a batch of one leaves DP 1, so TP × PP × CP must use every GPU)', () => {
    const one = { ...gpt3Base, globalBatchSize: 1 };
    const asked = 2000;
    for (const n of range(asked - NEAREST_WINDOW, asked + NEAREST_WINDOW)) expect(runs(n, one), `${n} nodes`).toBe(false);
    const near = nearestRunning(one, TOKENS, asked);
    const fewest = near.nearest!.nodes;
    expect(runs(fewest, one)).toBe(true);
    for (const n of range(1, fewest - 1)) expect(runs(n, one), `${n} nodes`).toBe(false);
    expect(near.smaller).toBeUndefined();
    // Said as what it is: the fewest nodes that run, found outside the window, not the nearest.
    expect(near.outsideWindow).toBe(true);
  });
});
