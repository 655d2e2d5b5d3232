import { expect, it } from 'vitest';
import { trainOnNodes, type CapacityAnswer, type SearchBase } from '../src/index.ts';

/**
 * The two checks a fewest-nodes answer to a deadline must pass, each size planned alone (trainOnNodes): the size
 * answered meets the deadline as the search said, and every smaller size, searched one by one, misses it or runs nothing.
 */
export function itIsTheFewestMeeting(base: SearchBase, tokens: number, deadlineSeconds: number, answer: () => CapacityAnswer): void {
  it('answers a size that meets it, as that size alone is planned', () => {
    const a = answer();
    if (!a.ok) throw new Error(a.message);
    const again = trainOnNodes(base, a.nodes, tokens)!;
    expect(again.seconds).toBeLessThanOrEqual(deadlineSeconds);
    expect(again.seconds).toBeCloseTo(a.seconds, 6);
  });

  it('is the fewest: every smaller size, searched here one by one, misses it or runs nothing', () => {
    const a = answer();
    if (!a.ok) throw new Error(a.message);
    for (let n = 1; n < a.nodes; n++) {
      const p = trainOnNodes(base, n, tokens);
      expect(p === undefined || p.seconds > deadlineSeconds, `${n} nodes`).toBe(true);
    }
  });
}
