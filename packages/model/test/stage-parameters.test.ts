import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layersPerStage, pipelineSplit } from '../src/index.ts';

/**
 * Megatron-Core's checks on an uneven split (megatron/core/transformer/transformer_config.py, "Uneven PP"):
 * first and last "must be larger than 0", the layers left "must be divisible by the middle pipeline model
 * parallel size", and with no middle stage none may be left. Stated here on their own, from the source.
 */
function megatronAccepts(layers: number, stages: readonly number[]): boolean {
  const p = stages.length;
  if (p === 1) return stages[0] === layers;
  const first = stages[0]!;
  const last = stages[p - 1]!;
  const middle = stages.slice(1, -1);
  const left = layers - first - last;
  if (first <= 0 || last <= 0) return false;
  if (p === 2) return left === 0;
  return left > 0 && left % (p - 2) === 0 && middle.every((n) => n === left / (p - 2));
}

describe('pipelineSplit: the layer split Megatron-Core can express', () => {
  it('96 layers on 25 stages: middle stages ⌈96/25⌉ = 4, and 96 − 23·4 = 4 left: first 2, last 2', () => {
    const split = pipelineSplit(96, 25)!;
    expect(split).toMatchObject({ first: 2, middle: 4, last: 2, uneven: true });
    expect(split.stages).toEqual([2, ...Array(23).fill(4), 2]);
    expect(layersPerStage(96, 25)).toEqual(split.stages);
  });

  it.each([
    // [layers, stages, first, middle, last]: middle b = ⌈L/p⌉, r = L − (p − 2)·b, first ⌈r/2⌉, last ⌊r/2⌋.
    [10, 4, 2, 3, 2], // b 3, r 10 − 6 = 4
    [30, 4, 7, 8, 7], // b 8, r 30 − 16 = 14
    [80, 6, 12, 14, 12], // b 14, r 80 − 56 = 24
    [100, 7, 13, 15, 12], // b 15, r 100 − 75 = 25
  ])('%i layers on %i stages: first %i, middle %i, last %i', (L, p, first, middle, last) => {
    expect(pipelineSplit(L, p)).toMatchObject({ first, middle, last, uneven: true });
    expect(megatronAccepts(L, pipelineSplit(L, p)!.stages)).toBe(true);
  });

  it('puts the extra layer of an odd count on the first of 2 stages (the last also computes the logits)', () => {
    expect(pipelineSplit(7, 2)!.stages).toEqual([4, 3]);
    expect(megatronAccepts(7, [4, 3])).toBe(true);
  });

  it('is the even split when the stages divide the layers, needing no first/last flags', () => {
    expect(pipelineSplit(96, 8)).toMatchObject({ first: 12, middle: 12, last: 12, uneven: false });
    expect(pipelineSplit(105, 35)!.stages).toEqual(Array(35).fill(3));
    expect(pipelineSplit(40, 1)).toMatchObject({ stages: [40], uneven: false });
  });

  it('has none when ⌈L/p⌉ on every middle stage leaves the first or last stage empty (96 on 26: 24·4 = 96)', () => {
    expect(pipelineSplit(96, 26)).toBeUndefined();
    expect(pipelineSplit(7, 6)).toBeUndefined(); // 4·2 = 8 > 7
    expect(() => layersPerStage(96, 26)).toThrow(RangeError);
  });

  it('has none for more stages than layers', () => {
    expect(pipelineSplit(4, 5)).toBeUndefined();
  });

  it('never spreads extra layers over some middle stages: Megatron accepts every split it gives (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 200 }), (L, p) => {
      const split = pipelineSplit(L, p);
      if (split === undefined) return;
      expect(split.stages).toHaveLength(p);
      expect(split.stages.reduce((a, b) => a + b, 0)).toBe(L);
      expect(megatronAccepts(L, split.stages)).toBe(true);
      // The last stage, which also computes the logits, never holds more than the first.
      expect(split.last).toBeLessThanOrEqual(split.first);
      // No stage holds more than the middle ones: the slowest stage has the fewest layers it can, ⌈L/p⌉.
      expect(Math.max(...split.stages)).toBe(Math.ceil(L / p));
    }), { numRuns: 2000, seed: 7 });
  });
});
