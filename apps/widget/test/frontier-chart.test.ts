import { daysText, runNodes, type FrontierSizeJson } from '@trainplan/protocol';
import { formatCount, formatGrouped, formatNumber } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { frontierAnswer } from './support/frontier-answer.ts';
import { CHAR_WIDTH, CHART_VIEWBOX_WIDTH } from '../src/charts/chart-size.ts';
import { frontierChart } from '../src/charts/frontier-chart.ts';
import { STYLES } from '../src/element/styles.ts';

// The CLI's `trainplan nodes --model gpt3-175b --gpu a100-80gb --global-batch 1536 --tokens 300B --frontier`: some 80
// sizes (the powers of two, eight steps between each two, every size beside the cheapest). Every expectation below is
// taken from that answer, not copied from it, so a change in the search's sizes or the model's figures leaves this
// file about the chart's behaviour.
const answer = frontierAnswer();
const sizes = answer.frontier!;
const CURRENT = 128;
const svg = frontierChart({ sizes, cheapestNodes: answer.nodes, fastestNodes: answer.fastest!.nodes, currentNodes: CURRENT });

const attr = (tag: string, name: string) => Number(tag.match(new RegExp(` ${name}="([-\\d.]+)"`))![1]);
const dots = [...svg.matchAll(/<circle class="dot[^"]*"[^>]*>/g)].map((m) => ({ tag: m[0], nodes: attr(m[0], 'data-nodes'), x: attr(m[0], 'cx'), y: attr(m[0], 'cy') }));
const dotOf = (nodes: number) => dots.find((d) => d.nodes === nodes)!;
const size = (nodes: number) => sizes.find((s) => s.nodes === nodes)!;
const texts = (selector: RegExp) => [...svg.matchAll(selector)].map((m) => m[1]!);
const vertices = (cls: string) => [...svg.match(new RegExp(`<path class="line ${cls}" d="([^"]+)"`))![1]!.matchAll(/[ML]([-\d.]+),([-\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);

/** A label's line of 10-unit DejaVu Sans: its ascent (0.928 em) above the baseline, its descent (0.236 em) below. */
const [ASCENT, DESCENT] = [9.28, 2.36];
/** Half a digit's height (0.729 em) above the baseline: a digit's middle. */
const DIGIT_MIDDLE = 3.65;
/** The ring's radius (6) and half its stroke (0.75), and a little room for the label's halo (styles.ts `.label`). */
const RING_AND_HALO = 6 + 0.75 + 1;

interface LabelBox { nodes: number; text: string; x0: number; x1: number; y0: number; y1: number; baseline: number }
/** Each node-count label of `chart`: its line's box (drawn from x, start-anchored, CHAR_WIDTH a character at most) and baseline. */
const labelsOf = (chart: string): LabelBox[] => [...chart.matchAll(/<text class="axis label" data-label="(\d+)" x="([-\d.]+)" y="([-\d.]+)">([^<]+)</g)]
  .map((m) => {
    const [x, baseline] = [Number(m[2]), Number(m[3])];
    return { nodes: Number(m[1]), text: m[4]!, x0: x, x1: x + m[4]!.length * CHAR_WIDTH, y0: baseline - ASCENT, y1: baseline + DESCENT, baseline };
  });
const labelBoxes = () => labelsOf(svg);
/** Each dot of `chart` (circle.dot): its size and centre. */
const dotsOf = (chart: string) => [...chart.matchAll(/<circle class="dot[^"]*"[^>]*>/g)].map((m) => ({ nodes: attr(m[0], 'data-nodes'), x: attr(m[0], 'cx'), y: attr(m[0], 'cy') }));
/** The point of a box nearest (x, y), and how far it is. */
function nearestPoint(b: LabelBox, x: number, y: number): { x: number; y: number; distance: number } {
  const p = { x: Math.min(Math.max(x, b.x0), b.x1), y: Math.min(Math.max(y, b.y0), b.y1) };
  return { ...p, distance: Math.hypot(p.x - x, p.y - y) };
}

/**
 * The CLI's `trainplan nodes --model llama3-70b --gpu v100-32gb --global-batch 512 --tokens 300B --frontier`: QA's steep
 * curve, where the fastest sizes stand a few units apart one over the other, and labels drawn 19 units above their dots
 * stood each beside the next size's ("7,168 fastest" by the hollow 8,192, "6,144" by the fastest's ring).
 */
const steep = runNodes({ model: 'llama3-70b', cluster: { gpu: 'v100-32gb' }, training: { globalBatchSize: 512 }, tokens: 300e9, frontier: true });
if (!steep.ok || steep.mode !== 'cost-time-frontier') throw new Error('expected a time–cost curve');
const steepSvg = frontierChart({ sizes: steep.frontier!, cheapestNodes: steep.nodes, fastestNodes: steep.fastest!.nodes, currentNodes: CURRENT });

// What the chart is meant to show, worked out here from the sizes themselves.
const byNodes = [...sizes].sort((a, b) => a.nodes - b.nodes);
/** No other size trains as fast or faster for as few GPU-hours or fewer, one of them strictly. */
const undominated = (p: FrontierSizeJson) => !sizes.some((q) => q.days <= p.days && q.gpuHours <= p.gpuHours && (q.days < p.days || q.gpuHours < p.gpuHours));
/** The fewest GPU-hours (the fewer nodes on a tie), and the fewest days (the fewer GPU-hours on a tie). */
const cheapest = sizes.reduce((a, b) => (b.gpuHours < a.gpuHours || (b.gpuHours === a.gpuHours && b.nodes < a.nodes) ? b : a));
const fastest = sizes.reduce((a, b) => (b.days < a.days || (b.days === a.days && b.gpuHours < a.gpuHours) ? b : a));
const isPowerOfTwo = (n: number) => Number.isInteger(Math.log2(n));
/** The sizes the CLI's table shows (the smallest, the powers of two, the Pareto sizes), the two ends and the scenario's own size. */
const dotted = byNodes.filter((s) => s === byNodes[0] || isPowerOfTwo(s.nodes) || undominated(s) || s === cheapest || s === fastest || s.nodes === CURRENT);

describe('the time–cost chart', () => {
  it('is drawn from a real frontier answer with more sizes than dots, some of them off the curve (the fixture this file relies on)', () => {
    expect(answer.ok && answer.mode).toBe('cost-time-frontier');
    expect(sizes.map((s) => s.pareto)).toEqual(sizes.map(undominated));
    expect([answer.nodes, answer.fastest!.nodes]).toEqual([cheapest.nodes, fastest.nodes]);
    expect(cheapest.nodes).not.toBe(fastest.nodes);
    expect(sizes.length).toBeGreaterThan(dotted.length + 20);
    expect(dotted.some((s) => !s.pareto)).toBe(true);
    expect(size(CURRENT)).toBeDefined();
  });

  it('draws a dot for the smallest size, the powers of two, the Pareto sizes, both ends and the scenario\'s own, the sizes off the Pareto curve hollow', () => {
    expect(dots.map((d) => d.nodes).sort((a, b) => a - b)).toEqual(dotted.map((s) => s.nodes));
    expect(dots.filter((d) => d.tag.includes('off-curve')).map((d) => d.nodes).sort((a, b) => a - b)).toEqual(dotted.filter((s) => !undominated(s)).map((s) => s.nodes));
    expect(dots.filter((d) => d.tag.includes('current')).map((d) => d.nodes)).toEqual([CURRENT]);
    expect(dotOf(CURRENT).tag).toContain('current');
  });

  it('names every dot\'s size, GPUs, days, GPU-hours, MFU and plan in its accessible name, as its hover title does (a screen reader has no hover)', () => {
    const unescape = (t: string) => t.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
    const titles = [...svg.matchAll(/<circle class="dot[^"]*"[^>]*><title>([^<]*)<\/title>/g)].map((m) => unescape(m[1]!));
    expect(titles).toHaveLength(dotted.length);
    // One title per dot, in the dots' order.
    expect(titles.map((t) => Number(t.replace(/ nodes?.*/, '').replace(/,/g, '')))).toEqual(dots.map((d) => d.nodes));
    const c = size(CURRENT);
    expect(titles).toContain(`${CURRENT} nodes (${formatGrouped(c.gpus)} GPUs): ${daysText(c.days)}, ${formatCount(c.gpuHours)} GPU-hours, MFU ${formatNumber(c.mfu * 100)}%; ${c.label}`);
    // The fastest trains within a day: in hours, as the CLI says it (QA: "0.990 days").
    const quick = size(fastest.nodes);
    expect(quick.days).toBeLessThan(1);
    expect(titles.find((t) => t.startsWith(`${formatGrouped(quick.nodes)} nodes `))).toMatch(/\): \d+\.\d hours, /);
    const name = unescape(svg.match(/<svg class="chart frontier"[^>]* aria-label="([^"]*)"/)![1]!);
    expect(name).toBe(`GPU-hours against days to train over cluster sizes: ${titles.join('. ')}`);
  });

  it('joins every size searched, fewest nodes first, with a thin line through the dots it draws', () => {
    const line = vertices('all');
    expect(line).toHaveLength(sizes.length);
    byNodes.forEach((s, i) => { if (dotOf(s.nodes)) expect(line[i], `${s.nodes} nodes`).toEqual([dotOf(s.nodes).x, dotOf(s.nodes).y]); });
  });

  it('puts days across on a log scale and GPU-hours up, over every size searched', () => {
    // Any three sizes on the line keep their days' ratios as distances across.
    const line = vertices('all');
    const at = (s: FrontierSizeJson) => line[byNodes.indexOf(s)]!;
    const slowest = byNodes.reduce((a, b) => (b.days > a.days ? b : a));
    const middle = size(CURRENT);
    const share = (at(middle)[0]! - at(fastest)[0]!) / (at(slowest)[0]! - at(fastest)[0]!);
    expect(share).toBeCloseTo(Math.log(middle.days / fastest.days) / Math.log(slowest.days / fastest.days), 2);
    // Fewer GPU-hours sit lower (a larger y in SVG): the cheapest is the lowest point, the costliest size (a dot or not) the highest.
    const ys = line.map((v) => v[1]!);
    const costliest = byNodes.reduce((a, b) => (b.gpuHours > a.gpuHours ? b : a));
    expect(Math.max(...ys)).toBe(at(cheapest)[1]);
    expect(Math.min(...ys)).toBe(at(costliest)[1]);
    expect(Math.max(...dots.map((d) => d.y))).toBe(dotOf(cheapest.nodes).y);
  });

  it('titles both axes with their units and labels the GPU-hours ends and 1-2-5 day ticks over the days searched', () => {
    expect(texts(/data-axis="y">([^<]+)</g)).toEqual(['GPU-hours']);
    expect(texts(/data-axis="x">([^<]+)</g)).toEqual(['days to train (log scale)']);
    const hours = sizes.map((s) => s.gpuHours);
    expect(texts(/class="axis tick" data-axis="y"[^>]*>([^<]+)</g)).toEqual([formatCount(Math.min(...hours)), formatCount(Math.max(...hours))]);
    // The 1, 2 and 5 × 10^k between the fewest and the most days: those drawn run unbroken, at most one left out at either end (no room).
    const days = sizes.map((s) => s.days);
    const steps: number[] = [];
    for (let k = -3; k <= 5; k++) for (const m of [1, 2, 5]) if (m * 10 ** k >= Math.min(...days) && m * 10 ** k <= Math.max(...days)) steps.push(Number((m * 10 ** k).toPrecision(3)));
    const ticks = [...svg.matchAll(/class="axis tick" data-axis="x" x="([-\d.]+)"[^>]*>([^<]+)</g)].map((m) => ({ x: Number(m[1]), v: Number(m[2]) }));
    expect(ticks.length).toBeGreaterThanOrEqual(steps.length - 2);
    const first = steps.indexOf(ticks[0]!.v);
    expect(first).toBeLessThanOrEqual(1);
    expect(ticks.map((t) => t.v)).toEqual(steps.slice(first, first + ticks.length));
    // Each where the dots' scale puts its days.
    const [a, b] = [dotOf(fastest.nodes), dotOf(cheapest.nodes)];
    for (const t of ticks) expect(t.x, `${t.v} days`).toBeCloseTo(a.x + ((b.x - a.x) * Math.log(t.v / fastest.days)) / Math.log(cheapest.days / fastest.days), 0);
  });

  it('joins the Pareto sizes, fastest to cheapest, with one line through their dots', () => {
    const pareto = sizes.filter(undominated).sort((p, q) => p.days - q.days);
    expect(pareto.length).toBeGreaterThan(1);
    expect(vertices('pareto')).toEqual(pareto.map((s) => [dotOf(s.nodes).x, dotOf(s.nodes).y]));
  });

  it('rings and names the cheapest (fewest GPU-hours) and the fastest (fewest days)', () => {
    for (const [kind, nodes] of [['cheapest', cheapest.nodes], ['fastest', fastest.nodes]] as const) {
      const ring = svg.match(new RegExp(`<circle class="mark ${kind}"[^>]*>`))![0];
      expect([attr(ring, 'data-nodes'), attr(ring, 'cx'), attr(ring, 'cy')]).toEqual([nodes, dotOf(nodes).x, dotOf(nodes).y]);
      // Grouped as every count the widget shows (the caption says the labels are node counts): 6144 read like a batch (QA).
      expect(texts(new RegExp(`data-label="${nodes}"[^>]*>([^<]+)<`, 'g'))).toEqual([`${nodes.toLocaleString('en-US')} ${kind}`]);
    }
  });

  it.each([['the default scenario\'s', () => svg], ['QA\'s steep', () => steepSvg]])('puts each label on %s curve beside its own dot: level with it or centred over it, clear of its ring', (_curve, chart) => {
    const dots = dotsOf(chart());
    for (const l of labelsOf(chart())) {
      const own = dots.find((d) => d.nodes === l.nodes)!;
      const p = nearestPoint(l, own.x, own.y);
      // Its near edge a fixed step from the dot's centre: past the ring and the halo, and no farther than a character more.
      expect(p.distance, l.text).toBeGreaterThanOrEqual(RING_AND_HALO);
      expect(p.distance, l.text).toBeLessThan(RING_AND_HALO + CHAR_WIDTH);
      if (Math.abs(p.y - own.y) < 0.01) {
        // Beside it: its digits' middle level with the dot's centre.
        expect(l.baseline - DIGIT_MIDDLE, l.text).toBeCloseTo(own.y, 0);
      } else {
        // Over it: centred on the dot's x.
        expect((l.x0 + l.x1) / 2, l.text).toBeCloseTo(own.x, 1);
      }
    }
  });

  it.each([['the default scenario\'s', () => svg], ['QA\'s steep', () => steepSvg]])('puts each label on %s curve nearer its own dot than any other dot drawn (QA: "6,144 fastest" beside the hollow 4,096)', (_curve, chart) => {
    const dots = dotsOf(chart());
    const labels = labelsOf(chart());
    // Both ends are named on either curve.
    expect(labels.filter((l) => / (cheapest|fastest)$/.test(l.text))).toHaveLength(2);
    for (const l of labels) {
      const mine = dots.find((d) => d.nodes === l.nodes)!;
      const facing = nearestPoint(l, mine.x, mine.y);
      // A dot drawn within an end's ring (r 6: 16 nodes beside the cheapest 14) is read with it.
      const ringed = / (cheapest|fastest)$/.test(l.text);
      const others = dots.filter((d) => d.nodes !== l.nodes && !(ringed && Math.hypot(d.x - mine.x, d.y - mine.y) < 6));
      // Where it starts (the point facing its dot), every other dot is farther than its own, by a unit or more.
      for (const d of others) expect(Math.hypot(d.x - facing.x, d.y - facing.y), `${l.text} by ${d.nodes} nodes`).toBeGreaterThan(facing.distance + 1);
      // And a count no word ties to a ring has no other dot as near any of it. A name may have: where sizes crowd an end
      // on both sides (the cheapest on a flat stretch), no spot beside it is clear of them all.
      if (/^[\d,]+$/.test(l.text)) for (const d of others) expect(nearestPoint(l, d.x, d.y).distance, `${l.text} by ${d.nodes} nodes`).toBeGreaterThan(facing.distance);
    }
  });

  it('moves a label with its dot: the same size drawn elsewhere keeps its label at the same offset', () => {
    // The two ends stay put (the axes span them); the size between them, clear of both, moves, and its label with it.
    const at = (days: number, gpuHours: number): FrontierSizeJson => ({ nodes: 64, gpus: 512, days, seconds: days * 86_400, gpuHours, label: 'TP 8 · PP 8 · DP 8', mfu: 0.5, pareto: true });
    const ends: FrontierSizeJson[] = [
      { ...at(2, 900_000), nodes: 512, gpus: 4096 },
      { ...at(100, 500_000), nodes: 8, gpus: 64 },
    ];
    const offsets = [at(10, 600_000), at(30, 550_000), at(5, 700_000)].map((middle) => {
      const chart = frontierChart({ sizes: [...ends, middle], cheapestNodes: 8, fastestNodes: 512 });
      const dot = dotsOf(chart).find((d) => d.nodes === 64)!;
      const label = labelsOf(chart).find((l) => l.nodes === 64)!;
      return [label.x0 - dot.x, label.baseline - dot.y].map((v) => Math.round(v * 100) / 100);
    });
    expect(offsets[1]).toEqual(offsets[0]);
    expect(offsets[2]).toEqual(offsets[0]);
  });

  it('draws the labels with a halo of the background, so a line under one leaves it legible (QA: "6144 fastest" over the line)', () => {
    expect(STYLES).toMatch(/\.label\{paint-order:stroke;stroke:var\(--_bg\);stroke-width:3px/);
    expect(labelBoxes().length).toBeGreaterThan(0);
  });

  it('labels Pareto sizes with their node counts sparsely: no two labels overlap, and not every size gets one', () => {
    const labels = labelBoxes();
    expect(labels.every((l) => undominated(size(l.nodes)) || l.nodes === CURRENT)).toBe(true);
    // The two ends at least (a size between them is labelled where it is clear: 'moves a label with its dot').
    expect(labels.length).toBeGreaterThanOrEqual(2);
    expect(labels.length).toBeLessThan(sizes.filter(undominated).length);
    for (const [i, a] of labels.entries()) {
      for (const b of labels.slice(i + 1)) expect(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1, `${a.nodes} and ${b.nodes} overlap`).toBe(false);
      expect(a.x0).toBeGreaterThanOrEqual(0);
      expect(a.x1).toBeLessThanOrEqual(CHART_VIEWBOX_WIDTH);
    }
  });

  it('draws a lone size as one dot, both marks and no line; no size at all as a sentence', () => {
    const one: FrontierSizeJson = { nodes: 4, gpus: 32, days: 10, seconds: 864_000, gpuHours: 7680, label: 'TP 8 · PP 4 · DP 1', mfu: 0.5, pareto: true };
    const lone = frontierChart({ sizes: [one], cheapestNodes: 4, fastestNodes: 4 });
    expect(lone.match(/<circle class="dot/g)).toHaveLength(1);
    expect(lone).toContain('data-marker="cheapest"');
    expect(lone).toContain('data-marker="fastest"');
    expect(lone).not.toContain('class="line');
    expect(frontierChart({ sizes: [], cheapestNodes: 1, fastestNodes: 1 })).toContain('No cluster size searched runs');
  });
});
