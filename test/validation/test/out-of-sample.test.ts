import { describe, expect, it } from 'vitest';
import { outOfSampleSummary, ROW_TARGET, scoreLlama405, SOURCE_MAPE_TARGET } from '../src/out-of-sample-section.ts';

/**
 * Llama 3.1 405B on H100 (NVIDIA DGX Cloud recipes, NeMo 24.09 and 24.12): rows no constant was fitted on.
 * BF16 is held to issue #2's targets for a source; FP8 misses them (docs/validation.md says why) and gets a
 * regression guard at the measured figure, rounded up to the next tenth of a point, as test/validation does.
 */
const rows = scoreLlama405();

describe('out of sample: Llama 3.1 405B on H100', () => {
  it('scores 3 configurations × 2 precisions × 2 releases, each prediction the configuration\'s, whatever the release', () => {
    expect(rows).toHaveLength(12);
    for (const r of rows) {
      const twin = rows.find((o) => o !== r && o.gpus === r.gpus && o.precision === r.precision)!;
      expect(twin.scored.predictedStepSeconds).toBe(r.scored.predictedStepSeconds);
    }
  });

  it('BF16 meets the targets of a source: MAPE ≤ 8%, no row above 15%', () => {
    const bf16 = outOfSampleSummary(rows, 'bf16');
    expect(bf16.mape).toBeLessThanOrEqual(SOURCE_MAPE_TARGET);
    expect(bf16.worst).toBeLessThanOrEqual(ROW_TARGET);
  });

  const fp8 = outOfSampleSummary(rows, 'fp8');
  // 15.7% until 2026-11-28, when two physical corrections made these plans' steps longer (they were already predicted
  // too long): flash launches costed as their thread blocks run (calibration.ts; CP 2 halves each launch's keys and
  // blocks) and SwiGLU's backward traffic counted as 5 widths of f, not 4 (layer-time.ts): 16.2%, rounded up to the
  // next tenth. A known trade recorded in docs/validation.md, not drift.
  it(`FP8 MAPE ≤ 16.3% (regression guard; target 8%, measured ${(100 * fp8.mape).toFixed(1)}%)`, () => {
    expect(fp8.mape).toBeLessThanOrEqual(0.163);
  });
});
