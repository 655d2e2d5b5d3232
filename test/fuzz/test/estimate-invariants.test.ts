import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runEstimate, type EstimateJson } from '@trainplan/protocol';
import { caseCounter, numbersIn, validScenario } from '../src/index.ts';

const counter = caseCounter('estimate-invariants');

/** Physics that every answer must obey, whatever the scenario (issue 8, "physics invariants"). */
function checkInvariants(answer: EstimateJson): void {
  for (const n of numbersIn(answer)) expect(Number.isFinite(n.value), `${n.path} = ${n.value}`).toBe(true);
  if (!answer.ok) {
    expect(answer.message.length).toBeGreaterThan(0);
    if (answer.reason === 'out-of-memory') expect(answer.neededBytes ?? 0).toBeGreaterThan(answer.availableBytes ?? Infinity);
    else expect(answer.issues?.length ?? 0).toBeGreaterThan(0);
    return;
  }
  expect(answer.stepTimeSeconds).toBeGreaterThan(0);
  expect(answer.mfu).toBeGreaterThan(0);
  expect(answer.mfu).toBeLessThanOrEqual(1);
  expect(answer.hfu).toBeGreaterThanOrEqual(answer.mfu * (1 - 1e-12));
  expect(answer.hfu).toBeLessThanOrEqual(1);
  const b = answer.breakdown;
  for (const [k, v] of Object.entries(b)) expect(v, k).toBeGreaterThanOrEqual(0);
  expect(b.recomputeSeconds).toBeLessThanOrEqual(b.computeSeconds * (1 + 1e-12));
  expect(b.dataParallelCommSeconds).toBeLessThanOrEqual(b.dataParallelCommTotalSeconds * (1 + 1e-12));
  const m = answer.memory;
  const sum = m.weightsBytes + m.gradientsBytes + m.optimizerBytes + m.activationsBytes + m.otherBytes;
  expect(Math.abs(sum - m.totalBytes)).toBeLessThanOrEqual(m.totalBytes * 1e-9);
  expect(m.fits).toBe(true);
  expect(m.totalBytes).toBeLessThanOrEqual(m.capacityBytes);
  // tokens/s is the global batch's tokens over the step.
  const r = answer.resolved;
  const tokens = r.globalBatchSize * r.seqLength;
  expect(answer.tokensPerSecond * answer.stepTimeSeconds).toBeCloseTo(tokens, 0);
  expect(r.tensor * r.pipeline * r.data * r.context).toBe(r.gpus);
  expect(r.microBatches * r.microBatchSize * r.data).toBe(r.globalBatchSize);
  if (answer.timeToTrain) expect(answer.timeToTrain.gpuHours).toBeCloseTo((answer.timeToTrain.seconds / 3600) * r.gpus, 3);
}

describe('physics invariants over random valid scenarios', () => {
  it('no NaN or Infinity; MFU ≤ HFU ≤ 1; breakdown ≥ 0; memory terms sum to the total; ranks multiply out', () => {
    let feasible = 0;
    fc.assert(fc.property(validScenario, (scenario) => {
      counter.add();
      const answer = runEstimate(scenario) as EstimateJson;
      checkInvariants(answer);
      if (answer.ok) feasible += 1;
    }), { numRuns: 3_000 });
    // The generator must reach the feasible region often enough for the checks above to bite.
    expect(feasible).toBeGreaterThan(100);
  });

  it('the same scenario gives the same answer, bit for bit (no hidden state between calls)', () => {
    fc.assert(fc.property(validScenario, (scenario) => {
      counter.add();
      expect(JSON.stringify(runEstimate(scenario))).toBe(JSON.stringify(runEstimate(structuredClone(scenario))));
    }), { numRuns: 300 });
  });
});

afterAll(() => {
  expect(counter.count).toBeGreaterThanOrEqual(counter.floor);
});
