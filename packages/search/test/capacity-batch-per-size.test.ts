import { describe, expect, it } from 'vitest';
import { fewestNodes, trainOnNodes, type CapacityOptions } from '../src/index.ts';
import { smallBase } from './fixtures.ts';

const DAY = 86_400;
const TOKENS = 100e9;
const DEADLINE = 0.5 * DAY;

/**
 * A batch per size as the CLI's and the chat bot's default is: about 256 sequences, a multiple of the data-parallel
 * size left when model parallelism takes the largest power of two (≤ 64) dividing the GPUs (so 5 nodes take 240, 7 take 252).
 */
function batchFor(nodes: number): number {
  const gpus = nodes * smallBase.gpusPerNode;
  let modelParallel = 1;
  while (modelParallel < 64 && gpus % (modelParallel * 2) === 0) modelParallel *= 2;
  const step = gpus / modelParallel;
  return step * Math.max(1, Math.round(256 / step));
}

describe('fewestNodes with a batch per size (globalBatchFor)', () => {
  const options: CapacityOptions = { globalBatchFor: batchFor };
  const a = fewestNodes(smallBase, TOKENS, { deadlineSeconds: DEADLINE }, options);
  if (!a.ok) throw new Error(a.message);

  it('answers a size that meets the deadline as that size alone answers it, at its own batch', () => {
    const own = trainOnNodes(smallBase, a.nodes, TOKENS, options)!;
    expect(a.globalBatchSize).toBe(batchFor(a.nodes));
    expect(own.seconds).toBe(a.seconds);
    expect(own.seconds).toBeLessThanOrEqual(DEADLINE);
  });

  it('rejects no smaller size checked that meets the deadline at its own batch, and counts those that run nothing', () => {
    const checked = a.checked!;
    expect(checked.fromNodes).toBeLessThan(a.nodes);
    let noPlan = 0;
    for (let n = checked.fromNodes; n < a.nodes; n++) {
      const p = trainOnNodes(smallBase, n, TOKENS, options);
      if (p) expect(p.seconds, `${n} nodes`).toBeGreaterThan(DEADLINE);
      else noPlan += 1;
    }
    expect(noPlan).toBe(checked.noPlan);
  });

  it('the peak-FLOPs floor holds though each size trains its own whole steps: the size below it misses the deadline', () => {
    const checked = a.checked!;
    if (!checked.complete || checked.fromNodes === 1) return;
    const below = trainOnNodes(smallBase, checked.fromNodes - 1, TOKENS, options);
    if (below) expect(below.seconds).toBeGreaterThan(DEADLINE);
  });

  it('differs from one batch at every size only in the batch: without globalBatchFor every size takes the base\'s', () => {
    const fixed = fewestNodes(smallBase, TOKENS, { deadlineSeconds: DEADLINE });
    if (!fixed.ok) throw new Error(fixed.message);
    expect(fixed.globalBatchSize).toBe(smallBase.globalBatchSize);
  });
});
