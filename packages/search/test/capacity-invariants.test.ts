import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billion } from '@trainplan/units';
import { fewestNodes, type CapacityAnswer } from '../src/index.ts';
import { gpt3Base } from './fixtures.ts';

// fewestNodes is a scan with bounds, not a bisection (time to train is not monotone in the nodes), so what must
// hold is that its answer is the true minimum; two consequences a user relies on, checked on random goals:
// an easier goal never needs more nodes. Each call searches a few dozen sizes of GPT-3 175B (~0.3 s), so few runs.
const DAY = 86_400;
const RUNS = { numRuns: 6, seed: 20261125 };

const nodesFor = (tokens: number, days: number): number | undefined => {
  const a: CapacityAnswer = fewestNodes(gpt3Base, tokens, { deadlineSeconds: days * DAY });
  return a.ok ? a.nodes : undefined;
};

describe('fewestNodes invariants (GPT-3 175B on DGX A100, batch 1536)', () => {
  it('a later deadline never needs more nodes', () => {
    fc.assert(fc.property(fc.integer({ min: 3, max: 120 }), fc.integer({ min: 1, max: 60 }), (days, later) => {
      const tight = nodesFor(billion(300), days);
      const loose = nodesFor(billion(300), days + later);
      expect(loose).toBeDefined();
      if (tight !== undefined && loose !== undefined) expect(loose).toBeLessThanOrEqual(tight);
    }), RUNS);
  });

  it('more tokens by the same deadline never need fewer nodes', () => {
    fc.assert(fc.property(fc.integer({ min: 20, max: 300 }), fc.integer({ min: 1, max: 300 }), (billions, more) => {
      const fewer = nodesFor(billion(billions), 30);
      const larger = nodesFor(billion(billions + more), 30);
      expect(fewer).toBeDefined();
      if (fewer !== undefined && larger !== undefined) expect(larger).toBeGreaterThanOrEqual(fewer);
    }), RUNS);
  });
});
