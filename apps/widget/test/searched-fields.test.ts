import { runSearch, type ScenarioInput } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VALUES, FIELDS, type FieldValues } from '../src/form/fields.ts';
import { scenarioFromFields } from '../src/form/scenario-from-fields.ts';
import { SEARCHED_FIELDS, searchedChanges, withSearched } from '../src/form/searched-fields.ts';

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

  it('says what the search changed in the form, by label in the form\'s order, a checkbox as on or off, and nothing when it changed nothing', () => {
    const before: FieldValues = { ...DEFAULT_VALUES, auto: 'true' };
    const after = { ...before, tp: '2', pp: '16', sp: 'true', recompute: 'selective', mbs: '2' };
    expect(searchedChanges(before, after)).toBe('Micro-batch 2, Recompute selective, Tensor (t) 2, Pipeline (p) 16, Sequence parallel on');
    expect(searchedChanges(after, { ...after, sp: 'false' })).toBe('Sequence parallel off');
    expect(searchedChanges(before, before)).toBe('');
    // Only what the search chooses: a field it does not choose is never said, even when it differs.
    expect(searchedChanges(before, { ...before, gpu: 'h100-sxm' })).toBe('');
    // The real search's plan: each field it chose is named exactly when it changed.
    const found = withSearched(before, best);
    const said = searchedChanges(before, found);
    expect(said).not.toBe('');
    for (const f of FIELDS.filter((x) => SEARCHED_FIELDS.includes(x.name))) expect(said.includes(`${f.label} `), f.name).toBe(found[f.name] !== before[f.name]);
  });
});
