import { describe, expect, it } from 'vitest';
import { bloomConsistency, constantEfficiencyBaseline, predictTable4, scoreAll, summarise, TABLE4, TARGETS } from '../src/index.ts';


/**
 * Accuracy against ../shared/ground-truth (tiers A and B). Where the target is met the test
 * asserts the target. Where it is not yet met, the test asserts a regression guard at the measured
 * figure (rounded up by at most half a point) and its title says so: the target itself is reported as
 * missed in docs/validation.md, never loosened.
 */
const rows = scoreAll();
const { overall, bySource } = summarise(rows);
const source = (id: string) => bySource.find((s) => s.source === id)!;

describe('step-time accuracy against published runs', () => {
  it('scores every tier A/B row of the five sources (70 rows)', () => {
    expect(rows.length).toBe(70);
    expect(rows.every((r) => Number.isFinite(r.error))).toBe(true);
  });
  it('every predicted configuration fits in GPU memory, as the measured runs did', () => {
    expect(rows.filter((r) => !r.fits).map((r) => r.id)).toEqual([]);
  });
  it('overall MAPE ≤ 5% (issue target)', () => {
    expect(overall.mape).toBeLessThanOrEqual(TARGETS.overallMape);
  });
  it.each([
    ['narayanan21', TARGETS.sourceMape],
    ['korthikanti22', TARGETS.sourceMape],
    ['dgxc-24.11', TARGETS.sourceMape],
    ['megatron-readme-h100', TARGETS.sourceMape],
  ])('%s MAPE ≤ 8% (issue target)', (id, bound) => {
    expect(source(id).mape).toBeLessThanOrEqual(bound);
  });
  // Regression guards where the target is missed: the measured figure rounded up to the next tenth
  // of a point (MAPE) or whole point (rows), so any step back fails. See docs/validation.md.
  const bloom = source('bloom-prequel').mape;
  it(`bloom-prequel MAPE ≤ 10.2% (regression guard; issue target 8%, measured ${(100 * bloom).toFixed(1)}%)`, () => {
    expect(bloom).toBeLessThanOrEqual(0.102);
  });
  // The rows past the 15% row target, each with its own guard (|error| now: 25.5%, 17.7%,
  // 25.4%, 16.8%): every other row is held to the target itself.
  const ROW_MISSES: Readonly<Record<string, number>> = {
    'bloom-prequel-02-25-00-L72h14336-dp8tp8pp6mbs4gbs1568-nh64': 0.26,
    'bloom-prequel-02-25-08-L72h14336-dp12tp8pp4mbs2gbs2016-nh64': 0.18,
    'bloom-prequel-02-25-10-L72h14336-dp24tp8pp2mbs1gbs2016-nh64': 0.26,
    'bloom-prequel-02-28-26-L70h14336-dp4tp8pp12mbs2gbs2048-nh64': 0.17,
  };
  it('every row other than the four listed BLOOM misses is within 15% (issue target)', () => {
    const over = rows.filter((r) => !(r.id in ROW_MISSES) && Math.abs(r.error) > TARGETS.rowError);
    expect(over.map((r) => `${r.id} ${(100 * r.error).toFixed(1)}%`)).toEqual([]);
  });
  it.each(Object.entries(ROW_MISSES))('known miss %s stays within its guard (%s)', (id, guard) => {
    const row = rows.find((r) => r.id === id);
    expect(row, id).toBeDefined();
    expect(Math.abs(row!.error)).toBeLessThanOrEqual(guard);
    expect(Math.abs(row!.error)).toBeGreaterThan(TARGETS.rowError); // met now: move it out of the list
  });
  it('beats one constant efficiency per GPU fitted to the same rows', () => {
    expect(overall.mape).toBeLessThan(constantEfficiencyBaseline(rows).mape);
  });
});

describe('SC\'21 Table 1 hardware FLOP utilisation', () => {
  const t1 = rows.filter((r) => r.source === 'narayanan21');
  const hfuErrors = t1.map((r) => Math.abs(1 / (1 + r.error) - 1));
  it('mean HFU error ≤ 3% (issue target)', () => {
    expect(hfuErrors.reduce((a, b) => a + b, 0) / hfuErrors.length).toBeLessThanOrEqual(0.03);
  });
  it('worst HFU error ≤ 6% (issue target)', () => {
    expect(Math.max(...hfuErrors)).toBeLessThanOrEqual(0.06);
  });
  it('runs every row with the artifact\'s stated micro-batch and v, searching nothing', () => {
    // Megatron-LM examples/sc21/run_table_1.sh: 76B runs MBS 2 with 5 layers per virtual stage (v = 60/4/5 = 3).
    const row76 = t1.find((r) => r.id === 'narayanan21-t1-76.1B')!;
    expect(row76.candidates).toBe(1);
    expect(row76.estimate.resolved.microBatchSize).toBe(2);
    expect(row76.estimate.resolved.virtualStages).toBe(3);
    expect(t1.every((r) => r.candidates === 1)).toBe(true);
  });
});

describe('Korthikanti et al. 2022', () => {
  const t4 = predictTable4();
  it.each([
    ['full recompute', TABLE4.fullRecomputeOverhead, t4.fullRecomputeOverhead],
    ['selective recompute', TABLE4.selectiveRecomputeOverhead, t4.selectiveRecomputeOverhead],
    ['selective recompute + sequence parallelism', TABLE4.selectiveWithSequenceParallelOverhead, t4.selectiveWithSequenceParallelOverhead],
  ])('Table 4: the %s overhead per layer is within 3 points of the paper', (_, published, predicted) => {
    expect(Math.abs(predicted - published)).toBeLessThanOrEqual(TARGETS.table4Points);
  });
  it('Table 4: sequence parallelism makes the forward pass faster, as measured (7.7 → 7.2 ms)', () => {
    expect(t4.sequenceParallelForwardMs).toBeLessThan(t4.forwardMs);
  });
  it('full recompute is slower than selective + sequence parallelism at every size, as measured', () => {
    for (const size of ['22B', '175B', '530B', '1000B']) {
      const full = rows.find((r) => r.id === `korthikanti22-${size}-fullrecompute`)!;
      const sel = rows.find((r) => r.id === `korthikanti22-${size}-selective+sp`)!;
      expect(full.predictedStepSeconds).toBeGreaterThan(sel.predictedStepSeconds);
    }
  });
  const pairs = rows.filter((r) => r.source === 'korthikanti22' && /-(fullrecompute|selective\+sp)$/.test(r.id));
  it('full vs selective + SP step times (22B, 175B, 530B, 1T) within the issue\'s 5%', () => {
    expect(pairs.length).toBe(8);
    expect(Math.max(...pairs.map((r) => Math.abs(r.error)))).toBeLessThanOrEqual(0.05);
  });
  it('1T selective + SP, whose v the paper leaves out, runs interleaved (v 2): it fits once fp16 keeps 16-bit main gradients', () => {
    const row = pairs.find((r) => r.id === 'korthikanti22-1000B-selective+sp')!;
    expect(row.chosen).toBe('virtualStages 2');
    expect(row.fits).toBe(true);
  });
  it('Table 4: asynchronous backward communication (Megatron-LM v3.0) brings the backward pass closer to the paper than synchronous collectives', () => {
    const synchronous = predictTable4({ asyncTensorParallelGradComm: false });
    expect(Math.abs(t4.backwardMs - TABLE4.backwardMs)).toBeLessThan(Math.abs(synchronous.backwardMs - TABLE4.backwardMs));
    expect(t4.forwardMs).toBeCloseTo(synchronous.forwardMs, 12);
  });
});

describe('BLOOM prequel: the claims docs/validation.md makes about the whole 2022-02-25 table', () => {
  const c = bloomConsistency();
  it('finds the eleven ground-truth configurations among the twenty-one the source printed', () => {
    expect(c.rows.length).toBe(21);
    expect(c.rows.filter((r) => r.inGroundTruth).length).toBe(11);
  });
  it('the same configuration measured at batch 1568 and 2048 took about as long: the planner grows with the batch, the source did not', () => {
    expect(c.sameConfiguration.measuredGrowth).toBeLessThan(0.05);
    expect(c.sameConfiguration.predictedGrowth).toBeGreaterThan(0.2);
    expect(c.sameConfiguration.predictedGrowth).toBeLessThanOrEqual(c.sameConfiguration.batchGrowth);
    // An added sample cost a tenth of an average one: the two measurements cannot both be right.
    expect(c.sameConfiguration.marginalSecondsPerSample).toBeLessThan(c.sameConfiguration.averageSecondsPerSample / 10);
    // The batch-2048 twin is predicted far better than the kept batch-1568 row.
    expect(Math.abs(c.sameConfiguration.errors[1])).toBeLessThan(Math.abs(c.sameConfiguration.errors[0]) / 2);
  });
  it('the error is a trend in data-parallel degree: DP 24 at least 10 points below DP ≤ 8, by more than the modelled DP time', () => {
    const mean = (d: (x: number) => boolean) => {
      const g = c.errorByDataParallel.filter((x) => d(x.dataParallel));
      return g.reduce((s, x) => s + x.meanError * x.rows, 0) / g.reduce((s, x) => s + x.rows, 0);
    };
    expect(mean((d) => d === 24)).toBeLessThan(mean((d) => d <= 8) - 0.1);
    for (const r of c.rows.filter((x) => x.dataParallel === 24)) {
      const gap = r.scored.measuredStepSeconds - r.scored.predictedStepSeconds;
      expect(gap).toBeGreaterThan(r.scored.estimate.breakdown.dataParallelCommSeconds);
    }
  });
  it('predicted memory stays under what nvidia-smi showed (which also counts the CUDA context and the allocator cache), and within a third of it', () => {
    const measured = c.rows.filter((r) => r.measuredMemoryGB !== undefined);
    expect(measured.length).toBeGreaterThanOrEqual(15);
    for (const r of measured) {
      // The printed "GB" read as GiB, as the report reads it (nvidia-smi prints MiB). The tightest row is
      // a 38 GB run of a configuration the same table also measured at 44 GB.
      expect(r.scored.estimate.memory.totalBytes, r.label).toBeLessThan(r.measuredMemoryGB! * 2 ** 30);
      expect(r.scored.fits, r.label).toBe(true);
    }
    expect(c.memory.minRatio).toBeGreaterThan(2 / 3);
  });
  it('a uniformly slower fabric does not explain it: fewer NICs flatten the DP trend but push the TP 2 rows far over', () => {
    const [modelled, ...cut] = c.nicSensitivity;
    expect(modelled!.nicsPerNode).toBe(4);
    expect(cut.map((x) => x.nicsPerNode)).toEqual([2, 1]);
    // Less bandwidth never makes a step shorter: every group's mean error rises as NICs are removed.
    for (const [a, b] of [[modelled!, cut[0]!], [cut[0]!, cut[1]!]] as const) {
      expect(b.meanErrorUpToDp8).toBeGreaterThan(a.meanErrorUpToDp8);
      expect(b.meanErrorDp24).toBeGreaterThan(a.meanErrorDp24);
      expect(b.meanErrorTp2).toBeGreaterThan(a.meanErrorTp2);
    }
    const quarter = cut[1]!;
    expect(Math.abs(quarter.meanErrorDp24)).toBeLessThan(0.05);
    expect(quarter.meanErrorTp2).toBeGreaterThan(0.1);
    expect(quarter.spearman).toBeLessThan(0.8);
  });
});
