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
  it('charges the weights-bound steps less than they take: PyTorch\'s small-batch GEMMs stream under the calibrated fraction', () => {
    for (const f of findings.fits) expect(f.weightFraction, f.model).toBeLessThan(HBM);
    const lightest = rows.filter((r) => r.kase.batch === 1 && r.kase.context === 1024);
    for (const r of lightest) expect(r.measuredMs / r.predictedMs, r.kase.id).toBeGreaterThan(1);
  });
  it('charges the KV-bound steps more than they take: the cache streams faster than the calibrated fraction, under the datasheet\'s bandwidth', () => {
    for (const f of findings.fits) {
      expect(f.kvFraction, f.model).toBeGreaterThan(HBM);
      expect(f.kvFraction, f.model).toBeLessThan(1);
    }
    const heaviest = rows.filter((r) => r.kvCacheBytes > 2 * r.weightBytes);
    expect(heaviest.length).toBeGreaterThan(0);
    for (const r of heaviest) expect(r.measuredMs / r.predictedMs, r.kase.id).toBeLessThan(1);
  });
  it('a CUDA graph removes the host\'s launches: a batch-1 step replays in at most half its eager time', () => {
    for (const x of findings.eagerOverGraphBatch1) expect(x).toBeGreaterThanOrEqual(2);
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
