import { describe, expect, it } from 'vitest';
import { runEstimate } from '@trainplan/protocol';
import {
  bloomTopologySweep, gpt3TimeToTrain, interleavingGains, scaling530B, SCALING_530B_SETTINGS, scatterGatherGains, SEARCH_TARGETS, twentyBTensorPipeline,
  type Scaling530BSetting,
} from '../src/search-findings.ts';

/**
 * Issue 4's validation targets. Where a target is met the test asserts it; where it is not, the test
 * asserts a regression guard at the measured figure and its title says so (docs/validation.md reports
 * the target as missed, never loosened).
 */
describe('BLOOM topology sweep (384 A100, 11 configurations)', () => {
  const sweep = bloomTopologySweep();
  it('covers the eleven configurations of the 02-25 series', () => {
    expect(sweep.rows.length).toBe(11);
  });
  it(`the measured best configuration is in the predicted top ${SEARCH_TARGETS.measuredBestInTop} (issue target)`, () => {
    expect(sweep.measuredBestPredictedRank).toBeLessThanOrEqual(SEARCH_TARGETS.measuredBestInTop);
  });
  it('rank correlation ≥ 0.2 (regression guard; issue target 0.8, measured 0.22)', () => {
    expect(sweep.spearman).toBeGreaterThanOrEqual(0.2);
  });
});

describe('the seed documents\' findings', () => {
  it('20B at fixed TP × PP = 8: the lower TP is faster', () => {
    const rows = twentyBTensorPipeline();
    expect(rows.map((r) => r.tensor)).toEqual([1, 2, 4, 8]);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.stepTimeSeconds).toBeGreaterThan(rows[i - 1]!.stepTimeSeconds);
  });
  it('interleaving gains shrink as the batch grows', () => {
    const gains = interleavingGains();
    expect(gains[0]!.gain).toBeGreaterThan(0);
    for (let i = 1; i < gains.length; i++) expect(gains[i]!.gain).toBeLessThan(gains[i - 1]!.gain);
  });
  it('scatter-gather gains stay within the 11% SC\'21 reports', () => {
    for (const r of scatterGatherGains()) {
      expect(r.gain).toBeGreaterThanOrEqual(0);
      expect(r.gain).toBeLessThanOrEqual(SEARCH_TARGETS.scatterGatherMaxGain);
    }
  });
  it.each(Object.keys(SCALING_530B_SETTINGS) as Scaling530BSetting[])('530B from 105 to 175 nodes stays above 90% scaling efficiency (%s)', (setting) => {
    const points = scaling530B(setting);
    expect(points[0]!.efficiency).toBe(1);
    for (const p of points) expect(p.efficiency).toBeGreaterThan(SEARCH_TARGETS.scalingEfficiency);
  });
});

describe('GPT-3 175B, 300B tokens on 1024 A100', () => {
  const r = gpt3TimeToTrain();
  it('the paper\'s configuration is within 10% of its 34 days', () => {
    expect(Math.abs(r.paperDays / 34 - 1)).toBeLessThanOrEqual(SEARCH_TARGETS.paperDaysTolerance);
  });
  it('the best configuration found is within 10% of the 24 days NVIDIA reports, and faster than the paper\'s', () => {
    expect(Math.abs(r.bestDays / 24 - 1)).toBeLessThanOrEqual(SEARCH_TARGETS.nvidiaDaysTolerance);
    expect(r.bestDays).toBeLessThan(r.paperDays);
  });
  it('the best configuration is a contract scenario that round-trips through runEstimate', () => {
    expect(runEstimate(r.best.scenario)).toEqual(r.best.estimate);
  });
});
