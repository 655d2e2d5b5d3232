import { describe, expect, it } from 'vitest';
import type { NodesResponseJson } from '@trainplan/protocol';
import { gpuById } from '@trainplan/presets';
import { ask } from '../src/answer/answer.ts';
import { nodesGpus } from '../src/format.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;
const nodesOf = (s: string): number => Number(s.replace(/,/g, ''));

describe('a deadline the named cluster cannot meet leads the answer, with what would meet it', () => {
  it('"… in 1 day on 8 H100": the miss first, then the nodes a "how many nodes" question answers for that deadline', () => {
    const a = ask('train llama3-70b on 2T tokens in 1 day on 8 H100', { publicUrl: null });
    const needed = ask('how many H100 nodes to train llama3-70b on 2T tokens in 1 day', { publicUrl: null }).data as NodesOk;
    expect(needed.ok).toBe(true);
    expect(a.headline).toMatch(/^Llama 3 70B on H100 SXM5 80GB: the 1 day asked cannot be met on the 8 GPUs named; /);
    expect(a.headline).toContain(`it takes ${nodesGpus(needed)}`);
    // What the 8 GPUs do (nothing fits on one node) follows the lead, not before it.
    expect(a.headline.indexOf('cannot be met')).toBeLessThan(a.headline.indexOf('On the 8 GPUs named: '));
  });

  it('a cluster that runs but too slowly also leads with the miss, its own time after', () => {
    const a = ask('how long to train llama3-70b on 2T tokens in 30 days on 512 h100', { publicUrl: null });
    expect(a.headline).toMatch(/: the 30 days asked cannot be met on the 512 GPUs named; it takes ([\d,]+) nodes/);
    const nodes = nodesOf(/it takes ([\d,]+) nodes/.exec(a.headline)?.[1] ?? '0');
    expect(nodes * 8).toBeGreaterThan(512);
    expect(a.headline).toMatch(/On the 512 GPUs named: [\d.]+ days to train 2\.00T tokens on 64 nodes \(512 GPUs\), not within the 30 days asked/);
  });

  it('where no size the search tries meets it, the fewest GPUs that could at 100% MFU, a bound at the GPU\'s peak', () => {
    const a = ask('train llama3.1-405b on 15T tokens in 1 day on 8 H100', { publicUrl: null });
    const gpus = nodesOf(/at least [\d,]+ nodes \(([\d,]+) GPUs\)/.exec(a.headline)?.[1] ?? '0');
    const peak = gpuById('h100-sxm')?.peakFlops.bf16 ?? 0;
    // 6 FLOPs a parameter a token: fewer GPUs than that at peak cannot do 15T tokens of 405B in a day.
    const atPeak = (6 * 405e9 * 15e12) / (peak * 86_400);
    expect(gpus).toBeGreaterThanOrEqual(atPeak);
    expect(gpus).toBeLessThan(atPeak * 1.05);
    expect(a.headline).toMatch(/: the 1 day asked cannot be met on the 8 GPUs named; no cluster the nodes search tries meets it/);
  });

  it('a cluster that meets the deadline is answered as before', () => {
    const a = ask('can i train 8b on 300B tokens in 30 days on 64 h100', { publicUrl: null });
    expect(a.headline).not.toContain('cannot be met');
    expect(a.headline).toMatch(/, within the 30 days asked$/);
  });
});
