import { describe, expect, it } from 'vitest';
import { logXTicks, spacedTicks } from '../src/charts/axes.ts';
import { CHART_VIEWBOX_WIDTH, textWidth } from '../src/charts/chart-size.ts';

/** Each x tick's label and where it is centred, as logXTicks draws them. */
const ticks = (svg: string) => [...svg.matchAll(/data-axis="x" x="([\d.-]+)"[^>]*>([^<]+)</g)].map((m) => ({ x: Number(m[1]), text: m[2]! }));

describe('spacedTicks', () => {
  const X = (v: number) => v; // a value is its own place

  it('keeps the values in the order given, each only where its label clears the labels kept before it', () => {
    // "110" and "120" are about 19 units wide: centred 10 units apart they overlap, and the first given stays.
    expect(spacedTicks([120, 110, 60, 180], X, String, CHART_VIEWBOX_WIDTH)).toEqual([60, 120, 180]);
    expect(spacedTicks([110, 120, 60, 180], X, String, CHART_VIEWBOX_WIDTH)).toEqual([60, 110, 180]);
  });

  it('drops a label that would spill past either edge of the chart, and keeps one that fits', () => {
    expect(spacedTicks([5, 135, 265], X, (v) => `${v}.0 M`, CHART_VIEWBOX_WIDTH)).toEqual([135]);
    // Room for half the label and half a gap to the edge, and a unit to spare.
    expect(spacedTicks([265], X, String, 265 + textWidth('265') / 2 + 3)).toEqual([265]);
  });
});

describe('logXTicks', () => {
  const width = CHART_VIEWBOX_WIDTH;
  /** A log axis across the chart from `lo` to `hi`, with room for a 20-unit margin at either side. */
  const axis = (lo: number, hi: number) => (v: number) => 20 + (Math.log(v / lo) / Math.log(hi / lo)) * (width - 40);

  it('labels 1, 2 and 5 × 10^k, smallest first, where there is room (1 to 200 across the chart)', () => {
    expect(ticks(logXTicks(1, 200, axis(1, 200), width, 200)).map((t) => t.text)).toEqual(['1', '2', '5', '10', '20', '50', '100', '200']);
  });

  it('thins them over a range too wide for all, no two labels touching and none past the chart (0.001 to 10,000)', () => {
    const X = axis(0.001, 10_000);
    const drawn = ticks(logXTicks(0.001, 10_000, X, width, 200));
    expect(drawn.length).toBeLessThan(21);
    expect(drawn[0]!.text).toBe('0.001');
    for (const [i, t] of drawn.entries()) {
      const half = textWidth(t.text) / 2;
      expect(t.x - half).toBeGreaterThanOrEqual(0);
      expect(t.x + half).toBeLessThanOrEqual(width);
      const next = drawn[i + 1];
      if (next) expect(next.x - textWidth(next.text) / 2).toBeGreaterThan(t.x + half);
    }
  });

  it("labels the range's ends when no 1-2-5 value falls inside it (1.1 to 1.9)", () => {
    expect(ticks(logXTicks(1.1, 1.9, axis(1.1, 1.9), width, 200)).map((t) => t.text)).toEqual(['1.1', '1.9']);
  });
});
