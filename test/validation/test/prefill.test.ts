import { describe, expect, it } from 'vitest';
import { parameterCount } from '@trainplan/model';
import { COMPUTE_CALIBRATION } from '@trainplan/planner';
import { modelById } from '@trainplan/presets';
import { kernelCases } from '../src/kernel-cases.ts';
import { median } from '../src/kernels-measured.ts';
import { loadMeasuredPrefill, prefillComparisons, prefillGemmRates } from '../src/prefill-measured.ts';
import { prefillFindings, prefillSection } from '../src/prefill-section.ts';

const cases = kernelCases().prefill;
const runs = loadMeasuredPrefill();
const rows = prefillComparisons(runs);
const findings = prefillFindings(rows);

describe('prefills measured on the H200', () => {
  it('came from the H200, both runs, every case, finite logits, no failure, the runs within 5%', () => {
    for (const run of runs) {
      expect(run.environment.name).toBe('NVIDIA H200');
      expect(run.errors).toEqual([]);
      expect(run.prefill.map((d) => d.id)).toEqual(cases.map((c) => c.id));
      for (const d of run.prefill) expect([d.error, d.finite], d.id).toEqual([undefined, true]);
    }
    expect(rows).toHaveLength(cases.length);
    expect(findings.worstSpread).toBeLessThan(0.05);
  });
  it('ran the model the planner counts: every weight but the input embedding, the prompts as the case gives them, grouped-query attention grouped natively', () => {
    for (const r of rows) {
      const shape = modelById(r.kase.model)!.shape;
      expect(r.weightBytes, r.kase.id).toBe(2 * (parameterCount(shape) - shape.vocabSize * shape.hiddenSize));
      expect(r.gqaNative, r.kase.id).toBe(r.kase.kvHeads < r.kase.heads ? true : null);
    }
    // The script records whether its last grouped-query call grouped natively: read only for the grouped-query cases.
    for (const run of runs) {
      for (const d of run.prefill.filter((x) => cases.some((c) => c.id === x.id && c.kvHeads < c.heads))) expect(d.gqaNative, d.id).toBe(true);
    }
    // Attention ran as cuDNN's fused flash kernel, as Transformer Engine runs it on Hopper.
    for (const run of runs) for (const d of run.prefill) expect(d.profile.topKernels.some(([name]) => /cudnn.*sdpa.*flash/.test(name)), d.id).toBe(true);
    for (const run of runs) for (const d of run.prefill) expect([d.batch, d.prompt]).toEqual([cases.find((c) => c.id === d.id)!.batch, cases.find((c) => c.id === d.id)!.prompt]);
  });
});

describe('the serving model\'s first token against the prefills', () => {
  it('is later than every prefill measured, by less than a third (worst measured 0.80: PyTorch\'s unfused kernels, a short prompt)', () => {
    for (const r of rows) {
      expect(r.measuredMs / r.predictedMs, r.kase.id).toBeLessThan(1);
      expect(r.measuredMs / r.predictedMs, r.kase.id).toBeGreaterThan(0.75);
    }
  });
  it('grows with the prompt as the prefills do: each model\'s longer prompt takes longer, measured and predicted', () => {
    for (const model of new Set(cases.map((c) => c.model))) {
      const single = rows.filter((r) => r.kase.model === model && r.kase.batch === 1).sort((a, b) => a.kase.prompt - b.kase.prompt);
      for (let i = 1; i < single.length; i++) {
        expect(single[i]!.measuredMs).toBeGreaterThan(single[i - 1]!.measuredMs);
        expect(single[i]!.predictedMs).toBeGreaterThan(single[i - 1]!.predictedMs);
      }
    }
  });
  it('from 512 tokens the GEMMs run above the calibrated fraction and under the peak; the shortest prompt\'s are bound by reading the weights', () => {
    for (const f of findings.gemmPeakLong) {
      expect(f).toBeGreaterThan(COMPUTE_CALIBRATION.hopper.gemmPeakFraction);
      expect(f).toBeLessThan(1);
    }
    const short = rows.filter((r) => r.kase.prompt === 128);
    expect(short.length).toBeGreaterThan(0);
    for (const r of short) {
      const g = prefillGemmRates(r);
      expect(g.weightsHbmFraction).toBeGreaterThan(g.peakFraction);
      expect(g.weightsHbmFraction).toBeLessThan(1);
    }
  });
  it('every prefill was profiled: its kernels fill most of it, the unfused element-wise ones a fifth to a third', () => {
    for (const r of rows) expect((r.gemmMs + r.attentionMs + r.otherMs) / r.measuredMs, r.kase.id).toBeGreaterThan(0.9);
    for (const s of findings.otherShare) {
      expect(s).toBeGreaterThan(0.2);
      expect(s).toBeLessThan(1 / 3);
    }
  });
  it('a CUDA graph saves the host\'s launches on the short prompt, hardly anything from 2,048 tokens', () => {
    for (const x of findings.graphOverEagerShort) expect(x).toBeLessThan(0.8);
    for (const x of findings.graphOverEagerLong) expect(x).toBeGreaterThan(0.9);
  });
});

describe('the prefill report section', () => {
  const { markdown, summary } = prefillSection.run();
  const text = markdown.join('\n');
  it('has a row for every prefill and states its figures', () => {
    expect(text.match(/^\| llama/gm)).toHaveLength(cases.length);
    expect(text).toContain(`Measured ÷ predicted ${median(findings.overPredicted).toFixed(2)} at the median`);
    expect(text).not.toMatch(/NaN|undefined|Infinity/);
    expect(summary.join('\n')).toContain(`${cases.length} prefills`);
  });
});
