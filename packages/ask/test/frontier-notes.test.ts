import type { NodesResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { frontierNotes, overAYear, shownSizes, yearLongDays } from '../src/answer/frontier-notes.ts';

type FrontierAnswer = Extract<NodesResponseJson, { ok: true }>;
type Size = NonNullable<FrontierAnswer['frontier']>[number];

/**
 * A curve of [nodes, days, gpuHours, pareto] rows, the cheapest (fewest GPU-hours) as the answer; each
 * size costed at `pricePerGpuHour` when given, as runNodes costs them.
 */
function curve(rows: [number, number, number, boolean][], pricePerGpuHour?: number): FrontierAnswer {
  const frontier: Size[] = rows.map(([nodes, days, gpuHours, pareto]) => ({
    nodes, gpus: nodes * 8, days, seconds: days * 86_400, gpuHours, label: `plan ${nodes}`, mfu: 0.4, pareto,
    ...(pricePerGpuHour !== undefined && { cost: gpuHours * pricePerGpuHour }),
  }));
  const cheapest = frontier.reduce((a, b) => (b.gpuHours < a.gpuHours ? b : a));
  const fastest = frontier.reduce((a, b) => (b.days < a.days ? b : a));
  return {
    ok: true, mode: 'cost-time-frontier', ...cheapest, tokens: 1, searches: frontier.length, frontier, fastest,
    configuration: {} as FrontierAnswer['configuration'],
  };
}

describe('shownSizes: the faster Pareto sizes a cheapest answer shows', () => {
  it.each([
    ['a slow cheapest: the first under 90 days, the first under 30, and the fastest', [[8, 372, 572, true], [16, 188, 577, true], [64, 48.7, 598, true], [128, 25.2, 620, true], [8192, 1.7, 2664, true]], [64, 128, 8192]],
    ['sizes off the Pareto front are never shown (4 nodes: slower and dearer than 8)', [[4, 800, 630, false], [8, 372, 572, true], [64, 80, 598, true], [8192, 1.7, 2664, true]], [64, 8192]],
    ['a cheapest under 30 days: the next faster size and the fastest', [[16, 20, 100, true], [32, 10.5, 105, true], [64, 5.6, 112, true], [128, 3, 130, true]], [32, 128]],
    ['no milestone met below the fastest: the fastest and the next faster size', [[8, 2000, 500, true], [16, 1000, 510, true], [32, 600, 530, true]], [16, 32]],
    ['the cheapest is the fastest: none', [[16, 20, 100, true]], []],
  ] as [string, [number, number, number, boolean][], number[]][])('%s', (_title, rows, nodes) => {
    expect(shownSizes(curve(rows)).map((p) => p.nodes)).toEqual(nodes);
  });
});

describe('frontierNotes', () => {
  it('names each shown size\'s time, GPU-hours, runNodes\'s cost and extra GPU-hours over the cheapest; the fastest by name', () => {
    // The question's currency only: the cost is each size's own (runNodes's at $2/GPU-hour), never recomputed.
    const notes = frontierNotes(curve([[8, 372, 572_000, true], [64, 48.7, 598_000, true], [8192, 1.7, 2_664_000, true]], 2), { currency: '$' });
    expect(notes.slice(1, 3)).toEqual([
      'Faster: 64 nodes (512 GPUs): 48.7 days for 598k GPU-hours ($1.20M, +4.5%).',
      'The fastest, 8,192 nodes (65,536 GPUs): 1.7 days for 2.66M GPU-hours ($5.33M, +366%).',
    ]);
  });

  it('an extra of 9.96% reads "+10%", whole once it rounds to 10 (not "+10.0%")', () => {
    const notes = frontierNotes(curve([[8, 372, 500_000, true], [64, 48.7, 549_800, true]]), {});
    expect(notes[1]).toBe('The fastest, 64 nodes (512 GPUs): 48.7 days for 550k GPU-hours (+10%).');
  });

  it('says so when the cheapest is also the fastest', () => {
    const notes = frontierNotes(curve([[16, 20, 100, true]]), {});
    expect(notes).toContain('No larger cluster trains it faster: the cheapest is also the fastest.');
    expect(notes[0]).toMatch(/^The fewest GPU-hours of 1 cluster size that run /);
  });

  it('with no price, says how to get the cost in money ("how much does it cost to train llama 3 8b" answered in GPU-hours alone); with one, nothing', () => {
    const hint = 'Give a price ("at $2/GPU-hour") for the cost in money: GPU-hours × the price per GPU-hour.';
    expect(frontierNotes(curve([[16, 20, 100, true]]), {})).toContain(hint);
    expect(frontierNotes(curve([[16, 20, 100, true]], 2), { pricePerGpuHour: 2, currency: '$' })).not.toContain(hint);
  });

  it('a pricing term the question names with no price is said to price nothing, as beside a cost question\'s GPU-hours', () => {
    const hint = 'Give a price ("at $2/GPU-hour") for the cost in money: GPU-hours × the price per GPU-hour.';
    const term = ' "spot" prices nothing here: trainplan keeps no price list, prices differing by provider, region and date.';
    expect(frontierNotes(curve([[16, 20, 100, true]]), {}, 'cheapest way to train llama3-8b on 1T tokens on spot H100')).toContain(`${hint}${term}`);
    expect(frontierNotes(curve([[16, 20, 100, true]]), {}, 'cheapest way to train llama3-8b on 1T tokens on H100')).toContain(hint);
  });
});

describe('overAYear: a cheapest plan past a year names a faster size in its headline', () => {
  // Each figure follows the size it is of: "over a year" beside the cheapest's days, the faster size's days after its nodes
  // (QA: "…402 days…; over a year: 36 nodes … 80.8 days" read as if the 36 nodes took over a year). Extras by hand:
  // 598k / 572k = +4.5%, 530k / 500k = +6.0%; 2,000 days / 365.25 = 5.5 years, said by formatDays itself.
  it.each([
    ['the first Pareto size within a quarter', [[8, 372, 572_000, true], [16, 188, 577_000, true], [64, 48.7, 598_000, true], [8192, 1.7, 2_664_000, true]],
      { days: '372 days (over a year)', faster: 'faster: 64 nodes (512 GPUs) train it in 48.7 days for 598k GPU-hours (+4.5%)' }],
    ['none within a quarter: the first within a year; years said once', [[8, 2000, 500_000, true], [16, 1000, 510_000, true], [32, 300, 530_000, true], [64, 200, 600_000, true]],
      { days: '2,000 days (5.5 years)', faster: 'faster: 32 nodes (256 GPUs) train it in 300 days for 530k GPU-hours (+6.0%)' }],
  ] as [string, [number, number, number, boolean][], { days: string; faster: string }][])('%s', (_title, rows, text) => {
    expect(overAYear(curve(rows), {})).toEqual(text);
  });

  it('within a year, or with no faster size, nothing is added', () => {
    expect(overAYear(curve([[8, 300, 572_000, true], [64, 48.7, 598_000, true]]), {})).toBeUndefined();
    expect(overAYear(curve([[8, 400, 572_000, true]]), {})).toBeUndefined();
  });
});

describe('yearLongDays: days past a year said so, once', () => {
  it.each([
    [365, '365 days'], // a year, not over it
    [366, '366 days (over a year)'],
    [729, '729 days (over a year)'],
    [730, '730 days (2.0 years)'], // 730 / 365.25 = 1.9986: formatDays says the years from two on
  ])('%d days: %s', (days, text) => {
    expect(yearLongDays(days)).toBe(text);
  });
});
