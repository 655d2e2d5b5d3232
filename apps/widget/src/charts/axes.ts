import { esc, px } from './markup.ts';

/** The plot's margins in a 320-unit-wide chart: the y ends' labels at the left, the axis titles above and below. */
export const PLOT_PAD = { left: 50, right: 8, top: 22, bottom: 34 } as const;

/** The plot's left and bottom edges, in a chart `width` × `height` units. */
export const plotFrame = (width: number, height: number): string =>
  `<path class="frame" d="M${PLOT_PAD.left},${PLOT_PAD.top}V${height - PLOT_PAD.bottom}H${width - PLOT_PAD.right}"/>`;

/** The least distance between the two y end labels: a line of 10-unit text. */
const Y_END_GAP = 14;

/** The y axis's title above the plot, at the left, and the x axis's below it, centred under the plot. */
export function axisTitles(width: number, height: number, y: string, x: string): string {
  return `<text class="axis axis-title" x="0" y="10" text-anchor="start" data-axis="y">${esc(y)}</text>`
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

/** The least distance between two ticks of a log axis: a label of three or four 10-unit digits and a gap. */
const LOG_TICK_GAP = 26;

/**
 * Ticks at 1, 2 and 5 × 10^k inside [lo, hi] (lo > 0) on a log axis placed by `X`, at least LOG_TICK_GAP
 * apart; the ends' values when none falls inside.
 */
function logTicks(lo: number, hi: number, X: (v: number) => number): number[] {
  const out: number[] = [];
  for (let k = Math.floor(Math.log10(lo)); k <= Math.ceil(Math.log10(hi)); k += 1) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** k;
      if (v >= lo && v <= hi && (out.length === 0 || X(v) - X(out[out.length - 1]!) >= LOG_TICK_GAP)) out.push(v);
    }
  }
  return out.length > 0 ? out : [lo, hi];
}

/** logTicks's values as labels under a plot `height` units tall, to three significant figures. */
export function logXTicks(lo: number, hi: number, X: (v: number) => number, height: number): string {
  return logTicks(lo, hi, X)
    .map((v) => `<text class="axis tick" data-axis="x" x="${px(X(v))}" y="${height - 20}" text-anchor="middle">${esc(String(Number(v.toPrecision(3))))}</text>`)
    .join('');
}
