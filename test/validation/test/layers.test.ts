import { describe, expect, it } from 'vitest';
import { modelById } from '@trainplan/presets';
import { kernelCases, LAYER_PLANS } from '../src/kernel-cases.ts';
import { median } from '../src/kernels-measured.ts';
import { layerComparisons, layerPlanInput, loadMeasuredLayers } from '../src/layers-measured.ts';
import { elementwiseWhatIf, h200OverH100, layerFindings, layersSection } from '../src/layers-section.ts';

const cases = kernelCases().layers;
const runs = loadMeasuredLayers();
const findings = layerFindings('h100-sxm', runs);

describe('the whole-layer cases', () => {
  it('are the kernel plans without context parallelism, each one GPU\'s share of its model\'s layer', () => {
    expect(cases.map((c) => c.model)).toEqual(LAYER_PLANS.map((p) => p.model));
    for (const c of cases) {
      const model = modelById(c.model)!.shape;
      expect(c.heads * c.tensor, c.id).toBe(model.attentionHeads);
      expect(c.kvHeads * c.tensor, c.id).toBe(model.kvHeads);
      expect(c.heads * c.headDim * c.tensor, c.id).toBe(model.hiddenSize);
      expect(c.ffn * c.tensor, c.id).toBe(model.ffnHiddenSize);
    }
  });
  it('are planned as the layer runs: the tensor-parallel size, micro-batch, sequence, dropout and attention kernel of the case', () => {
    for (const c of cases) {
      const plan = layerPlanInput(c);
      expect([plan.tensor, plan.microBatchSize, plan.seqLength, plan.context, plan.dropout, plan.attentionKernel, plan.sequenceParallel])
        .toEqual([c.tensor, c.microBatch, c.seqLength, 1, c.dropout, c.attention, false]);
    }
  });
});

describe('whole layers measured on the H100', () => {
  it('came from the H100, both runs, every case in both variants, finite outputs and gradients, no failure', () => {
    for (const run of runs) {
      expect(run.environment.name).toBe('NVIDIA H100 80GB HBM3');
      expect(run.errors).toEqual([]);
      expect(run.layers.map((l) => `${l.variant} ${l.id}`)).toEqual((['eager', 'fused'] as const).flatMap((v) => cases.map((c) => `${v} ${c.id}`)));
      for (const l of run.layers) {
        expect(l.error, l.id).toBeUndefined();
        expect([l.finite, l.gradFinite], l.id).toEqual([true, true]);
        expect(l.forwardBackwardMs, l.id).toBeGreaterThan(l.forwardMs);
      }
    }
  });
  it('ran flash layers on cuDNN\'s fused attention (what Transformer Engine runs on Hopper), and the unfused ones without a fused kernel', () => {
    for (const l of runs.flatMap((r) => r.layers)) {
      const kase = cases.find((c) => c.id === l.id)!;
      expect(l.attentionBackend, l.id).toBe(kase.attention === 'flash' ? 'CUDNN_ATTENTION' : null);
      if (kase.attention === 'unfused') expect(l.profile.attentionMs, l.id).toBe(0);
      else expect(l.profile.attentionMs, l.id).toBeGreaterThan(0);
    }
  });
  it('the two runs agree within 10% on every layer', () => {
    expect(layerComparisons('h100-sxm', runs)).toHaveLength(2 * cases.length);
    expect(findings.worstSpread).toBeLessThan(0.1);
  });
});

describe('the planner against whole layers', () => {
  it('at the kernels\' own rates, charges every layer less than it takes, and about a tenth less at the median', () => {
    for (const r of findings.overKernelAlone) expect(r).toBeGreaterThan(1);
    expect(median(findings.overKernelAlone)).toBeGreaterThan(1.05);
    expect(median(findings.overKernelAlone)).toBeLessThan(1.15);
  });
  it('misses in the element-wise kernels, not the GEMMs', () => {
    expect(median(findings.byKind.gemm)).toBeLessThan(1);
    expect(median(findings.byKind.other)).toBeGreaterThan(1.3);
  });
  it('with the flash block cost, charges short-sequence attention nearer what it takes than one rate for every length does', () => {
    const error = (xs: readonly number[]) => median(xs.map((x) => Math.abs(x - 1)));
    for (const r of findings.attentionShortOneRate) expect(r).toBeGreaterThan(1);
    expect(error(findings.attentionShort)).toBeLessThan(error(findings.attentionShortOneRate) / 2);
  });
  it('what is left at short sequences follows the launch\'s size: the fewest thread blocks run slowest', () => {
    const byBlocks = findings.attentionShortByBlocks;
    expect(byBlocks.length).toBeGreaterThanOrEqual(3);
    expect(byBlocks[0]!.ratio).toBeGreaterThan(byBlocks.at(-1)!.ratio);
  });
  it('at the calibrated Hopper constants, is never faster than a layer run with nothing beside it', () => {
    for (const r of findings.overCalibrated) expect(r).toBeLessThan(1);
  });
  it('the training rows cannot tell the element-wise rate measured in a layer from the calibrated one', () => {
    const whatIf = elementwiseWhatIf(findings);
    expect(whatIf.hbmFraction).toBeLessThan(0.7);
    expect(Math.abs(whatIf.after - whatIf.before)).toBeLessThan(0.002);
  });
});

describe('whole layers measured on the H200', () => {
  const h200Runs = loadMeasuredLayers('h200');
  const h200 = layerFindings('h200', h200Runs);
  const pairs = h200OverH100();
  it('came from the H200, both runs, every case in both variants, no failure, the runs within 10%', () => {
    for (const run of h200Runs) {
      expect(run.environment.name).toBe('NVIDIA H200');
      expect(run.errors).toEqual([]);
      expect(run.layers.map((l) => `${l.variant} ${l.id}`)).toEqual((['eager', 'fused'] as const).flatMap((v) => cases.map((c) => `${v} ${c.id}`)));
      for (const l of run.layers) expect([l.error, l.finite, l.gradFinite], l.id).toEqual([undefined, true, true]);
    }
    expect(h200.worstSpread).toBeLessThan(0.1);
  });
  it('at the Hopper constants fitted on H100 steps, the planner is never faster than an H200 layer run alone', () => {
    expect(pairs).toHaveLength(cases.length);
    for (const r of h200.overCalibrated) expect(r).toBeLessThan(1);
  });
  it('says what the faster memory buys a layer to within 5% at the median: the same compute, 1.43× the HBM bandwidth', () => {
    const measured = median(pairs.map((p) => p.measured));
    const planned = median(pairs.map((p) => p.calibrated));
    expect(planned).toBeLessThan(1);
    expect(Math.abs(planned / measured - 1)).toBeLessThan(0.05);
  });
  it('but the element-wise kernels gain less than the bandwidths\' ratio the planner charges them', () => {
    // Datasheets: 4.8 TB/s (H200) over 3.35 TB/s (H100); their traffic time scales by the inverse, per-kernel costs aside.
    expect(median(pairs.map((p) => p.calibratedOther))).toBeLessThan(3.35 / 4.8 + 0.05);
    expect(median(pairs.map((p) => p.measuredOther))).toBeGreaterThan(median(pairs.map((p) => p.calibratedOther)));
  });
});

describe('the report section', () => {
  const { markdown, summary } = layersSection.run();
  const text = markdown.join('\n');
  it('has a row for every layer and says what each comparison gave', () => {
    for (const c of cases) expect(text).toContain(`| ${c.model} TP ${c.tensor}, ${c.microBatch} × ${c.seqLength.toLocaleString('en-US')} tokens |`);
    expect(text).toContain(`${median(findings.overKernelAlone).toFixed(2)}× (`);
    expect(text).toContain(`measured ÷ calibrated ${median(findings.overCalibrated).toFixed(2)}`);
    expect(summary.join('\n')).toContain(`${cases.length} plans`);
  });
});
