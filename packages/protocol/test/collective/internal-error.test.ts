import { describe, expect, it, vi } from 'vitest';
import { runCollective } from '../../src/index.ts';

// A cost past the bandwidth bound is a bug of the model (collectives bandwidth-bound.ts throws a plain Error for it), where
// an algorithm the machine lacks is a RangeError. QA: the bound's error came back as `unavailable` on `algorithm`, and
// the CLI printed it as "--algorithm: internal: …", exit 1.
vi.mock('@trainplan/collectives', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@trainplan/collectives')>();
  return {
    ...actual,
    collectiveCost: (request: Parameters<typeof actual.collectiveCost>[0]) => {
      if (request.algorithm === 'hierarchical') throw new Error('the collective cost model passed its own bandwidth bound');
      return actual.collectiveCost(request);
    },
  };
});

describe('runCollective and an internal error of the cost model', () => {
  it('rethrows it, never answering it as an algorithm the machine cannot run', () => {
    expect(() => runCollective({ op: 'all-reduce', gpu: 'v100-32gb', nodes: 2, algorithm: 'hierarchical', size: 1 << 30 }))
      .toThrow(/^the collective cost model passed its own bandwidth bound$/);
  });
  it('still answers an algorithm the machine lacks (a RangeError) as unavailable, on algorithm', () => {
    const r = runCollective({ op: 'all-reduce', gpu: 'a100-80gb', algorithm: 'nvls', size: 1 << 30 });
    expect(r).toMatchObject({ ok: false, reason: 'unavailable', issues: [{ path: 'algorithm' }] });
  });
});
