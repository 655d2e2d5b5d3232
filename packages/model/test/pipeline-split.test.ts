import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layersPerStage, pipelineSplit, slotsOf, slotsTaken, splitsIntoChunks, PIPELINE_SLOTS, SLOT_INDEX } from '../src/index.ts';

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

describe('pipelineSplit with the embedding and the loss counted as layers (Megatron-Core account_for_*_in_pipeline_split)', () => {
  it('Llama 3 405B: 126 layers + embedding + loss = 128 slots on 16 stages of 8: the first and last stage hold 7 layers', () => {
    const split = pipelineSplit(126, 16, 'embedding-and-loss')!;
    expect(split.stages).toEqual([7, ...Array(14).fill(8), 7]);
    expect(split).toMatchObject({ first: 7, middle: 8, last: 7, uneven: false, slots: 'embedding-and-loss' });
  });

  it('the same layer counts as the uneven split of the layers alone, but it interleaves: 128 slots make 16 × 8 chunks of one', () => {
    const alone = pipelineSplit(126, 16)!;
    const counted = pipelineSplit(126, 16, 'embedding-and-loss')!;
    expect(counted.stages).toEqual(alone.stages);
    // The layers alone: 7 layers on the first stage do not split into 2 equal chunks (TransformerConfig's rule).
    expect(splitsIntoChunks(alone, 2)).toBe(false);
    for (const v of [2, 4, 8]) expect(splitsIntoChunks(counted, v)).toBe(true);
    // 128 slots do not make 16 × 16 chunks, nor 16 × 3.
    expect(splitsIntoChunks(counted, 16)).toBe(false);
    expect(splitsIntoChunks(counted, 3)).toBe(false);
  });

  it('Llama 3.1 405B on 8 stages (Megatron-Bridge\'s recipe, PP 8 · VPP 2): 16 slots a stage, 15 layers on the first and last', () => {
    const split = pipelineSplit(126, 8, 'embedding-and-loss')!;
    expect(split.stages).toEqual([15, 16, 16, 16, 16, 16, 16, 15]);
    expect(splitsIntoChunks(split, 2)).toBe(true);
  });

  it('counting only the loss gives its slot to the last stage; only the embedding, to the first', () => {
    expect(pipelineSplit(95, 8, 'loss')!.stages).toEqual([12, 12, 12, 12, 12, 12, 12, 11]);
    expect(pipelineSplit(95, 8, 'embedding')!.stages).toEqual([11, 12, 12, 12, 12, 12, 12, 12]);
    expect(pipelineSplit(95, 2, 'loss')).toMatchObject({ first: 48, middle: 48, last: 47 });
  });

  it('has none when the slots do not divide over the stages (Megatron: "must be divisible") or the stages outnumber the layers', () => {
    expect(pipelineSplit(96, 8, 'embedding-and-loss')).toBeUndefined(); // 98 slots
    expect(pipelineSplit(96, 8, 'loss')).toBeUndefined(); // 97
    expect(pipelineSplit(4, 6, 'embedding-and-loss')).toBeUndefined(); // more stages than layers
    expect(pipelineSplit(2, 2, 'embedding-and-loss')!.stages).toEqual([1, 1]); // 4 slots, 2 a stage: a layer beside each
    expect(() => layersPerStage(96, 8, 'loss')).toThrow(RangeError);
  });

  it('every split it gives holds L layers, and p·k − e − l = L with the slots a stage k (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 2, max: 64 }), fc.constantFrom(...PIPELINE_SLOTS), (L, p, slots) => {
      const split = pipelineSplit(L, p, slots);
      if (split === undefined) return;
      const { embedding, loss } = slotsTaken(slots);
      expect(split.stages.reduce((a, b) => a + b, 0)).toBe(L);
      expect(Math.min(...split.stages)).toBeGreaterThanOrEqual(1);
      if (slots === 'layers') return;
      const k = (L + (embedding ? 1 : 0) + (loss ? 1 : 0)) / p;
      expect(split.stages[0]).toBe(k - (embedding ? 1 : 0));
      expect(split.stages[p - 1]).toBe(k - (loss ? 1 : 0));
      expect(split.stages.slice(1, -1).every((n) => n === k)).toBe(true);
    }), { numRuns: 2000, seed: 11 });
  });

  it('SLOT_INDEX numbers the layouts 0–3 in PIPELINE_SLOTS\'s order, so memo keys of different layouts never meet', () => {
    expect(PIPELINE_SLOTS.map((slots) => SLOT_INDEX[slots])).toEqual([0, 1, 2, 3]);
    // The same (L, p) under another layout is another split, not a memoised one.
    expect(pipelineSplit(126, 16, 'embedding-and-loss')!.slots).toBe('embedding-and-loss');
    expect(pipelineSplit(126, 16)!.slots).toBe('layers');
  });

  it('slotsOf and slotsTaken are inverse: Megatron\'s two flags and one id', () => {
    for (const slots of PIPELINE_SLOTS) {
      const { embedding, loss } = slotsTaken(slots);
      expect(slotsOf(embedding, loss)).toBe(slots);
    }
  });
});
