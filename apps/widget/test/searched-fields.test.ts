import { runSearch, type ScenarioInput } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VALUES } from '../src/form/fields.ts';
import { scenarioFromFields } from '../src/form/scenario-from-fields.ts';
import { SEARCHED_FIELDS, withSearched } from '../src/form/searched-fields.ts';

describe('withSearched: the form after Auto', () => {
  const search = runSearch({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536, precision: 'bf16' }, objective: 'throughput', top: 1 });
  if (!search.ok) throw new Error(search.message);
  const best = search.best.scenario as ScenarioInput;

  it("takes the search's t, p, v, c, micro-batch, recompute and switches, and leaves the blank network and GPUs per node blank", () => {
    // The searched scenario states the machine it resolved: writing it in made the defaults the A100's.
    expect([best.cluster.network, best.cluster.gpusPerNode]).toEqual(['hdr-ib-8x', 8]);
    const values = withSearched({ ...DEFAULT_VALUES, auto: 'true' }, best);
    expect(values.network).toBe('');
    expect(values['gpus-per-node']).toBe('');
    const p = best.parallelism!;
    expect([values.tp, values.pp, values.vp, values.cp, values.mbs, values.recompute, values.sp, values.distopt])
      .toEqual([p.tensor, p.pipeline, p.virtualStages, p.context, best.training.microBatchSize, p.recompute, p.sequenceParallel, p.distributedOptimizer].map(String));
    const changed = Object.keys(values).filter((k) => values[k] !== DEFAULT_VALUES[k] && k !== 'auto');
    expect(changed.every((k) => SEARCHED_FIELDS.includes(k))).toBe(true);
  });

  it('unticked and moved to a GB200, the form is a valid scenario on its own node size (no 8 GPUs per node asked of an NVL72)', () => {
    const r = scenarioFromFields({ ...withSearched(DEFAULT_VALUES, best), gpu: 'gb200' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.scenario.cluster).toEqual({ gpu: 'gb200', nodes: 128 });
  });
});
