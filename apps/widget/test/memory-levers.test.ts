import { bytesPerParameter } from '@trainplan/model';
import { runEstimate, runSearch, type EstimateInfeasible, type EstimateJson, type ScenarioInput } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { LEAST_STATE_BYTES_PER_PARAMETER, memoryLevers } from '../src/compute/memory-levers.ts';
import { outOfMemoryMessage } from '../src/element/results.ts';
import { DEFAULT_VALUES, type FieldValues } from '../src/form/fields.ts';
import { scenarioFromFields } from '../src/form/scenario-from-fields.ts';

/** The form's scenario over the defaults (GPT-3 175B, 128 DGX A100, TP 8 PP 8), its refused answer, and memoryLevers for it. */
function refused(values: FieldValues) {
  const r = scenarioFromFields({ ...DEFAULT_VALUES, ...values });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const e = runEstimate(r.scenario) as EstimateInfeasible;
  expect(e.reason).toBe('out-of-memory');
  return { scenario: r.scenario, peak: e.memory!.totalBytes, levers: memoryLevers(r.scenario, e) };
}

/** The peak memory per GPU of `s` with `parallelism` changed. */
const peakWith = (s: ScenarioInput, parallelism: object) => {
  const e = runEstimate({ ...s, parallelism: { ...s.parallelism, ...parallelism } }) as EstimateJson;
  return (e.ok ? e.memory : e.memory!).totalBytes;
};

describe('the least model state a parameter keeps', () => {
  it('is the model package\'s: ZeRO-3 on one rank keeps 16 bytes a parameter, and no sharding mode keeps fewer on one', () => {
    expect(LEAST_STATE_BYTES_PER_PARAMETER).toBe(bytesPerParameter('zero-3', 1));
    for (const mode of ['none', 'distributed-optimizer', 'zero-1', 'zero-2', 'zero-3'] as const) {
      expect(bytesPerParameter(mode, 1)).toBeGreaterThanOrEqual(LEAST_STATE_BYTES_PER_PARAMETER);
    }
  });
});

describe('memoryLevers: only changes that lower the peak', () => {
  it('64 nodes, no recompute: full recompute, not selective, which frees nothing beside flash attention', () => {
    const { scenario, peak, levers } = refused({ nodes: '64', recompute: 'none' });
    expect(peakWith(scenario, { recompute: 'selective' })).toBe(peak);
    expect(levers).not.toContain('selective recompute');
    expect(levers).toContain('full recompute');
    for (const l of ['sequence parallelism', 'more t', 'more p', 'the distributed optimizer']) expect(levers).toContain(l);
  });

  it('Megatron 39.1B on 1 node, TP 8, PP 1, SP on: more nodes (the only fix), not the distributed optimizer on one replica', () => {
    const { scenario, peak, levers } = refused({ model: 'megatron-39.1b', nodes: '1', tp: '8', pp: '1', gbs: '8', sp: 'true' });
    expect(peakWith(scenario, { distributedOptimizer: true })).toBe(peak);
    expect(levers).toEqual(['more nodes, for more p', 'more nodes with the distributed optimizer']);
  });

  it('names a smaller micro-batch only above one, and keeps the levers in order', () => {
    expect(refused({ mbs: '8', recompute: 'none' }).levers)
      .toEqual(['full recompute', 'sequence parallelism', 'more t', 'more p', 'the distributed optimizer', 'a smaller micro-batch']);
  });
});

describe('memoryLevers: more nodes, and how many, where nothing on these GPUs fits', () => {
  /** The QA link: GPT-3 175B on one DGX A100 (8 × 80 GiB), the parallelism left to the defaults (TP 1, PP 1, DP 8). */
  const onNodes = (nodes: number, globalBatchSize = 1536): ScenarioInput => ({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes }, training: { globalBatchSize } });
  const leversOn = (nodes: number, globalBatchSize?: number) =>
    memoryLevers(onNodes(nodes, globalBatchSize), runEstimate(onNodes(nodes, globalBatchSize)) as EstimateInfeasible);

  it('GPT-3 175B on 1 node: more nodes alone, at least 5, not levers that lower 2.94 TiB nowhere near 80 GiB', () => {
    // 16 B of model state per parameter (ZeRO-3's least) × 174.6e9 over 8 GPUs is 326 GiB each: no split of 8 GPUs holds it.
    expect(leversOn(1)).toEqual(['more nodes (the model states alone need at least 5)']);
    expect(outOfMemoryMessage(' (needs …)', leversOn(1))).toBe('out of memory (needs …): try more nodes (the model states alone need at least 5)');
  });

  it('the count is a lower bound: no configuration of one node fewer runs, and on it the levers are weighed again', () => {
    const search = runSearch({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 4 }, training: { globalBatchSize: 1536 } });
    expect(search.ok).toBe(false);
    // 4 nodes: still more nodes; 5 nodes (a batch of whole micro-batches over 40 replicas): 16 B × 174.6e9 / 40 GPUs is
    // 65 GiB, which may fit, so the same-GPU levers are named; and a plan there runs (TP 8 · PP 5, SP, full recompute).
    expect(leversOn(4)).toEqual(['more nodes (the model states alone need at least 5)']);
    expect(leversOn(5, 1600).some((l) => l.startsWith('more nodes'))).toBe(false);
    expect(leversOn(5, 1600)).toContain('full recompute');
    const fits = runEstimate({ ...onNodes(5, 1600), parallelism: { tensor: 8, pipeline: 5, sequenceParallel: true, recompute: 'full' } }) as EstimateJson;
    expect(fits.ok).toBe(true);
  });

  it('an answer without the parameter count (another API may leave it out) weighs the levers as before', () => {
    const e = runEstimate(onNodes(1)) as EstimateInfeasible;
    const { parameters: _p, ...withoutCount } = e;
    expect(memoryLevers(onNodes(1), withoutCount)).toEqual(['full recompute', 'more t', 'more p', 'the distributed optimizer']);
  });
});
