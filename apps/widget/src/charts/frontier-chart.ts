import type { FrontierSizeJson } from '@trainplan/protocol';
import { countOf, formatCount, formatGrouped, formatNumber } from '@trainplan/units';
import { axisTitles, logXTicks, PLOT_PAD, plotFrame, yEndTicks } from './axes.ts';
import { CHART_VIEWBOX_WIDTH, textWidth } from './chart-size.ts';
import { esc, px } from './markup.ts';

export interface FrontierChartInput {
  /** Every cluster size searched that runs (runNodes's `frontier`), in any order. */
  readonly sizes: readonly FrontierSizeJson[];
  /** The node counts of the cheapest size (the answer) and the fastest. */
  readonly cheapestNodes: number;
  readonly fastestNodes: number;
  /** The scenario's own node count: its dot is drawn larger and outlined, and labelled first after the ends. */
  readonly currentNodes?: number;
}

const WIDTH = CHART_VIEWBOX_WIDTH;
const HEIGHT = 200;
/** Room for the y ends ("1.84 M") at the left, the axis titles above and below the plot. */
const PAD = PLOT_PAD;
/** A 10-unit label's height (a line of DejaVu Sans, the font's ascent and descent: 11.6 units), for keeping the node-count labels apart. */
const LABEL_HEIGHT = 12;
/** How far a node-count label's box stands above its dot's centre (below it where the plot's top is too near). */
const LABEL_RISE = 8;

interface Box { x0: number; x1: number; y0: number; y1: number }
/** Whether two labels' boxes come closer across than a space and a bit (4 units, axes.ts's TICK_GAP), one over the other. */
const overlaps = (a: Box, b: Box) => a.x0 < b.x1 + 4 && b.x0 < a.x1 + 4 && a.y0 < b.y1 && b.y0 < a.y1;

/**
 * The time–cost curve over cluster sizes: days to train (log scale) across, GPU-hours up. A thin line joins every size
 * searched, fewest nodes first; dots mark the sizes the CLI's table shows (the smallest that runs, the powers of two, the
 * Pareto sizes: none trains as fast for fewer GPU-hours), the ends and the scenario's own size, so some 80 sizes stay
 * readable. The Pareto sizes are filled and joined by a line and carry their node count where it has room; the other
 * dots are hollow. The cheapest and the fastest are ringed and named; the scenario's own size is outlined like the
 * scaling chart's. Every dot's title gives its size, days, GPU-hours and plan.
 */
export function frontierChart({ sizes, cheapestNodes, fastestNodes, currentNodes }: FrontierChartInput): string {
  const ok = sizes.filter((s) => s.days > 0 && s.gpuHours > 0);
  if (ok.length === 0) return '<p class="caption">No cluster size searched runs this model and batch.</p>';
  const days = ok.map((s) => s.days);
  const hours = ok.map((s) => s.gpuHours);
  // A little room beyond the extreme points, so the end dots and their rings stay inside the plot.
  const [d0, d1] = [Math.min(...days) / 1.15, Math.max(...days) * 1.15];
  const [hLo, hHi] = [Math.min(...hours), Math.max(...hours)];
  const spread = Math.max(hHi - hLo, hHi * 0.05);
  const [h0, h1] = [hLo - spread * 0.08, hHi + spread * 0.08];
  const X = (d: number) => PAD.left + ((Math.log(d) - Math.log(d0)) / (Math.log(d1) - Math.log(d0))) * (WIDTH - PAD.left - PAD.right);
  const Y = (h: number) => HEIGHT - PAD.bottom - ((h - h0) / (h1 - h0)) * (HEIGHT - PAD.top - PAD.bottom);

  const pareto = ok.filter((s) => s.pareto).sort((a, b) => a.days - b.days);
  const path = (ps: readonly FrontierSizeJson[]) => ps.map((s, i) => `${i ? 'L' : 'M'}${px(X(s.days))},${px(Y(s.gpuHours))}`).join('');
  const byNodes = [...ok].sort((a, b) => a.nodes - b.nodes);
  const line = (pareto.length > 1 ? `<path class="line pareto" d="${path(pareto)}"/>` : '') + (ok.length > 1 ? `<path class="line all" d="${path(byNodes)}"/>` : '');
  const shown = (s: FrontierSizeJson) => s.pareto || !(s.nodes & (s.nodes - 1)) || s === byNodes[0] || s.nodes === cheapestNodes || s.nodes === fastestNodes || s.nodes === currentNodes;
  const dots = ok.filter(shown).map((s) => {
    const title = `${countOf(s.nodes, 'node')} (${countOf(s.gpus, 'GPU')}): ${formatNumber(s.days)} days, ${formatCount(s.gpuHours)} GPU-hours, MFU ${formatNumber(s.mfu * 100)}%; ${s.label}`;
    const current = s.nodes === currentNodes;
    return `<circle class="dot${s.pareto ? '' : ' off-curve'}${current ? ' current' : ''}" data-nodes="${s.nodes}" cx="${px(X(s.days))}" cy="${px(Y(s.gpuHours))}" r="${current ? 4 : 3}"><title>${esc(title)}</title></circle>`;
  });
  const marked = [['cheapest', cheapestNodes], ['fastest', fastestNodes]] as const;
  const rings = marked.map(([kind, nodes]) => {
    const s = ok.find((p) => p.nodes === nodes);
    return s ? `<circle class="mark ${kind}" data-marker="${kind}" data-nodes="${nodes}" cx="${px(X(s.days))}" cy="${px(Y(s.gpuHours))}" r="6"/>` : '';
  });

  // Node-count labels, grouped ("6,144 fastest"; the caption says they are node counts, frontierSection), above and right
  // of their dots, slid left only as far as the chart's edge needs: still over their own ring there (anchored at their
  // end 6 units left of it, "14 cheapest" stood nearer the scenario's ring than its own, QA). The cheapest and the fastest
  // first, then the scenario's own size and the other Pareto sizes from the fastest on, each only where it overlaps no
  // label already placed. A halo of the background keeps them legible where a line runs under them (styles.ts, `.label`).
  const named = new Map<number, string>(marked.map(([kind, nodes]) => [nodes, `${formatGrouped(nodes)} ${kind}`]));
  const first = (s: FrontierSizeJson) => (named.has(s.nodes) ? 0 : s.nodes === currentNodes ? 1 : 2);
  const order = [...ok.filter((s) => first(s) < 2), ...pareto.filter((s) => first(s) === 2)].sort((a, b) => first(a) - first(b));
  const placed: Box[] = [];
  const labels: string[] = [];
  for (const s of order) {
    const text = named.get(s.nodes) ?? formatGrouped(s.nodes);
    const w = textWidth(text);
    const [x, y] = [X(s.days), Y(s.gpuHours)];
    const x0 = Math.min(x + 6, WIDTH - w);
    // Clear of the ring (r 6) and its stroke, and of a descender ("cheapest"'s p) drawn over the ring's top.
    const box = { x0, x1: x0 + w, y0: y - LABEL_RISE - LABEL_HEIGHT, y1: y - LABEL_RISE };
    if (box.y0 < 0) { box.y0 += LABEL_HEIGHT + 2 * LABEL_RISE; box.y1 += LABEL_HEIGHT + 2 * LABEL_RISE; }
    if (placed.some((b) => overlaps(b, box))) continue;
    placed.push(box);
    labels.push(`<text class="axis label" data-label="${s.nodes}" x="${px(x0)}" y="${px(box.y1 - 2)}">${esc(text)}</text>`);
  }

  const xTicks = logXTicks(Math.min(...days), Math.max(...days), X, WIDTH, HEIGHT);
  const yTicks = yEndTicks(hLo, hHi, Y, formatCount);
  const titles = axisTitles(WIDTH, HEIGHT, 'GPU-hours', 'days to train (log scale)');
  const frame = plotFrame(WIDTH, HEIGHT);
  return `<svg class="chart frontier" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="GPU-hours against days to train over cluster sizes">${frame}${line}${rings.join('')}${dots.join('')}${labels.join('')}${xTicks}${yTicks}${titles}</svg>`;
}
