import type { NodesResponseJson, SearchResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const costFigure = (a: ReturnType<typeof ask>) => a.figures.find((f) => f.label === 'Cost')?.value;

describe('answers with GPU-hours give their cost at a stated price', () => {
  it('how long: the cost is the plan\'s GPU-hours × the price, as runNodes\'s own cost', () => {
    const a = ask('how long to train gpt3-175b on 128 A100 nodes at $1.50 per GPU hour');
    const data = a.data as Extract<NodesResponseJson, { ok: true }>;
    expect(data.cost).toBeCloseTo(data.gpuHours * 1.5, 6);
    expect(a.headline).toMatch(/^GPT-3 175B on A100 SXM4 80GB: [\d.]+ days to train 300B tokens on 128 nodes \(1024 GPUs\) for \$\d+k$/);
    expect(costFigure(a)).toMatch(/^\$\d+k: \d+k GPU-hours at \$1\.50\/GPU-hour$/);
  });

  it('how many nodes: the headline and the figure carry the cost, in the currency given', () => {
    const a = ask('how many nodes to train llama3-8b on 1T tokens in 14 days at €1.8/GPU-h');
    expect(a.ok).toBe(true);
    expect(a.headline).toMatch(/ in [\d.]+ days for €[\d.]+k \(deadline 14 days\)$/);
    expect(costFigure(a)).toMatch(/^€[\d.]+k: [\d.]+k GPU-hours at €1\.80\/GPU-hour$/);
  });

  it('best config with tokens: runSearch is given the price, and its best plan\'s cost is the figure\'s', () => {
    const a = ask('best config for 70b on 64 nodes with 2T tokens at $2/GPU-hour', { candidateBudget: 20_000 });
    const best = (a.data as Extract<SearchResponseJson, { ok: true }>).best;
    expect(best.cost).toBeCloseTo(best.gpuHours! * 2, 6);
    expect(a.headline).toMatch(/ days for 2\.00T tokens for \$[\d.]+M\)$/);
  });

  it('a stated layout (runEstimate) gives the cost of its time to train', () => {
    const a = ask('how long for gpt3-175b on 64 H100 with tp 8 pp 8 at $4/gpu-hour');
    expect(a.headline).toMatch(/ on 8 nodes for \$\d+k$/);
    expect(costFigure(a)).toMatch(/ at \$4\/GPU-hour$/);
  });

  it('a price with no currency is said to be in the currency given; no price, no cost', () => {
    expect(costFigure(ask('how long to train gpt3-175b on 128 nodes at 2 per GPU-hour'))).toMatch(/^\d+k \(in the currency given\): /);
    expect(costFigure(ask('how long to train gpt3-175b on 128 nodes'))).toBeUndefined();
  });
});
