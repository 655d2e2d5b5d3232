import { textWidth } from './chart-size.ts';
import { esc, px } from './markup.ts';

/**
 * The plot's margins in a chart CHART_VIEWBOX_WIDTH units wide (chart-size.ts): the y ends' labels at the left, the
 * axis titles above and below. Below, the x ticks' labels (baseline X_TICK_RISE above the chart's foot) clear both the
 * lowest y label (baseline at most 4 under the plot) and the x axis's title, each a line of 10-unit text (11.6 units).
 */
export const PLOT_PAD = { left: 50, right: 8, top: 22, bottom: 36 } as const;

/** How far above the chart's foot the x ticks' labels stand (their baseline), in viewBox units. */
const X_TICK_RISE = 18;

/** The plot's left and bottom edges, in a chart `width` × `height` units. */
export const plotFrame = (width: number, height: number): string =>
  `<path class="frame" d="M${PLOT_PAD.left},${PLOT_PAD.top}V${height - PLOT_PAD.bottom}H${width - PLOT_PAD.right}"/>`;

/** The least distance between the two y end labels: a line of 10-unit text. */
const Y_END_GAP = 14;

/** The y axis's title above the plot, at the left (SVG's initial text-anchor, start), and the x axis's below it, centred under the plot. */
export function axisTitles(width: number, height: number, y: string, x: string): string {
  return `<text class="axis axis-title" x="0" y="10" data-axis="y">${esc(y)}</text>`
    + `<text class="axis axis-title" x="${px((PLOT_PAD.left + width - PLOT_PAD.right) / 2)}" y="${height - 4}" text-anchor="middle" data-axis="x">${esc(x)}</text>`;
}

/**
 * The lowest and highest values as labels left of the plot; the highest alone when the two would be
 * closer than a line of text.
 */
export function yEndTicks(lo: number, hi: number, Y: (v: number) => number, format: (v: number) => string): string {
  return (Y(lo) - Y(hi) >= Y_END_GAP ? [lo, hi] : [hi])
    .map((v) => `<text class="axis tick" data-axis="y" x="${PLOT_PAD.left - 10}" y="${px(Y(v) + 4)}" text-anchor="end">${esc(format(v))}</text>`)
    .join('');
}

/**
 * The least room between two x tick labels, in viewBox units: more than a space (3.2 units in DejaVu Sans), so that
 * "100 200" reads as two numbers; half of it between a label and the chart's edge.
 */
const TICK_GAP = 4;

/**
 * Which of `values` get a label under the plot, centred on X(v): each in the order given (the ones to keep first),
 * only where its label stays inside the chart's `width` and TICK_GAP clear of those kept before it. Returns them left to right.
 */
export function spacedTicks(values: readonly number[], X: (v: number) => number, format: (v: number) => string, width: number): number[] {
  const kept: { v: number; x0: number; x1: number }[] = [];
  for (const v of values) {
    const half = textWidth(format(v)) / 2;
    const [x0, x1] = [X(v) - half, X(v) + half];
    if (x0 < TICK_GAP / 2 || x1 > width - TICK_GAP / 2) continue;
    if (kept.some((k) => x0 < k.x1 + TICK_GAP && k.x0 < x1 + TICK_GAP)) continue;
    kept.push({ v, x0, x1 });
  }
  return kept.sort((a, b) => a.x0 - b.x0).map((k) => k.v);
}

/** The room a label centred on a point needs between that point and the chart's edge, in viewBox units. */
export const centredLabelRoom = (text: string): number => textWidth(text) / 2 + TICK_GAP / 2;

/** `values` as labels under a plot `height` units tall, centred on X(v). */
export function xTickLabels(values: readonly number[], X: (v: number) => number, format: (v: number) => string, height: number): string {
  return values
    .map((v) => `<text class="axis tick" data-axis="x" x="${px(X(v))}" y="${height - X_TICK_RISE}" text-anchor="middle">${esc(format(v))}</text>`)
    .join('');
}

/** Ticks at 1, 2 and 5 × 10^k inside [lo, hi] (lo > 0), smallest first; the ends' values when none falls inside. */
function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let k = Math.floor(Math.log10(lo)); k <= Math.ceil(Math.log10(hi)); k += 1) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** k;
      if (v >= lo && v <= hi) out.push(v);
    }
  }
  return out.length > 0 ? out : [lo, hi];
}

/** A log tick's label: three significant figures. */
const logTickText = (v: number): string => String(Number(v.toPrecision(3)));

/**
 * logTicks's values as labels under a plot `height` units tall in a chart `width` units wide, thinned from the
 * smallest on so that no two labels touch and none spills out of the chart (spacedTicks).
 */
export function logXTicks(lo: number, hi: number, X: (v: number) => number, width: number, height: number): string {
  return xTickLabels(spacedTicks(logTicks(lo, hi), X, logTickText, width), X, logTickText, height);
}
