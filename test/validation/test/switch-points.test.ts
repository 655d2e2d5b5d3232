import { describe, expect, it } from 'vitest';
import { MB } from '@trainplan/units';
import { bandTolerance as tolerance, candidateGap, choiceAt, modelSwitchBytes, SWITCH_POINTS } from '../src/switch-points-section.ts';

/**
 * Reference §7.9(h): the sizes where NCCL's model switches. At each quoted size the two candidates'
 * predicted times must be within §7.9's tolerance on a prediction of that size (the report's
 * verdict), and the choice must flip the right way across it (the earlier candidate at half the
 * size, the later at twice). The one point past tolerance is listed and held at its measured gap.
 * Where the model switches is held too, as a regression guard: measured 1–13% below the quoted sizes
 * (docs/validation.md), guarded at 15%.
 */
const KNOWN_MISSES: Readonly<Record<string, number>> = {
  '16 × DGX A100: Tree/LL → Tree/LL128': 0.21, // measured 20.3%: the model switches at 0.26 MB
};
const choice = (p: (typeof SWITCH_POINTS)[number], bytes: number) => choiceAt(p.fabric(), p.group, bytes);
const POSITION_GUARD = 0.15;

describe('NCCL switch points of reference §7.9(h)', () => {
  it.each(SWITCH_POINTS.map((p) => [p.what, p] as const))('%s', (what, p) => {
    const bytes = MB(p.quotedMB);
    const gap = candidateGap(p, p.fabric(), bytes);
    const guard = KNOWN_MISSES[what];
    if (guard === undefined) {
      expect(gap).toBeLessThanOrEqual(tolerance(bytes));
    } else {
      expect(gap).toBeGreaterThan(tolerance(bytes)); // met now: take it off the list
      expect(gap).toBeLessThanOrEqual(guard);
    }
    expect(choice(p, bytes / 2)).toBe(p.from);
    expect(choice(p, bytes * 2)).toBe(p.to);
    expect(Math.abs(modelSwitchBytes(p, p.fabric()) / bytes - 1)).toBeLessThanOrEqual(POSITION_GUARD);
  });

  it('16 × DGX A100: the Tree → Ring handover lies between 108 MB (2% under the quoted 110) and 185 MB', () => {
    const p = SWITCH_POINTS.find((s) => s.to === 'ring/LL128' && s.from === 'tree/LL128')!;
    expect(choice(p, MB(108))).toBe('tree/LL128');
    expect(choice(p, MB(185))).toBe('ring/LL128');
  });
});
