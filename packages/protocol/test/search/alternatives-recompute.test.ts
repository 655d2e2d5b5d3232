import { describe, expect, it } from 'vitest';
import { runSearch } from '../../src/index.ts';

describe('an alternative that must recompute more layers to fit says so in its change', () => {
  // Llama 3.1 405B on 24 H100 nodes at 512 sequences: the best plan recomputes 3 layers per stage (partial full recompute);
  // its neighbours need more to fit, which is most of what they cost.
  const a = runSearch({ model: 'llama3.1-405b', cluster: { gpu: 'h100-sxm', nodes: 24 }, training: { globalBatchSize: 512 } });
  if (!a.ok) throw new Error(a.message);
  const bestLayers = a.best.scenario.parallelism!.recomputeLayers;
  it('the premise: the best plan recomputes part of its layers', () => {
    expect(a.best.scenario.parallelism!.recompute).toBe('full');
    expect(bestLayers).toBeGreaterThan(0);
  });
  it('each alternative whose plan recomputes another count names it: "(recomputing N layers/stage, not M, to fit)"', () => {
    const refit = a.alternatives.filter((x) => x.scenario !== undefined && x.scenario.parallelism!.recompute === 'full'
      && x.scenario.parallelism!.recomputeLayers !== undefined && x.scenario.parallelism!.recomputeLayers !== bestLayers);
    expect(refit.length).toBeGreaterThan(0);
    for (const x of refit) expect(x.change).toContain(`(recomputing ${x.scenario!.parallelism!.recomputeLayers} layers/stage, not ${bestLayers}, to fit)`);
    // One that keeps the best plan's count says nothing of it.
    for (const x of a.alternatives.filter((y) => y.scenario?.parallelism?.recomputeLayers === bestLayers)) expect(x.change).not.toContain('to fit');
  });
});
