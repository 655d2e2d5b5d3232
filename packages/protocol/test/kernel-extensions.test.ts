import { describe, expect, it } from 'vitest';
import { runEstimate, validateScenario } from '../src/index.ts';

/** GPT-3 175B on 64 DGX A100, TP 8 × PP 8, the Korthikanti et al. 2022 shape (scenario extensions of the planner). */
const scenario = (training: Record<string, unknown>, parallelism: Record<string, unknown>) => ({
  model: 'gpt3-175b',
  cluster: { gpu: 'a100-80gb', gpusPerNode: 8, nodes: 8, network: 'hdr-ib-8x' },
  training: { globalBatchSize: 64, microBatchSize: 1, precision: 'bf16', ...training },
  parallelism: { tensor: 8, pipeline: 8, recompute: 'selective', sequenceParallel: true, ...parallelism },
});

type Ok = { ok: true; stepTimeSeconds: number; breakdown: Record<string, number> };
function estimate(training: Record<string, unknown>, parallelism: Record<string, unknown>): Ok {
  const r = runEstimate(scenario(training, parallelism)) as unknown as Ok | { ok: false; message: string };
  if (!r.ok) throw new Error(r.message);
  return r;
}

describe('scenario extensions parallelism.asyncTensorParallelGradComm and training.crossEntropyKernel', () => {
  it('are optional: a scenario without them resolves as before, with no new defaults written back', () => {
    const v = validateScenario(scenario({}, {}));
    expect(v.ok).toBe(true);
    if (v.ok) {
      expect('asyncTensorParallelGradComm' in v.value.parallelism).toBe(false);
      expect('crossEntropyKernel' in v.value.training).toBe(false);
    }
  });
  it('name the field when the value is wrong', () => {
    const bad = validateScenario(scenario({ crossEntropyKernel: 'fastest' }, { asyncTensorParallelGradComm: 'yes' }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.issues.map((i) => i.path).sort()).toEqual(['parallelism.asyncTensorParallelGradComm', 'training.crossEntropyKernel']);
    }
  });
  it("asynchronous backward communication lowers only the tensor-parallel time; false is the default's answer", () => {
    const sync = estimate({}, {});
    expect(estimate({}, { asyncTensorParallelGradComm: false }).stepTimeSeconds).toBe(sync.stepTimeSeconds);
    const asyncComm = estimate({}, { asyncTensorParallelGradComm: true });
    expect(asyncComm.breakdown.tensorParallelCommSeconds).toBeLessThan(sync.breakdown.tensorParallelCommSeconds!);
    expect(asyncComm.breakdown.computeSeconds).toBe(sync.breakdown.computeSeconds);
  });
  it("the unfused fp32 cross entropy costs more than the fused one; 'fused' is the default's answer", () => {
    const fused = estimate({}, {});
    expect(estimate({ crossEntropyKernel: 'fused' }, {}).stepTimeSeconds).toBe(fused.stepTimeSeconds);
    expect(estimate({ crossEntropyKernel: 'unfused' }, {}).stepTimeSeconds).toBeGreaterThan(fused.stepTimeSeconds);
  });
});

describe('scenario extension training.gradientAccumulation', () => {
  it('is optional and written back only when given', () => {
    const v = validateScenario(scenario({}, {}));
    expect(v.ok && 'gradientAccumulation' in v.value.training).toBe(false);
    const given = validateScenario(scenario({ gradientAccumulation: 'fp32' }, {}));
    expect(given.ok && given.value.training.gradientAccumulation).toBe('fp32');
  });
  it('names the field and the allowed values when the value is wrong', () => {
    const bad = validateScenario(scenario({ gradientAccumulation: 'fp8' }, {}));
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.issues.map((i) => i.path)).toEqual(['training.gradientAccumulation']);
      expect(bad.issues[0]!.message).toMatch(/fused.*16-bit.*fp32/);
    }
  });
  it("accepts 'fused-16-bit' and writes it back; a slip of it says which value was meant", () => {
    const given = validateScenario(scenario({ gradientAccumulation: 'fused-16-bit' }, {}));
    expect(given.ok && given.value.training.gradientAccumulation).toBe('fused-16-bit');
    const slip = validateScenario(scenario({ gradientAccumulation: 'fused_16bit' }, {}));
    expect(slip.ok).toBe(false);
    if (!slip.ok) expect(slip.issues[0]!.message).toMatch(/\(did you mean fused-16-bit\?\)$/);
  });
  it("'fused-16-bit' under bf16 halves the held gradients and adds no pass to the compute", () => {
    type WithMemory = Ok & { memory: { gradientsBytes: number }; resolved: { gradientAccumulation?: string } };
    const fused = estimate({}, {}) as WithMemory;
    const sixteen = estimate({ gradientAccumulation: 'fused-16-bit' }, {}) as WithMemory;
    expect(sixteen.breakdown.computeSeconds).toBe(fused.breakdown.computeSeconds);
    expect(Math.abs(2 * sixteen.memory.gradientsBytes - fused.memory.gradientsBytes)).toBeLessThanOrEqual(1);
    // The answer says which was costed: the scenario's, or 'fused' where it gave none (estimate-schema.ts, an extension).
    expect(sixteen.resolved.gradientAccumulation).toBe('fused-16-bit');
    expect(fused.resolved.gradientAccumulation).toBe('fused');
  });
  it("an unfused add per micro-batch lengthens the step, fp32 more than 16-bit; 'fused' is the default's answer", () => {
    const fused = estimate({}, {});
    expect(estimate({ gradientAccumulation: 'fused' }, {}).stepTimeSeconds).toBe(fused.stepTimeSeconds);
    const sixteen = estimate({ gradientAccumulation: '16-bit' }, {});
    expect(sixteen.breakdown.computeSeconds).toBeGreaterThan(fused.breakdown.computeSeconds!);
    expect(estimate({ gradientAccumulation: 'fp32' }, {}).stepTimeSeconds).toBeGreaterThan(sixteen.stepTimeSeconds);
  });
});
