import { runInference, type InferencePointJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { servingFrontierChart } from '../src/charts/serving-frontier-chart.ts';

/** runInference's frontier for Llama 3 70B on H100 (continuous batching), and its best plan under 50 ms per token. */
function answer() {
  const a = runInference({ model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, batching: 'continuous', maxDecodeSecondsPerToken: 0.05 });
  if (!a.ok || !a.best) throw new Error('expected a best plan');
  return a;
}

/** A dot: its plan (tensor × pipeline × batch, as the chart marks it) and where it is drawn. */
interface Dot { plan: string; x: number; y: number }
const dots = (svg: string): Dot[] => [...svg.matchAll(/<circle class="dot[^"]*" data-plan="([\dx]+)" cx="([\d.]+)" cy="([\d.]+)"/g)]
  .map((m) => ({ plan: m[1]!, x: Number(m[2]), y: Number(m[3]) }));
const plan = (p: InferencePointJson) => `${p.tensor}x${p.pipeline}x${p.batch}`;
const byLatency = (points: readonly InferencePointJson[]) => [...points].sort((a, b) => a.decodeStepSeconds - b.decodeStepSeconds);

describe('the serving frontier chart', () => {
  it('draws one dot per frontier point: slower per token to the right, more tokens/s per GPU higher up', () => {
    const a = answer();
    const drawn = dots(servingFrontierChart({ points: a.frontier }));
    expect(drawn).toHaveLength(a.frontier.length);
    const sorted = byLatency(a.frontier);
    const xs = [...drawn].sort((p, q) => p.x - q.x);
    expect(xs.map((d) => d.plan)).toEqual(sorted.map(plan));
    // On a frontier, a slower point per token is only there for more throughput: higher, so a smaller y.
    for (let i = 1; i < xs.length; i += 1) expect(xs[i]!.y).toBeLessThan(xs[i - 1]!.y);
  });

  it('rings the plan given and draws the bound per token between the points it separates', () => {
    const a = answer();
    const svg = servingFrontierChart({ points: a.frontier, marked: a.best, maxDecodeSecondsPerToken: 0.05 });
    expect(svg.match(/data-marker="plan"/g)).toHaveLength(1);
    const bound = Number(/data-bound="token" x1="([\d.]+)"/.exec(svg)?.[1]);
    const drawn = dots(svg);
    const x = (p: InferencePointJson) => drawn.find((d) => d.plan === plan(p))!.x;
    for (const p of a.frontier) {
      if (p.decodeStepSeconds <= 0.05) expect(x(p)).toBeLessThan(bound);
      else expect(x(p)).toBeGreaterThan(bound);
    }
  });

  it("names every point's shape, batch and figures in the chart's accessible name, as its dots' hover titles do", () => {
    const a = answer();
    const svg = servingFrontierChart({ points: a.frontier });
    const name = /<svg [^>]*role="img" aria-label="([^"]*)"/.exec(svg)?.[1] ?? '';
    const titles = [...svg.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]!);
    expect(titles).toHaveLength(a.frontier.length);
    expect(name).toBe(`tokens/s per GPU against time per output token: ${titles.join('; ')}`);
    // Each point, read from the answer: its shape and batch (grouped past a thousand, as the title's other figures are).
    for (const p of a.frontier) expect(name).toContain(`TP ${p.tensor} · PP ${p.pipeline} · batch ${p.batch.toLocaleString('en-US')}: `);
  });

  it('groups a batch of a thousand or more in its title ("batch 1,552", not "batch 1552")', () => {
    const a = answer();
    const point = { ...a.frontier[0]!, batch: 1552 };
    expect(servingFrontierChart({ points: [point] })).toContain(`<title>TP ${point.tensor} · PP ${point.pipeline} · batch 1,552: `);
  });

  it('leaves out a bound outside the plot, and says so when there is nothing to draw', () => {
    const a = answer();
    expect(servingFrontierChart({ points: a.frontier, maxDecodeSecondsPerToken: 3600 })).not.toContain('data-bound');
    expect(servingFrontierChart({ points: [] })).toBe('<p class="caption">No serving point to draw.</p>');
  });
});
