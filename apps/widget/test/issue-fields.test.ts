import { CONTRACT_EXAMPLE, runEstimate, validateScenario, type EstimateJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VALUES, FIELDS, type FieldValues } from '../src/form/fields.ts';
import { fieldForPath, fieldsForPath, issueAt, RULE_FIELDS } from '../src/form/issue-fields.ts';
import { scenarioFromFields } from '../src/form/scenario-from-fields.ts';

/** The protocol's issues for the form's `values` over the defaults (GPT-3 175B on 128 × 8 A100s, t 8 · p 8, batch 1,536 of 1). */
function issuesFor(values: FieldValues) {
  const r = scenarioFromFields({ ...DEFAULT_VALUES, ...values });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const e = runEstimate(r.scenario) as EstimateJson;
  if (e.ok) throw new Error(`expected ${JSON.stringify(values)} to be refused`);
  return e.issues ?? [];
}

const names = new Set(FIELDS.map((f) => f.name));

describe('fieldForPath', () => {
  it('maps every field the planner and the schema name to a field the form shows', () => {
    for (const path of ['parallelism.tensor', 'training.globalBatchSize', 'parallelism.virtualStages', 'parallelism.context', 'training.precision', 'cluster.gpu', 'model.layers']) {
      expect(names.has(fieldForPath(path))).toBe(true);
    }
    expect(fieldForPath('parallelism.recomputeLayers')).toBe('');
  });

  it('blames no one field for an issue about several (t × p × c against the GPUs): fieldsForPath names them all', () => {
    for (const path of ['parallelism', 'parallelism.data', '[0].parallelism']) {
      expect(fieldForPath(path)).toBe('');
      expect(fieldsForPath(path)).toEqual(['nodes', 'tp', 'pp', 'cp']);
      for (const name of fieldsForPath(path)) expect(names.has(name)).toBe(true);
    }
    expect(fieldsForPath('parallelism.tensor')).toEqual(['tp']);
    expect(fieldsForPath('parallelism.recomputeLayers')).toEqual([]);
  });
});

describe('issueAt: where the form shows an estimate\'s issue', () => {
  it('shows "GPUs not divisible by tensor × pipeline × context" on the nodes, t, p and c, not on t alone (t = 3 on 128 × 8 GPUs)', () => {
    expect(issuesFor({ tp: '3' }).map(issueAt)).toEqual([{ field: '', fields: ['nodes', 'tp', 'pp', 'cp'], message: expect.stringContaining('not divisible by tensor × pipeline × context') }]);
  });

  it('shows "global batch is not a multiple of micro-batch × data-parallel" on the global batch, the micro-batch, and the nodes, t, p and c that set data parallelism (1,000 over 16 ranks)', () => {
    const issues = issuesFor({ gbs: '1000' });
    expect(issues).toEqual([{ path: 'training.globalBatchSize', rule: 'batch-indivisible', message: expect.stringContaining('micro-batch × data-parallel = 1×16') }]);
    expect(issues.map(issueAt)).toEqual([{ field: '', fields: ['gbs', 'mbs', 'nodes', 'tp', 'pp', 'cp'], message: issues[0]!.message }]);
  });

  it('shows "the interleaved schedule needs the micro-batches per step in whole rounds" on v, p, the batches and what sets data parallelism (65 micro-batches over 8 stages, v = 2)', () => {
    const issues = issuesFor({ vp: '2', gbs: '1040' });
    expect(issues).toEqual([{ path: 'parallelism.virtualStages', rule: 'interleave-rounds', message: expect.stringContaining('(65) in whole rounds of the 8 pipeline stages') }]);
    expect(issues.map(issueAt)).toEqual([{ field: '', fields: ['vp', 'pp', 'gbs', 'mbs', 'nodes', 'tp', 'cp'], message: issues[0]!.message }]);
  });

  it("still shows the same paths' issues about one field beside that field alone (a global batch over the schema's bound; v = 2 with no pipeline)", () => {
    const valid = validateScenario({ ...CONTRACT_EXAMPLE, training: { ...CONTRACT_EXAMPLE.training, globalBatchSize: 2e9 } });
    if (valid.ok) throw new Error('expected a global batch of 2e9 to be refused');
    expect(valid.issues.map(issueAt)).toEqual([{ field: 'gbs', message: valid.issues[0]!.message }]);
    const noStages = validateScenario({ ...CONTRACT_EXAMPLE, parallelism: { ...CONTRACT_EXAMPLE.parallelism, virtualStages: 0 } });
    if (noStages.ok) throw new Error('expected 0 virtual stages to be refused');
    expect(noStages.issues.map(issueAt)).toEqual([{ field: 'vp', message: noStages.issues[0]!.message }]);
  });

  it('shows "virtual stages need a pipeline of more than one stage" on v and p (v = 2, p = 1)', () => {
    const noPipeline = issuesFor({ vp: '2', pp: '1' });
    expect(noPipeline.map((i) => [i.path, i.rule])).toEqual([['parallelism.virtualStages', 'interleave-needs-pipeline']]);
    expect(noPipeline.map(issueAt)).toEqual([{ field: '', fields: ['vp', 'pp'], message: noPipeline[0]!.message }]);
  });

  it('names only fields the form shows, each rule once', () => {
    for (const rule of RULE_FIELDS) {
      for (const name of rule.fields) expect(names.has(name), `${rule.rule}: ${name}`).toBe(true);
      expect(new Set(rule.fields).size).toBe(rule.fields.length);
    }
  });

  it('goes by the rule an issue names, not its wording', () => {
    const reworded = { path: 'training.globalBatchSize', message: 'reworded', rule: 'batch-indivisible' };
    expect(issueAt(reworded).fields).toEqual(['gbs', 'mbs', 'nodes', 'tp', 'pp', 'cp']);
    expect(issueAt({ path: 'training.globalBatchSize', message: 'reworded' })).toEqual({ field: 'gbs', message: 'reworded' });
  });

  it('shows an issue about one field beside it alone, and one about none in the status line', () => {
    expect(issueAt({ path: 'parallelism.tensor', message: 'm' })).toEqual({ field: 'tp', message: 'm' });
    expect(issueAt({ path: '[0].training.microBatchSize', message: 'm' })).toEqual({ field: 'mbs', message: 'm' });
    expect(issueAt({ path: '', message: 'm' })).toEqual({ field: '', message: 'm' });
  });
});
