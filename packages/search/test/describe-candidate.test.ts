import { describe, expect, it } from 'vitest';
import { describeCandidate, searchPlans } from '../src/index.ts';
import { llama70bBase } from './fixtures.ts';

describe('describeCandidate', () => {
  const best = searchPlans(llama70bBase, { top: 1 }).top[0]!.candidate;
  it('counts recomputed layers in the singular for one and the plural otherwise', () => {
    expect(describeCandidate({ ...best, recompute: 'full', recomputeLayers: 1 })).toContain('full recompute of 1 layer/stage');
    expect(describeCandidate({ ...best, recompute: 'full', recomputeLayers: 4 })).toContain('full recompute of 4 layers/stage');
  });
});
