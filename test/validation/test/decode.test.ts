import { describe, expect, it } from 'vitest';
import { kvCacheBytesPerToken, parameterCount } from '@trainplan/model';
import { COMPUTE_CALIBRATION } from '@trainplan/planner';
import { modelById } from '@trainplan/presets';
import { decodeComparisons, loadMeasuredDecode } from '../src/decode-measured.ts';
import { decodeFindings, decodeSection } from '../src/decode-section.ts';
import { kernelCases } from '../src/kernel-cases.ts';
import { median } from '../src/kernels-measured.ts';

const cases = kernelCases().decode;
const runs = loadMeasuredDecode();
const rows = decodeComparisons(runs);
const findings = decodeFindings(rows);
const HBM = COMPUTE_CALIBRATION.hopper.hbmFraction;

describe('decode steps measured on the H200', () => {
  it('came from the H200, both runs, every case, finite logits, no failure, the runs within 5%', () => {
    for (const run of runs) {
      expect(run.environment.name).toBe('NVIDIA H200');
      expect(run.errors).toEqual([]);
      expect(run.decode.map((d) => d.id)).toEqual(cases.map((c) => c.id));
      for (const d of run.decode) expect([d.error, d.finite], d.id).toEqual([undefined, true]);
    }
    expect(rows).toHaveLength(cases.length);
    expect(findings.worstSpread).toBeLessThan(0.05);
  });
  it('read what the planner counts: every weight but the input embedding (one row a token), and the cache of batch × context tokens', () => {
    for (const r of rows) {
      const shape = modelById(r.kase.model)!.shape;
      // bf16: 2 bytes a value. The embedding table is a lookup, not a stream; the output layer is read whole.
      expect(r.weightBytes, r.kase.id).toBe(2 * (parameterCount(shape) - shape.vocabSize * shape.hiddenSize));
      expect(r.kvCacheBytes, r.kase.id).toBe(r.kase.batch * r.kase.context * kvCacheBytesPerToken({ shape, tensor: 1, layersOnGpu: shape.layers, bytesPerValue: 2 }));
    }
  });
});

describe('the decode model against the steps', () => {
  it('every step was profiled: its kernels by kind fill most of the graph\'s step and never more than it', () => {
    for (const r of rows) expect(r.kernels, r.kase.id).toBeGreaterThan(r.kase.layers * 10);
    for (const share of findings.kernelShareOfStep) {
      expect(share).toBeGreaterThan(0.85);
      expect(share).toBeLessThanOrEqual(1);
    }
  });
  it('the GEMMs stream the weights at about the calibrated fraction: it lies within what they reach, all under the datasheet', () => {
    const weights = [...findings.weightsNarrow, ...findings.weightsWide];
    expect(Math.min(...weights)).toBeLessThan(HBM);
    expect(Math.max(...weights)).toBeGreaterThan(HBM);
    expect(Math.max(...weights)).toBeLessThan(1);
  });
  it('where its launch fills the GPU, attention streams the cache faster than charged, so the KV-heaviest steps come out long', () => {
    expect(findings.kvCacheFull.length).toBeGreaterThanOrEqual(4);
    for (const f of findings.kvCacheFull) {
      expect(f).toBeGreaterThan(HBM);
      expect(f).toBeLessThan(1);
    }
    const heaviest = rows.filter((r) => r.kvCacheBytes > 2 * r.weightBytes);
    expect(heaviest.length).toBeGreaterThan(0);
    for (const r of heaviest) expect(r.measuredMs / r.predictedMs, r.kase.id).toBeLessThan(1);
  });
  it('PyTorch\'s unfused element-wise kernels cost more than the model\'s fixed charge, so the weights-bound steps come out short', () => {
    expect(Math.min(...findings.otherMs)).toBeGreaterThan(Math.max(...findings.modelFixedMs));
    const lightest = rows.filter((r) => r.kase.batch === 1 && r.kase.context === 1024);
    for (const r of lightest) expect(r.measuredMs / r.predictedMs, r.kase.id).toBeGreaterThan(1);
  });
  it('with RMSNorm and SiLU · up fused, as engines run them, the rest shrinks on every step and the weights-bound steps come within 5% of the model', () => {
    for (const r of rows) {
      expect(r.fusedOtherMs, r.kase.id).toBeLessThan(r.otherMs / 2);
      expect(r.fusedKernels, r.kase.id).toBeLessThan(r.kernels);
    }
    expect(findings.lightestFused.length).toBeGreaterThan(0);
    for (const x of findings.lightestFused) expect(Math.abs(x - 1)).toBeLessThanOrEqual(0.05);
  });
  it('a CUDA graph removes the host\'s launches: a batch-1 step replays in at most half its eager time', () => {
    for (const x of findings.graphOverEagerBatch1) expect(x).toBeLessThanOrEqual(0.5);
  });
});

describe('the report section', () => {
  const { markdown, summary } = decodeSection.run();
  const text = markdown.join('\n');
  it('has a row for every step and states its figures', () => {
    for (const c of cases) expect(text).toContain(`| ${c.model}, batch ${c.batch}, ${c.context.toLocaleString('en-US')} tokens |`);
    expect(text).toContain(`Measured ÷ predicted ${median(findings.overPredicted).toFixed(2)} at the median`);
    expect(text).not.toMatch(/NaN|undefined|Infinity/);
    expect(summary.join('\n')).toContain(`${cases.length} steps`);
  });
});
