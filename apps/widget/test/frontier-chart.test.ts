import type { FrontierSizeJson } from '@trainplan/protocol';
import { formatCount } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { frontierAnswer } from './support/frontier-answer.ts';
import { CHART_VIEWBOX_WIDTH } from '../src/charts/chart-size.ts';
import { frontierChart } from '../src/charts/frontier-chart.ts';

// The CLI's `trainplan nodes --model gpt3-175b --gpu a100-80gb --global-batch 1536 --tokens 300B --frontier`:
// 12 sizes from 6 to 8192 nodes, 6 and 8 off the curve, 16 the cheapest, 8192 the fastest.
const answer = frontierAnswer();
const sizes = answer.frontier!;
const svg = frontierChart({ sizes, cheapestNodes: answer.nodes, fastestNodes: answer.fastest!.nodes, currentNodes: 128 });

const attr = (tag: string, name: string) => Number(tag.match(new RegExp(` ${name}="([-\\d.]+)"`))![1]);
const dots = [...svg.matchAll(/<circle class="dot[^"]*"[^>]*>/g)].map((m) => ({ tag: m[0], nodes: attr(m[0], 'data-nodes'), x: attr(m[0], 'cx'), y: attr(m[0], 'cy') }));
const dotOf = (nodes: number) => dots.find((d) => d.nodes === nodes)!;
const size = (nodes: number) => sizes.find((s) => s.nodes === nodes)!;
const texts = (selector: RegExp) => [...svg.matchAll(selector)].map((m) => m[1]!);

describe('the time–cost chart', () => {
  it('is drawn from a real frontier answer (the fixture this file relies on)', () => {
    expect(answer.ok && answer.mode).toBe('cost-time-frontier');
    expect(sizes.map((s) => s.nodes)).toEqual([6, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]);
    expect([answer.nodes, answer.fastest!.nodes]).toEqual([16, 8192]);
  });

  it('draws one dot per cluster size, the sizes off the Pareto curve hollow', () => {
    expect(dots.map((d) => d.nodes).sort((a, b) => a - b)).toEqual(sizes.map((s) => s.nodes));
    expect(dots.filter((d) => d.tag.includes('off-curve')).map((d) => d.nodes)).toEqual(sizes.filter((s) => !s.pareto).map((s) => s.nodes));
    expect(dotOf(128).tag).toContain('current');
  });

  it('puts days across on a log scale and GPU-hours up', () => {
    const [a, b, c] = [size(8192), size(64), size(6)];
    const share = (dotOf(b.nodes).x - dotOf(a.nodes).x) / (dotOf(c.nodes).x - dotOf(a.nodes).x);
    expect(share).toBeCloseTo(Math.log(b.days / a.days) / Math.log(c.days / a.days), 2);
    // Fewer GPU-hours sit lower (a larger y in SVG): the cheapest is the lowest dot.
    expect(Math.max(...dots.map((d) => d.y))).toBe(dotOf(16).y);
    expect(Math.min(...dots.map((d) => d.y))).toBe(dotOf(8192).y);
  });

  it('titles both axes with their units and labels the GPU-hours ends and 1-2-5 day ticks', () => {
    expect(texts(/data-axis="y">([^<]+)</g)).toEqual(['GPU-hours']);
    expect(texts(/data-axis="x">([^<]+)</g)).toEqual(['days to train (log scale)']);
    expect(texts(/class="axis tick" data-axis="y"[^>]*>([^<]+)</g)).toEqual([formatCount(answer.gpuHours), formatCount(Math.max(...sizes.map((s) => s.gpuHours)))]);
    expect(texts(/class="axis tick" data-axis="x"[^>]*>([^<]+)</g)).toEqual(['2', '5', '10', '20', '50', '100', '200']);
  });

  it('joins the Pareto sizes, fastest to cheapest, with one line through their dots', () => {
    const d = svg.match(/<path class="line pareto" d="([^"]+)"/)![1]!;
    const vertices = [...d.matchAll(/[ML]([-\d.]+),([-\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    const pareto = sizes.filter((s) => s.pareto).sort((p, q) => p.days - q.days);
    expect(vertices).toEqual(pareto.map((s) => [dotOf(s.nodes).x, dotOf(s.nodes).y]));
  });

  it('rings and names the cheapest and the fastest', () => {
    for (const [kind, nodes] of [['cheapest', 16], ['fastest', 8192]] as const) {
      const ring = svg.match(new RegExp(`<circle class="mark ${kind}"[^>]*>`))![0];
      expect([attr(ring, 'data-nodes'), attr(ring, 'cx'), attr(ring, 'cy')]).toEqual([nodes, dotOf(nodes).x, dotOf(nodes).y]);
      expect(svg).toContain(`data-label="${nodes}"`);
      expect(texts(new RegExp(`data-label="${nodes}"[^>]*>([^<]+)<`, 'g'))).toEqual([`${nodes} ${kind}`]);
    }
  });

  it('labels Pareto sizes with their node counts sparsely: no two labels overlap, and not every size gets one', () => {
    const labels = [...svg.matchAll(/<text class="axis label" data-label="(\d+)" x="([-\d.]+)" y="([-\d.]+)" text-anchor="(\w+)">([^<]+)</g)]
      .map((m) => {
        const [x, w] = [Number(m[2]), m[5]!.length * 6];
        return { nodes: Number(m[1]), x0: m[4] === 'start' ? x : x - w, x1: m[4] === 'start' ? x + w : x, y: Number(m[3]) };
      });
    expect(labels.every((l) => size(l.nodes).pareto)).toBe(true);
    expect(labels.length).toBeGreaterThanOrEqual(4);
    expect(labels.length).toBeLessThan(sizes.filter((s) => s.pareto).length);
    for (const [i, a] of labels.entries()) {
      for (const b of labels.slice(i + 1)) expect(a.x0 < b.x1 && b.x0 < a.x1 && Math.abs(a.y - b.y) < 11, `${a.nodes} and ${b.nodes} overlap`).toBe(false);
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
