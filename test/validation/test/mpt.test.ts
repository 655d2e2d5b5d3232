import { parameterCount, withShapeDefaults } from '@trainplan/model';
import { validateScenario } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { MPT_ROWS, mptScenario } from '../src/mpt-llm-foundry.ts';
import { FLASH_ATTENTION_1_FRACTION, MPT_BANDS, mptBand, mptSummary, scoreMpt } from '../src/mpt-section.ts';
import { TARGETS } from '../src/render.ts';

/**
 * MPT on one node of 8 A100 80GB (MosaicML llm-foundry's benchmark table): rows no constant was fitted on. Short
 * sequences without checkpointing are held to issue #2's target for a source; the long-sequence miss gets a regression
 * guard at the measured figure rounded up to the next tenth of a point, as test/validation does, and the what-if that
 * explains it (FlashAttention 1's share of the peak) is held to removing the trend.
 */
const rows = scoreMpt();
const flash1 = scoreMpt({ attentionPeakFraction: FLASH_ATTENTION_1_FRACTION });
const [short, , long] = MPT_BANDS;

describe('out of sample: MPT on 8 A100 80GB (llm-foundry)', () => {
  it('scores the table\'s 59 single-node rows, every one fitting its GPUs as it did', () => {
    expect(rows).toHaveLength(59);
    for (const r of rows) expect(r.predicted.memory.fits, `${r.row.model} s=${r.row.seqLength}`).toBe(true);
  });

  it('trainplan counts each row\'s stated parameters exactly (learned positions of s × d, biases, LayerNorms, a tied embedding)', () => {
    for (const row of MPT_ROWS) {
      const valid = validateScenario(mptScenario(row));
      expect(valid.ok).toBe(true);
      if (!valid.ok || typeof valid.value.model === 'string') continue;
      expect(parameterCount(withShapeDefaults(valid.value.model)), `${row.model} s=${row.seqLength}`).toBe(row.parameters);
    }
  });

  it('sequences up to 2,048 without checkpointing meet the target of a source: MAPE ≤ 8%', () => {
    expect(mptSummary(mptBand(rows, short, false)).mape).toBeLessThanOrEqual(TARGETS.sourceMape);
  });

  const longMape = mptSummary(mptBand(rows, long, false)).mape;
  it(`sequences of 16k–64k without checkpointing: MAPE ≤ 31.8% (regression guard; target 8%, measured ${(100 * longMape).toFixed(1)}%)`, () => {
    expect(longMape).toBeLessThanOrEqual(0.318);
  });

  it('the miss grows with the sequence, and FlashAttention 1\'s attention fraction removes that trend (the what-if the report states)', () => {
    const bias = (scored: typeof rows, band: (typeof MPT_BANDS)[number]) => mptSummary(mptBand(scored, band, false)).bias;
    // As trainplan costs FlashAttention-2: ever shorter than measured as attention takes over the step.
    expect(bias(rows, long)).toBeLessThan(bias(rows, MPT_BANDS[1]));
    expect(bias(rows, MPT_BANDS[1])).toBeLessThan(bias(rows, short));
    expect(bias(rows, long)).toBeLessThan(-0.2);
    // With FlashAttention 1's 25–40% of the peak, every band without checkpointing is within 5% on average.
    for (const band of MPT_BANDS) expect(Math.abs(bias(flash1, band)), band.name).toBeLessThan(0.05);
  });
});
