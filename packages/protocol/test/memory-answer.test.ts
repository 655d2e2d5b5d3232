import { describe, expect, it } from 'vitest';
import { memoryAnswer, runEstimate, validateScenario, type EstimateJson, type ResolvedScenarioInput } from '../src/index.ts';

// GPT-3 175B on 16 DGX A100 with TP 8, PP 2 and no recompute: far past 80 GB a GPU (the estimate refuses it).
const tooBig = {
  model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 16 }, training: { globalBatchSize: 512 },
  parallelism: { tensor: 8, pipeline: 2, recompute: 'none' },
};

const resolvedInput = (s: unknown): ResolvedScenarioInput => {
  const v = validateScenario(s);
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  return v.value as ResolvedScenarioInput;
};

describe('memoryAnswer', () => {
  it('keeps the breakdown of a plan the estimate refuses as out of memory, its worst stage the estimate\'s need', () => {
    const e = runEstimate(tooBig) as EstimateJson;
    if (e.ok || e.reason !== 'out-of-memory') throw new Error('expected out of memory');
    const m = memoryAnswer(resolvedInput(tooBig));
    if (!m.ok) throw new Error(JSON.stringify(m));
    expect(m.fits).toBe(false);
    expect(m.stages).toHaveLength(2);
    for (const s of m.stages) {
      expect(s.weightsBytes + s.gradientsBytes + s.optimizerBytes + s.activationsBytes + s.otherBytes).toBeCloseTo(s.totalBytes, -3);
    }
    expect(Math.max(...m.stages.map((s) => s.totalBytes))).toBeCloseTo(e.neededBytes!, -3);
    expect(m.capacityBytes).toBe(e.availableBytes);
  });

  it('names the parts of every stage\'s "other", whole bytes that sum to it, the most loaded stage\'s those of the estimate', () => {
    const m = memoryAnswer(resolvedInput(tooBig));
    if (!m.ok) throw new Error(JSON.stringify(m));
    for (const s of m.stages) {
      const parts = Object.values(s.otherParts);
      expect(parts).toHaveLength(4);
      expect(parts.every(Number.isInteger)).toBe(true);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(s.otherBytes);
    }
    expect(m.memory.otherParts).toEqual(m.stages[m.memory.stage!]!.otherParts);
  });

  it('answers an invalid scenario as the estimate does', () => {
    const bad = { ...tooBig, parallelism: { tensor: 3, pipeline: 2 } };
    expect(memoryAnswer(resolvedInput(bad))).toEqual(runEstimate(bad));
  });
});
