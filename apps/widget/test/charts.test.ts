import { CONTRACT_EXAMPLE, runEstimate, type EstimateOk } from '@trainplan/protocol';
import { GiB, formatNumber, formatPercent } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { breakdownBar, breakdownSegments } from '../src/charts/breakdown-bar.ts';
import { esc } from '../src/charts/markup.ts';
import { memoryBar } from '../src/charts/memory-bar.ts';
import { CHART_VIEWBOX_WIDTH } from '../src/charts/chart-size.ts';
import { MAX_DRAWN_BOXES, pipelineChart } from '../src/charts/pipeline-chart.ts';
import { scalingChart } from '../src/charts/scaling-chart.ts';
import { pipelineSection } from '../src/element/results.ts';
import { pipelineTimeline } from '../src/schedule/pipeline-timeline.ts';

const GIB = GiB(1);
const example = runEstimate(CONTRACT_EXAMPLE) as EstimateOk;
const widths = (svg: string, cls: string) => [...svg.matchAll(new RegExp(`class="[^"]*${cls}[^"]*" [^>]*width="([\\d.]+)"`, 'g'))].map((m) => Number(m[1]));

describe('step-time breakdown bar', () => {
  it('splits the step into parts that add up to the step time (planner: compute + comms + bubble + optimizer)', () => {
    expect(example.ok).toBe(true);
    const sum = breakdownSegments(example.breakdown).reduce((a, s) => a + s.seconds, 0);
    expect(sum).toBeCloseTo(example.stepTimeSeconds, 9);
  });

  it('draws each part in proportion, filling the bar', () => {
    const svg = breakdownBar(example.breakdown, example.stepTimeSeconds);
    const total = widths(svg, 'seg').reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(320, 0);
    const compute = widths(svg, 'seg-compute')[0]!;
    expect(compute / 320).toBeCloseTo((example.breakdown.computeSeconds - example.breakdown.recomputeSeconds) / example.stepTimeSeconds, 3);
  });
});

describe('step-time breakdown labels', () => {
  const legend = (html: string) => [...html.matchAll(/<li><span class="swatch seg-(\w+)"><\/span>([^<]*) <b>/g)].map((m) => [m[1], m[2]] as const);

  it("says the compute part excludes recompute where recompute is its own part, the two adding up to the estimate's compute (full recompute)", () => {
    const b = example.breakdown;
    expect(b.recomputeSeconds).toBeGreaterThan(0);
    const parts = breakdownSegments(b);
    const compute = parts.find((s) => s.key === 'compute')!;
    const recompute = parts.find((s) => s.key === 'recompute')!;
    expect(compute.seconds + recompute.seconds).toBeCloseTo(b.computeSeconds, 12);
    const shown = legend(breakdownBar(b, example.stepTimeSeconds));
    expect(shown.slice(0, 2)).toEqual([['compute', 'compute (excl. recompute)'], ['recompute', 'recompute']]);
  });

  it('calls the compute part plain "compute", with no recompute part, when nothing is recomputed', () => {
    const e = runEstimate({ ...CONTRACT_EXAMPLE, cluster: { ...CONTRACT_EXAMPLE.cluster, gpu: 'h200' }, parallelism: { ...CONTRACT_EXAMPLE.parallelism, recompute: 'none' } }) as EstimateOk;
    expect(e.ok).toBe(true);
    const shown = legend(breakdownBar(e.breakdown, e.stepTimeSeconds));
    expect(shown[0]).toEqual(['compute', 'compute']);
    expect(shown.map(([key]) => key)).not.toContain('recompute');
  });
});

describe('memory bar', () => {
  it('scales to the capacity when the total fits, and to the total when it does not', () => {
    const m = { weightsBytes: 10, gradientsBytes: 10, optimizerBytes: 20, activationsBytes: 30, otherBytes: 10, totalBytes: 80, capacityBytes: 160, fits: true };
    expect(widths(memoryBar(m), 'mem').reduce((a, b) => a + b, 0)).toBeCloseTo(160, 6);
    const over = memoryBar({ ...m, capacityBytes: 40, fits: false });
    expect(widths(over, 'mem').reduce((a, b) => a + b, 0)).toBeCloseTo(320, 6);
    expect(over).toContain('does not fit');
    expect(over).toContain('x1="160"');
  });
});

describe('pipeline chart', () => {
  it('draws one box per forward and backward of each micro-batch chunk on each stage, over idle rows', () => {
    const r = pipelineTimeline({ stages: 4, microBatches: 8, virtualStages: 2, schedule: 'interleaved' });
    if (!r.ok) throw new Error(r.message);
    const svg = pipelineChart(r.timeline);
    expect(svg.match(/class="op fwd"/g)).toHaveLength(4 * 8 * 2);
    expect(svg.match(/class="op bwd"/g)).toHaveLength(4 * 8 * 2);
    expect(svg.match(/class="idle"/g)).toHaveLength(4);
    expect(svg).toContain('bubble 18.8%'); // (p − 1)/(v·m) = 3/16
  });

  // 16 micro-batches: what the widget draws of a longer 1F1B step (element/results.ts).
  it.each([[24, 24], [64, 64], [128, 44]])('draws %i stages (%i rows) in at most 218 units of height (16 + 188 + 14), every row still a visible bar', (stages, rows) => {
    const r = pipelineTimeline({ stages, microBatches: 16, virtualStages: 1, schedule: '1f1b' });
    if (!r.ok) throw new Error(r.message);
    const svg = pipelineChart(r.timeline);
    expect(Number(svg.match(new RegExp(`viewBox="0 0 ${CHART_VIEWBOX_WIDTH} ([\\d.]+)"`))![1])).toBeLessThanOrEqual(218);
    const idle = [...svg.matchAll(/class="idle" x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/g)].map((m) => ({ y: Number(m[1]), h: Number(m[2]) }));
    expect(idle).toHaveLength(rows);
    for (const [i, bar] of idle.entries()) {
      expect(bar.h).toBeGreaterThanOrEqual(1);
      if (i > 0) expect(bar.y).toBeGreaterThan(idle[i - 1]!.y + idle[i - 1]!.h); // a gap between rows
    }
  });
});

describe('pipeline chart with many stages', () => {
  const chart = (stages: number, microBatches: number, virtualStages: number) => {
    const r = pipelineTimeline({ stages, microBatches, virtualStages, schedule: virtualStages > 1 ? 'interleaved' : '1f1b' });
    if (!r.ok) throw new Error(r.message);
    return { svg: pipelineChart(r.timeline), ops: r.timeline.ops.length };
  };
  const count = (svg: string, pattern: RegExp) => svg.match(pattern)?.length ?? 0;
  const labels = (svg: string) => [...svg.matchAll(/y="([\d.]+)" class="axis" data-stage="(\d+)">s(\d+)</g)].map((m) => ({ y: Number(m[1]), stage: Number(m[2]) }));

  it(`draws at most ${MAX_DRAWN_BOXES} boxes of p = 64, v = 2 (16,384 at m = p, the fewest the schedule allows): every 11th stage and the last, said in the caption`, () => {
    const { svg, ops } = chart(64, 64, 2);
    expect(ops).toBe(16_384);
    expect(count(svg, /class="op /g)).toBe(7 * 256);
    // Each box is a rect and its title: the whole picture stays a few thousand elements (it was 32,800).
    expect(count(svg, /<[a-z]/g)).toBeLessThan(2 * MAX_DRAWN_BOXES + 100);
    expect(labels(svg).map((l) => l.stage)).toEqual([0, 11, 22, 33, 44, 55, 63]);
    expect(svg).toContain('7 of 64 stages drawn: s0, s11, s22, …, s63');
  });

  it('draws every stage of p = 64 at 16 micro-batches (2,048 boxes), labelling the first, every 8th and the last, 12 units or more apart', () => {
    const { svg } = chart(64, 16, 1);
    expect(count(svg, /class="idle"/g)).toBe(64);
    expect(count(svg, /class="op /g)).toBe(2048);
    const shown = labels(svg);
    expect(shown.map((l) => l.stage)).toEqual([0, 8, 16, 24, 32, 40, 48, 56, 63]);
    for (let i = 1; i < shown.length; i += 1) expect(shown[i]!.y - shown[i - 1]!.y).toBeGreaterThanOrEqual(12);
    expect(svg).not.toContain('stages drawn');
  });

  it.each([32, 64])('keeps s0 clear of the "stage" title above it at p = %i (10-unit text: 7.5 units above its baseline, 2.5 below)', (p) => {
    const { svg } = chart(p, 16, 1);
    const title = Number(svg.match(/<text class="axis axis-title" x="0" y="([\d.]+)" data-axis="y">stage</)![1]);
    expect(labels(svg)[0]!.y - 7.5).toBeGreaterThanOrEqual(title + 2.5);
  });

  it('labels every row of 16 stages or fewer, and says nothing of stages drawn', () => {
    const { svg } = chart(8, 16, 1);
    expect(labels(svg).map((l) => l.stage)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(svg).not.toContain('stages drawn');
  });

  it("keeps the widget's pipeline section of a 64-stage interleaved plan under the bound", () => {
    const e = runEstimate({
      model: { layers: 128, hiddenSize: 4096, attentionHeads: 32, vocabSize: 51200, seqLength: 2048 },
      cluster: { gpu: 'a100-80gb', nodes: 128 },
      training: { globalBatchSize: 1536, microBatchSize: 1 },
      parallelism: { tensor: 2, pipeline: 64, virtualStages: 2, recompute: 'full' },
    }) as EstimateOk;
    expect(e.ok).toBe(true);
    const html = pipelineSection(e);
    expect(count(html, /class="op /g)).toBeLessThanOrEqual(MAX_DRAWN_BOXES);
    expect(html).toContain('first 64 of 192 micro-batches drawn');
    expect(html).toContain('of 64 stages drawn');
  });
});

describe("the widget's pipeline section", () => {
  it("leads with the step's own m and bubble, and labels the 16 micro-batches drawn as such (the default plan has 96)", () => {
    const e = runEstimate(CONTRACT_EXAMPLE) as EstimateOk;
    expect(e.resolved.microBatches).toBe(96);
    const caption = pipelineSection(e).match(/<p class="caption">([^<]*)<\/p>/)![1]!;
    const bubble = formatPercent(e.breakdown.pipelineBubbleSeconds / e.stepTimeSeconds);
    expect(caption).toBe(`1F1B: p = 8, m = 96; bubble ${bubble} of the step (first 16 of 96 micro-batches drawn, their bubble 43.8% of the ideal time). Solid: forward; pale: backward; grey: idle (bubble).`);
  });

  it('says the drawn m and bubble when it draws the whole step', () => {
    const e = runEstimate({ ...CONTRACT_EXAMPLE, training: { ...CONTRACT_EXAMPLE.training, globalBatchSize: 128 } }) as EstimateOk;
    expect(e.resolved.microBatches).toBe(8);
    expect(pipelineSection(e)).toMatch(/1F1B: p = 8, m = 8; bubble [\d.]+% of the ideal time\. /);
  });
});

describe('scaling chart', () => {
  it('draws feasible sizes and lists the others with their reason', () => {
    const svg = scalingChart([{ nodes: 8, tokensPerSecond: 1000 }, { nodes: 16, tokensPerSecond: 1900 }, { nodes: 4, reason: 'out-of-memory' }], 16);
    expect(svg.match(/<circle/g)).toHaveLength(2);
    expect(svg).toContain('4 nodes (out of memory)');
    expect(svg).toContain('class="dot current"');
  });

  it('says "1 node" where a size of one node is listed or titled', () => {
    const svg = scalingChart([{ nodes: 1, reason: 'out-of-memory' }, { nodes: 2, tokensPerSecond: 1000 }, { nodes: 4, tokensPerSecond: 1900 }], 2);
    expect(svg).toContain('Not drawn: 1 node (out of memory).');
    expect(scalingChart([{ nodes: 1, tokensPerSecond: 500 }], 1)).toContain('<title>1 node: 500 tokens/s</title>');
  });
});

describe('scaling chart, sizes not drawn', () => {
  it.each([
    ['out-of-memory', 'out of memory'],
    ['indivisible', 'the batch does not divide evenly'],
    ['invalid', 'not a valid plan'],
    ['no answer', 'no answer'],
  ])('says why in words, not as the code %s', (reason, words) => {
    const svg = scalingChart([{ nodes: 8, tokensPerSecond: 1000 }, { nodes: 2048, reason }], 8);
    expect(svg).toContain(`Not drawn: 2,048 nodes (${words}).`);
  });
});

describe('scaling chart labels', () => {
  const ticks = (svg: string) => [...svg.matchAll(/<text class="axis tick" data-axis="y" x="([\d.-]+)" y="([\d.-]+)" text-anchor="end">/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]) }));
  const dots = (svg: string) => [...svg.matchAll(/<circle class="[^"]*" cx="([\d.-]+)" cy="[\d.-]+" r="([\d.]+)"/g)].map((m) => ({ cx: Number(m[1]), r: Number(m[2]) }));

  it('keeps the throughput labels clear of the dots, the current one ringed at the smallest size included', () => {
    const svg = scalingChart([{ nodes: 8, tokensPerSecond: 3880 }, { nodes: 16, tokensPerSecond: 4600 }, { nodes: 64, tokensPerSecond: 5290 }], 8);
    const left = Math.min(...dots(svg).map((d) => d.cx - d.r - 1)); // 1: half the current dot's 2-unit ring
    expect(ticks(svg).length).toBeGreaterThan(0);
    for (const t of ticks(svg)) expect(t.x).toBeLessThan(left);
  });

  /** The node counts under the plot, left to right, and where each is centred (read through their grouping commas). */
  const nodeLabels = (svg: string) => [...svg.matchAll(/<text class="axis tick" data-axis="x" x="([\d.-]+)"[^>]*>([\d,]+)</g)].map((m) => ({ x: Number(m[1]), nodes: Number(m[2]!.replaceAll(',', '')) }));
  const sizes = [64, 112, 128, 1024].map((nodes) => ({ nodes, tokensPerSecond: nodes * 100 }));

  it.each([[112, [64, 112, 1024]], [128, [64, 128, 1024]]])(
    'labels the current size (%i) and the ends, and drops a node count with no room beside them (112 and 128 a fifth of an octave apart)',
    (current, labelled) => {
      expect(nodeLabels(scalingChart(sizes, current)).map((l) => l.nodes)).toEqual(labelled);
    },
  );

  it("centres each node count under its size's dot, the largest one's included", () => {
    const svg = scalingChart(sizes, 128);
    const xs = [...svg.matchAll(/<circle class="[^"]*" cx="([\d.-]+)"/g)].map((m) => Number(m[1]));
    for (const l of nodeLabels(svg)) expect(xs).toContain(l.x);
    expect(nodeLabels(svg).at(-1)!.x).toBe(Math.max(...xs));
  });

  it('groups a node count of a thousand or more under the plot as its dot\'s title does ("1,024", not "1024")', () => {
    const svg = scalingChart(sizes, 128);
    const under = [...svg.matchAll(/<text class="axis tick" data-axis="x"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(under).toEqual(['64', '128', '1,024']);
    expect(svg).toContain('<title>1,024 nodes:');
  });

  it('draws one throughput label, not two on top of each other, when the sizes give nearly the same throughput', () => {
    // The ideal line stretches the axis: 15.8 k and 18.9 k sit about a text line apart.
    const svg = scalingChart([{ nodes: 64, tokensPerSecond: 15_800 }, { nodes: 448, tokensPerSecond: 18_900 }], 64);
    expect(ticks(svg)).toHaveLength(1);
  });
});

describe("the scaling chart's text alternative", () => {
  it("names every drawn size and its throughput in the chart's accessible name, as its dots' hover titles do", () => {
    // formatCount: 14,600 → "14.6 k", 27,000 → "27.0 k", 500 → "500" (whole under a thousand); countOf: "1 node", "16 nodes".
    const svg = scalingChart([{ nodes: 1, tokensPerSecond: 500 }, { nodes: 16, tokensPerSecond: 14_600 }, { nodes: 32, tokensPerSecond: 27_000 }, { nodes: 64, reason: 'out-of-memory' }], 16);
    const name = /<svg [^>]*role="img" aria-label="([^"]*)"/.exec(svg)?.[1];
    expect(name).toBe('tokens per second against node count: 1 node: 500 tokens/s; 16 nodes: 14.6 k tokens/s; 32 nodes: 27.0 k tokens/s');
    // A size not drawn is not among the points (the caption under the chart lists it).
    expect(name).not.toContain('64 nodes');
  });
});

describe('chart axes', () => {
  /** Each axis's title, by axis: the element marked data-axis="x" or "y" and its text. */
  const axes = (markup: string) => Object.fromEntries([...markup.matchAll(/data-axis="([xy])"[^>]*>([^<]*)</g)].map((m) => [m[1], m[2]]));
  const timeline = pipelineTimeline({ stages: 4, microBatches: 8, virtualStages: 1, schedule: '1f1b' });
  if (!timeline.ok) throw new Error(timeline.message);
  const scaling = scalingChart([{ nodes: 8, tokensPerSecond: 1000 }, { nodes: 16, tokensPerSecond: 1900 }], 16);

  it.each([
    ['step-time breakdown bar', breakdownBar(example.breakdown, example.stepTimeSeconds), { x: 'step time (s)' }],
    ['step-time breakdown bar under a second', breakdownBar(example.breakdown, 0.437), { x: 'step time (ms)' }],
    ['memory bar', memoryBar(example.memory), { x: 'GiB per GPU' }],
    ['pipeline chart', pipelineChart(timeline.timeline), { x: 'time (forward passes of a micro-batch) →', y: 'stage' }],
    ['scaling chart', scaling, { x: 'nodes', y: 'tokens/s' }],
  ])('the %s names each axis with its unit', (_name, markup, expected) => {
    expect(axes(markup)).toEqual(expected);
  });

  it("the bars' scales run from 0 to the step time, and to the larger of the memory and the capacity, in the axis's unit", () => {
    const ends = (markup: string) => [...markup.matchAll(/<span class="end">([^<]*)</g)].map((m) => m[1]);
    expect(ends(breakdownBar(example.breakdown, example.stepTimeSeconds))).toEqual(['0', formatNumber(example.stepTimeSeconds)]);
    const m = { weightsBytes: 10 * GIB, gradientsBytes: 10 * GIB, optimizerBytes: 20 * GIB, activationsBytes: 30 * GIB, otherBytes: 10 * GIB, totalBytes: 80 * GIB, capacityBytes: 40 * GIB, fits: false };
    expect(ends(memoryBar(m))).toEqual(['0', '80.0']);
    expect(ends(memoryBar({ ...m, capacityBytes: 160 * GIB, fits: true }))).toEqual(['0', '160']);
  });

  it('the scaling chart keeps its axis titles inside the picture', () => {
    const [, w, h] = scaling.match(/viewBox="0 0 (\d+) (\d+)"/)!.map(Number);
    const titles = [...scaling.matchAll(/<text [^>]*x="([\d.-]+)" y="([\d.-]+)"[^>]*data-axis/g)];
    expect(titles).toHaveLength(2);
    for (const t of titles) {
      expect(Number(t[1])).toBeGreaterThanOrEqual(0);
      expect(Number(t[1])).toBeLessThanOrEqual(w!);
      expect(Number(t[2])).toBeGreaterThan(0);
      expect(Number(t[2])).toBeLessThanOrEqual(h!);
    }
  });
});

describe('markup', () => {
  it('escapes what it interpolates', () => {
    expect(esc('<img src=x onerror="a">&\'')).toBe('&#60;img src=x onerror=&#34;a&#34;&#62;&#38;&#39;');
  });
});
