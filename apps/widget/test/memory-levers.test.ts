import { runEstimate, type EstimateInfeasible, type EstimateJson, type ScenarioInput } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { memoryLevers } from '../src/compute/memory-levers.ts';
import { DEFAULT_VALUES, type FieldValues } from '../src/form/fields.ts';
import { scenarioFromFields } from '../src/form/scenario-from-fields.ts';

/** The form's scenario over the defaults (GPT-3 175B, 128 DGX A100, TP 8 PP 8), its refused answer, and memoryLevers for it. */
function refused(values: FieldValues) {
  const r = scenarioFromFields({ ...DEFAULT_VALUES, ...values });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const e = runEstimate(r.scenario) as EstimateInfeasible;
  expect(e.reason).toBe('out-of-memory');
  return { scenario: r.scenario, peak: e.memory!.totalBytes, levers: memoryLevers(r.scenario, e.resolved!, e.memory!.totalBytes) };
}

/** The peak memory per GPU of `s` with `parallelism` changed. */
const peakWith = (s: ScenarioInput, parallelism: object) => {
  const e = runEstimate({ ...s, parallelism: { ...s.parallelism, ...parallelism } }) as EstimateJson;
  return (e.ok ? e.memory : e.memory!).totalBytes;
};

describe('memoryLevers: only changes that lower the peak', () => {
  it('64 nodes, no recompute: full recompute, not selective, which frees nothing beside flash attention', () => {
    const { scenario, peak, levers } = refused({ nodes: '64', recompute: 'none' });
    expect(peakWith(scenario, { recompute: 'selective' })).toBe(peak);
    expect(levers).not.toContain('selective recompute');
    expect(levers).toContain('full recompute');
    for (const l of ['sequence parallelism', 'more t', 'more p', 'the distributed optimizer']) expect(levers).toContain(l);
  });

  it('1 node, TP 8, PP 1, SP on: more nodes (the only fix), not the distributed optimizer on one replica', () => {
    const { scenario, peak, levers } = refused({ nodes: '1', tp: '8', pp: '1', gbs: '8', sp: 'true' });
    expect(peakWith(scenario, { distributedOptimizer: true })).toBe(peak);
    expect(levers).toEqual(['more nodes, for more p', 'more nodes with the distributed optimizer']);
  });

  it('names a smaller micro-batch only above one, and keeps the levers in order', () => {
    expect(refused({ mbs: '8', recompute: 'none' }).levers)
      .toEqual(['full recompute', 'sequence parallelism', 'more t', 'more p', 'the distributed optimizer', 'a smaller micro-batch']);
  });
});
