import type { EstimateJson } from '@trainplan/protocol';
import { countOf, formatCount, formatGrouped } from '@trainplan/units';
import { axisTitles, centredLabelRoom, PLOT_PAD, spacedTicks, xTickLabels, yEndTicks } from './axes.ts';
import { CHART_VIEWBOX_WIDTH } from './chart-size.ts';
import { esc, px } from './markup.ts';

export interface ScalingPoint {
  readonly nodes: number;
  /** Undefined when the scenario does not run at this size (the reason says why). */
  readonly tokensPerSecond?: number;
  readonly reason?: string;
}

/**
 * A size's point from its estimate (undefined: none came back). A refused size says why in the planner's own words
 * where the answer names the rule ("the interleaved schedule needs the micro-batches per step (20) in whole rounds of
 * the 9 pipeline stages"), not only that the batch does not divide.
 */
export const scalingPoint = (nodes: number, x: EstimateJson | undefined): ScalingPoint =>
  (x?.ok ? { nodes, tokensPerSecond: x.tokensPerSecond } : { nodes, reason: x ? x.issues?.[0]?.message ?? x.reason : 'no answer' });

/** An estimate's reason code in words, for the list of sizes not drawn. */
const REASON_WORDS: Readonly<Record<string, string>> = {
  'out-of-memory': 'out of memory',
  indivisible: 'the batch does not divide evenly',
  invalid: 'not a valid plan',
};

/**
 * Throughput against node count on log–log axes, with the ideal (linear) scaling from the smallest
 * feasible point dashed and the current node count ringed; node counts label the sizes with room for them. Infeasible
 * sizes are listed, not drawn. `width` is the viewBox's (viewBoxWidthFor: wider in a wide column, which it fills).
 */
export function scalingChart(points: readonly ScalingPoint[], currentNodes: number, width = CHART_VIEWBOX_WIDTH): string {
  const ok = points.filter((p): p is ScalingPoint & { tokensPerSecond: number } => p.tokensPerSecond !== undefined && p.tokensPerSecond > 0);
  if (ok.length === 0) return '<p class="caption">No node count in range runs this configuration.</p>';
  // A line above the plot for the throughput axis's title, and one below the node counts for theirs.
  const height = 184;
  const pad = PLOT_PAD;
  const [first, last] = [ok[0]!, ok[ok.length - 1]!];
  const xs = ok.map((p) => Math.log2(p.nodes));
  const ideal = ok.map((p) => (first.tokensPerSecond * p.nodes) / first.nodes);
  const ys = [...ok.map((p) => p.tokensPerSecond), ...ideal].map((y) => Math.log10(y));
  const [x0, x1] = [Math.min(...xs), Math.max(...xs, Math.min(...xs) + 1)];
  const [y0, y1] = [Math.min(...ys), Math.max(...ys, Math.min(...ys) + 0.5)];
  // The plot ends where the largest size's label, centred under its dot, still fits in the chart.
  const right = Math.max(pad.right, centredLabelRoom(formatGrouped(last.nodes)));
  const X = (n: number) => pad.left + ((Math.log2(n) - x0) / (x1 - x0)) * (width - pad.left - right);
  const Y = (v: number) => height - pad.bottom - ((Math.log10(v) - y0) / (y1 - y0)) * (height - pad.top - pad.bottom);
  const path = (vals: readonly number[]) => ok.map((p, i) => `${i === 0 ? 'M' : 'L'}${px(X(p.nodes))},${px(Y(vals[i]!))}`).join('');
  // Each size's figure, as its dot's hover title and in the chart's accessible name: a screen reader has no hover (QA).
  const said = ok.map((p) => `${countOf(p.nodes, 'node')}: ${formatCount(p.tokensPerSecond)} tokens/s`);
  const dots = ok.map((p, i) => `<circle class="${p.nodes === currentNodes ? 'dot current' : 'dot'}" cx="${px(X(p.nodes))}" cy="${px(Y(p.tokensPerSecond))}" r="${p.nodes === currentNodes ? 5 : 3}"><title>${esc(said[i]!)}</title></circle>`);
  // Each drawn size's node count where it has room: the current one first, then the ends, then the rest; grouped
  // ("1,024") as the titles say it.
  const byPriority = [currentNodes, first.nodes, last.nodes, ...ok.map((p) => p.nodes)].filter((n) => ok.some((p) => p.nodes === n));
  const xTicks = xTickLabels(spacedTicks([...new Set(byPriority)], X, formatGrouped, width), X, formatGrouped, height);
  const titles = axisTitles(width, height, 'tokens/s', 'nodes');
  // The lowest and highest throughput, ending left of the dots (the current one is ringed, r 5 + a 2-unit stroke).
  const yTicks = yEndTicks(Math.min(...ok.map((p) => p.tokensPerSecond)), Math.max(...ok.map((p) => p.tokensPerSecond)), Y, formatCount);
  const skipped = points.filter((p) => p.tokensPerSecond === undefined);
  const note = skipped.length > 0 ? `<p class="caption">Not drawn: ${esc(skipped.map((p) => `${countOf(p.nodes, 'node')} (${REASON_WORDS[p.reason ?? ''] ?? p.reason ?? 'infeasible'})`).join('; '))}.</p>` : '';
  return `<svg class="chart scaling" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(`tokens per second against node count: ${said.join('; ')}`)}"><path class="ideal" d="${path(ideal)}"/><path class="line" d="${path(ok.map((p) => p.tokensPerSecond))}"/>${dots.join('')}${xTicks}${yTicks}${titles}</svg><p class="caption">Tokens/s against nodes (log–log) at this global batch and t, p, c; dashed: linear scaling.</p>${note}`;
}
