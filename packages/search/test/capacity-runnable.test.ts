import { describe, expect, it } from 'vitest';
import { fewestNodes, trainOnNodes, type SearchBase } from '../src/index.ts';
import { runnableSizes } from '../src/capacity-runnable.ts';
import { itIsTheFewestMeeting } from './fewest-checks.ts';
import { smallBase } from './fixtures.ts';

/**
 * The 1.3B GPT at a fixed batch of 135 sequences (3³ × 5): a data-parallel size must divide 135, so past the sizes one
 * replica fills (TP · CP · PP ≤ 16 · 8 · 24 GPUs) only sizes of 3, 5, 9, 15, 27, 45 or 135 replicas run at all.
 */
const base: SearchBase = { ...smallBase, globalBatchSize: 135 };
const TOKENS = 1e10;
const HOUR = 3600;

describe('fewestNodes: a fixed batch that few sizes divide, and a deadline the replica families of the shapes found miss', () => {
  // 0.4 hours: the families of the fastest sizes' shapes answered 2,340 nodes; a size of another shape, far fewer.
  const deadline = 0.4 * HOUR;
  const a = fewestNodes(base, TOKENS, { deadlineSeconds: deadline });

  itIsTheFewestMeeting(base, TOKENS, deadline, () => a);
});

describe('runnableSizes', () => {
  it('lists every size on which a plan runs (a size left out runs nothing), and few past one replica\'s reach', () => {
    const [from, to] = [390, 470];
    const listed = new Set(runnableSizes(base, {}, { fromNodes: from, toNodes: to }));
    for (let n = from; n <= to; n++) {
      if (trainOnNodes(base, n, TOKENS) !== undefined) expect(listed.has(n), `${n} nodes runs a plan`).toBe(true);
    }
    // 8N GPUs = DP · TP · CP · PP with DP | 135 and TP ≤ 16, CP ≤ 8, PP ≤ 24 (TP · CP · PP ≤ 3,072 GPUs = 384 nodes):
    // past 384 nodes DP ≥ 3, so a size is 3, 5, 9, … replicas of a model-parallel group: 400 nodes = 5 × 640 GPUs
    // (TP 16 · CP 8 · PP 5) runs; 401 (a prime) and 448 (no odd factor: DP 1, 3,584 GPUs, more than one group holds) cannot.
    expect(listed.has(400)).toBe(true);
    expect(listed.has(401)).toBe(false);
    expect(listed.has(448)).toBe(false);
    expect(listed.size).toBeLessThan((to - from + 1) / 2);
  });
});
