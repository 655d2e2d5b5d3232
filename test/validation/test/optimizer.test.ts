import { describe, expect, it } from 'vitest';
import { stageParameters } from '@trainplan/model';
import { COMPUTE_CALIBRATION } from '@trainplan/planner';
import { modelById } from '@trainplan/presets';
import { kernelCases } from '../src/kernel-cases.ts';
import { median } from '../src/kernels-measured.ts';
import { loadMeasuredOptimizer, optimizerComparisons } from '../src/optimizer-measured.ts';
import { optimizerFindings, optimizerSection, passShares } from '../src/optimizer-section.ts';

const cases = kernelCases().optimizer;
const runs = loadMeasuredOptimizer();
const rows = optimizerComparisons(runs);
const findings = optimizerFindings(rows);

describe('optimizer steps measured on the H200', () => {
  it('came from the H200, both runs, every case, fused Adam, finite weights, no failure, the runs within 5%', () => {
    for (const run of runs) {
      expect(run.environment.name).toBe('NVIDIA H200');
      expect(run.errors).toEqual([]);
      expect(run.optimizer.map((d) => d.id)).toEqual(cases.map((c) => c.id));
      for (const d of run.optimizer) expect([d.error, d.finite, d.fused], d.id).toEqual([undefined, true, true]);
    }
    expect(rows).toHaveLength(cases.length);
    expect(findings.worstSpread).toBeLessThan(0.05);
  });
  it('updated the parameters the planner counts for that GPU (its first stage over the shards, the planner\'s largest within 1e-5) and zeroed the whole stage\'s buffer', () => {
    for (const c of cases) {
      const shape = modelById(c.model)!.shape;
      const stage = stageParameters({ shape, tensorParallel: c.tensor, layersPerStage: Array.from({ length: c.pipeline }, () => shape.layers / c.pipeline) });
      expect(c.parameters, c.id).toBe(stage[0]! / (c.distributedOptimizer ? c.data : 1));
      expect(c.bufferParameters, c.id).toBe(stage[0]);
      // estimatePlan charges the largest stage: with an untied output layer the last, by its final norm.
      expect(Math.max(...stage) / stage[0]! - 1, c.id).toBeLessThan(1e-5);
      for (const run of runs) {
        const measured = run.optimizer.find((d) => d.id === c.id)!;
        // Each tensor's shard is rounded up to whole parameters: at most one more a tensor.
        expect(measured.parameters - c.parameters, c.id).toBeGreaterThanOrEqual(0);
        expect(measured.parameters - c.parameters, c.id).toBeLessThanOrEqual(c.tensors.reduce((s, t) => s + t.count, 0));
        expect(measured.bufferParameters, c.id).toBe(c.bufferParameters);
      }
    }
  });
});

describe('the optimizer step\'s cost against the measured steps', () => {
  it('predicts every step, its kernels and the buffer\'s zeroing, within 5% (measured 1–4%)', () => {
    for (const r of rows) expect(Math.abs(r.measuredMs / r.predictedMs - 1), r.kase.id).toBeLessThanOrEqual(0.05);
  });
  it('the count before it, 34 bytes and no zeroing, was short by more on every plan, most where the optimizer is distributed widest', () => {
    for (const r of rows) expect(Math.abs(r.measuredMs / r.predictedBeforeMs - 1), r.kase.id).toBeGreaterThan(Math.abs(r.measuredMs / r.predictedMs - 1));
    const widest = rows.reduce((a, b) => (b.kase.data > a.kase.data && b.kase.distributedOptimizer ? b : a));
    expect(widest.measuredMs / widest.predictedBeforeMs).toBe(Math.max(...findings.overPredictedBefore));
  });
  it('the passes that read and write stream at about the calibrated fraction, the write-only zeroing near the datasheet, none above it', () => {
    const hbm = COMPUTE_CALIBRATION.hopper.hbmFraction;
    expect(findings.streamingShares.length).toBeGreaterThanOrEqual(12);
    for (const s of [...findings.stepKernelShares, ...findings.streamingShares]) expect(Math.abs(s - hbm)).toBeLessThan(0.1);
    expect(findings.zeroShares.length).toBeGreaterThanOrEqual(3);
    for (const s of findings.zeroShares) {
      expect(s).toBeGreaterThan(0.9);
      expect(s).toBeLessThanOrEqual(1);
    }
    for (const r of rows) for (const s of Object.values(passShares(r))) expect(s).toBeLessThanOrEqual(1);
  });
  it('the host\'s read-back of the norm costs more than the kernels\' fixed cost the model charges, and varies between runs', () => {
    for (const x of findings.hostOverKernelsMs) expect(x).toBeGreaterThan(COMPUTE_CALIBRATION.hopper.kernelOverhead * 1e3);
  });
});

describe('the optimizer report section', () => {
  const { markdown, summary } = optimizerSection.run();
  const text = markdown.join('\n');
  it('has a row for every plan and states its figures', () => {
    for (const c of cases) expect(text).toContain(`| ${c.model}, TP ${c.tensor}`);
    expect(text).toContain(`Measured ÷ predicted ${median(findings.overPredicted).toFixed(2)} at the median`);
    expect(text).not.toMatch(/NaN|undefined|Infinity/);
    expect(summary.join('\n')).toContain(`${cases.length} steps`);
  });
});
