import { describe, expect, it } from 'vitest';
import { causalTileFraction } from '@trainplan/planner';
import { kernelCases } from '../src/kernel-cases.ts';
import { cudnnRateAt32k, loadLongAttention, longAttentionLines, longAttentionPoints } from '../src/attention-long.ts';

const runs = loadLongAttention();
const points = longAttentionPoints(runs);
const cudnn = points.filter((p) => p.backend === 'CUDNN_ATTENTION');

describe('flash attention at 64k and 128k tokens, measured on the H200', () => {
  it('came from the H200, both runs, every case and both kernels, no failure, the runs within 5%', () => {
    const ids = kernelCases().longAttention.map((c) => c.id);
    for (const run of runs) {
      expect(run.environment.name).toBe('NVIDIA H200');
      expect(run.errors).toEqual([]);
      for (const backend of ['CUDNN_ATTENTION', 'FLASH_ATTENTION']) {
        expect(run.attention.filter((a) => a.backend === backend).map((a) => a.id)).toEqual(ids);
      }
      for (const a of run.attention) expect(a.error, a.id).toBeUndefined();
    }
    for (const p of points) expect(p.spread).toBeLessThan(0.05);
  });
  it('cuDNN\'s rate stays where it was at 32k (within 3%), under the fit\'s extrapolation and under the calibrated charge', () => {
    expect(cudnn).toHaveLength(2);
    for (const p of cudnn) {
      expect(Math.abs(p.measuredFraction / cudnnRateAt32k() - 1), String(p.seqLength)).toBeLessThan(0.03);
      expect(p.measuredFraction).toBeLessThan(p.fittedFraction);
      expect(p.measuredFraction).toBeLessThan(p.calibratedFraction);
    }
  });
  it('the planner\'s charge is the faster by under a tenth (measured 5% and 9%) and grows with the length', () => {
    for (const p of cudnn) expect(p.calibratedFraction / p.measuredFraction).toBeLessThan(1.1);
    expect(cudnn[1]!.calibratedFraction / cudnn[1]!.measuredFraction).toBeGreaterThan(cudnn[0]!.calibratedFraction / cudnn[0]!.measuredFraction);
  });
  it('FlashAttention-2 runs slower than cuDNN at both lengths, and causal work takes about its tile share of the full time', () => {
    for (const p of points.filter((x) => x.backend === 'FLASH_ATTENTION')) {
      expect(p.measuredFraction).toBeLessThan(cudnn.find((c) => c.seqLength === p.seqLength)!.measuredFraction);
    }
    for (const p of points) expect(Math.abs(p.causalOverFull - causalTileFraction(p.seqLength))).toBeLessThan(0.05);
  });
  it('the report\'s lines state the figures and no NaN', () => {
    const text = longAttentionLines(points).join('\n');
    expect(text).toContain('| 131,072 | cuDNN |');
    expect(text).not.toMatch(/NaN|undefined|Infinity/);
  });
});
