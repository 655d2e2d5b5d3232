import { daysText, type FrontierSizeJson } from '@trainplan/protocol';
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
/**
 * How far a node-count label's box stands from its dot's centre: past the ring's outer edge (r 6, its stroke 1.5 wide:
 * 6.75) by the label's halo (1.5 units beyond its glyphs, styles.ts `.label`) less a digit's side bearing (half a unit
 * and more in DejaVu Sans), so the halo leaves the ring whole. At 9, the hollow 4,096 stood nearer the start of
 * "6,144 fastest" than the fastest's own dot (the default scenario's curve, where QA found that label by it).
 */
const LABEL_GAP = 8;
/** How far from a label every other dot drawn must be, in viewBox units, for it to read as its own dot's: farther than its own, by a unit. */
const LABEL_CLEARANCE = LABEL_GAP + 1;
/** A baseline this far below a label box's top centres a digit (0.73 em tall in DejaVu Sans: 7.3 units) in it. */
const LABEL_BASELINE = LABEL_HEIGHT / 2 + 3.6;

interface Box { x0: number; x1: number; y0: number; y1: number }
/** Whether two labels' boxes come closer across than a space and a bit (4 units, axes.ts's TICK_GAP), one over the other. */
const overlaps = (a: Box, b: Box) => a.x0 < b.x1 + 4 && b.x0 < a.x1 + 4 && a.y0 < b.y1 && b.y0 < a.y1;
/** How far the point (x, y) is from a box, 0 inside it. */
const gap = (b: Box, x: number, y: number) => Math.hypot(Math.max(b.x0 - x, 0, x - b.x1), Math.max(b.y0 - y, 0, y - b.y1));

/**
 * The time–cost curve over cluster sizes: days to train (log scale) across, GPU-hours up. A thin line joins every size
 * searched, fewest nodes first; dots mark the sizes the CLI's table shows (the smallest that runs, the powers of two, the
 * Pareto sizes: none trains as fast for fewer GPU-hours), the ends and the scenario's own size, so some 80 sizes stay
 * readable. The Pareto sizes are filled and joined by a line and carry their node count where it can stand beside its
 * dot with no other dot as near; the other dots are hollow. The cheapest and the fastest are ringed and named; the scenario's own size is outlined like the
 * scaling chart's. Every dot's title gives its size, days, GPU-hours and plan, and the chart's accessible name all of them.
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
  const drawn = ok.filter(shown);
  // Each dot's figures, as its hover title and in the chart's accessible name, as the scaling and serving charts give
  // theirs: a screen reader has no hover (WCAG 2.2 1.1.1 Non-text Content; QA found the sizes only in the titles).
  const said = drawn.map((s) => `${countOf(s.nodes, 'node')} (${countOf(s.gpus, 'GPU')}): ${daysText(s.days)}, ${formatCount(s.gpuHours)} GPU-hours, MFU ${formatNumber(s.mfu * 100)}%; ${s.label}`);
  const dots = drawn.map((s, i) => {
    const current = s.nodes === currentNodes;
    return `<circle class="dot${s.pareto ? '' : ' off-curve'}${current ? ' current' : ''}" data-nodes="${s.nodes}" cx="${px(X(s.days))}" cy="${px(Y(s.gpuHours))}" r="${current ? 4 : 3}"><title>${esc(said[i]!)}</title></circle>`;
  });
  const marked = [['cheapest', cheapestNodes], ['fastest', fastestNodes]] as const;
  const rings = marked.map(([kind, nodes]) => {
    const s = ok.find((p) => p.nodes === nodes);
    return s ? `<circle class="mark ${kind}" data-marker="${kind}" data-nodes="${nodes}" cx="${px(X(s.days))}" cy="${px(Y(s.gpuHours))}" r="6"/>` : '';
  });

  // Node-count labels, grouped ("6,144 fastest"; the caption says they are node counts, frontierSection), each beside its
  // own dot, LABEL_GAP from it: level with it to its right, else to its left, else centred above it, in the first of
  // those spots that every other dot drawn keeps LABEL_CLEARANCE from (so its own is the dot nearest it). Drawn a fixed
  // 19 units above their dots, labels on a steep stretch stood beside the next size's dot ("6,144 fastest" by the hollow
  // 4,096, QA). The cheapest and the fastest first (where no spot is that clear, the last in bounds, above it where the
  // chart has room), then the scenario's own size and the other Pareto sizes from the fastest on, each only where it is
  // that clear; none overlaps a label already placed, or leaves the plot's width. A halo of the background keeps them
  // legible where a line runs under them (styles.ts, `.label`).
  const named = new Map<number, string>(marked.map(([kind, nodes]) => [nodes, `${formatGrouped(nodes)} ${kind}`]));
  const first = (s: FrontierSizeJson) => (named.has(s.nodes) ? 0 : s.nodes === currentNodes ? 1 : 2);
  const order = [...ok.filter((s) => first(s) < 2), ...pareto.filter((s) => first(s) === 2)].sort((a, b) => first(a) - first(b));
  const placed: Box[] = [];
  const labels: string[] = [];
  for (const s of order) {
    const text = named.get(s.nodes) ?? formatGrouped(s.nodes);
    const w = textWidth(text);
    const [x, y] = [X(s.days), Y(s.gpuHours)];
    // Every dot stands 8% of the GPU-hours' range inside the plot's top and bottom (h0, h1), some 10 units, so each
    // spot stays within the chart's height: only its ends across are checked.
    const mid = y - LABEL_HEIGHT / 2;
    const spots = [[x + LABEL_GAP, mid], [x - LABEL_GAP - w, mid], [x - w / 2, mid - LABEL_GAP - LABEL_HEIGHT / 2]]
      .map(([x0, y0]) => ({ x0: x0!, x1: x0! + w, y0: y0!, y1: y0! + LABEL_HEIGHT }))
      .filter((b) => b.x0 >= PAD.left && b.x1 <= WIDTH && !placed.some((p) => overlaps(p, b)));
    const box = spots.find((b) => drawn.every((d) => d === s || gap(b, X(d.days), Y(d.gpuHours)) >= LABEL_CLEARANCE)) ?? (first(s) ? undefined : spots.at(-1));
    if (!box) continue;
    placed.push(box);
    labels.push(`<text class="axis label" data-label="${s.nodes}" x="${px(box.x0)}" y="${px(box.y0 + LABEL_BASELINE)}">${esc(text)}</text>`);
  }

  const xTicks = logXTicks(Math.min(...days), Math.max(...days), X, WIDTH, HEIGHT);
  const yTicks = yEndTicks(hLo, hHi, Y, formatCount);
  const titles = axisTitles(WIDTH, HEIGHT, 'GPU-hours', 'days to train (log scale)');
  const frame = plotFrame(WIDTH, HEIGHT);
  return `<svg class="chart frontier" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${esc(`GPU-hours against days to train over cluster sizes: ${said.join('. ')}`)}">${frame}${line}${rings.join('')}${dots.join('')}${labels.join('')}${xTicks}${yTicks}${titles}</svg>`;
}
