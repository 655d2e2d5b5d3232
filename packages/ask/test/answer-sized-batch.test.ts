import { describe, expect, it } from 'vitest';
import { runNodes, type NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { deadlineBatchFor, defaultBatch } from '../src/defaults.ts';

const options = { publicUrl: null, today: '2026-11-28' } as const;

describe('a budget no size meets says the batch its closest configuration took', () => {
  it('"how many H100 nodes … with $1M": the assumed global batch is the one in the configuration shown', () => {
    const a = ask('how many H100 nodes to train llama3-70b on 2T tokens with $1M at $2/GPU-hour', options);
    expect(a.ok).toBe(false);
    const shown = /global batch ([\d,]+)/.exec(a.configuration ?? '')?.[1];
    expect(shown).toBeDefined();
    const assumed = a.assumptions.filter((t) => t.startsWith('global batch'));
    expect(assumed).toHaveLength(1);
    expect(assumed[0]).toMatch(new RegExp(`^global batch ${shown} sequences`));
    // By hand: the closest is on 7 nodes (56 GPUs), whose own default is a multiple of their 7 data-parallel ranks near
    // 512 sequences (4M tokens): not the 512 the question takes with no size.
    const closest = (a.data as Extract<NodesResponseJson, { ok: false }>).closest;
    expect(closest?.nodes).toBe(7);
    expect(Number(shown!.replace(/,/g, '')) % 7).toBe(0);
    expect(shown).not.toBe('512');
  });
});

describe('the cheapest\'s curve plans each size at its own batch, as the CLI\'s nodes --frontier does', () => {
  it('"cheapest way to train llama3-70b on 200B tokens": the curve runNodes gives with deadlineBatchFor, the batch growing with the cluster', () => {
    const a = ask('cheapest way to train llama3-70b on 200B tokens at $2/GPU-hour', options);
    expect(a.ok).toBe(true);
    const bot = a.data as Extract<NodesResponseJson, { ok: true }>;
    // `trainplan nodes --model llama3-70b --gpu h100-sxm --tokens 200B --frontier --price 2`: the request its flags build,
    // each size at deadlineBatchFor's batch (apps/cli/src/commands/nodes.ts sizeBatch; flagDefaultBatch for the request's own).
    const flags = { model: 'llama3-70b', gpu: 'h100-sxm', system: 'h100-sxm' };
    const cli = runNodes({
      model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, training: { globalBatchSize: defaultBatch(flags).sequences },
      tokens: 200e9, frontier: true, pricePerGpuHour: 2,
    }, { globalBatchFor: deadlineBatchFor(flags) });
    if (!cli.ok) throw new Error(cli.message);
    const curve = (r: Extract<NodesResponseJson, { ok: true }>) => (r.frontier ?? []).map((p) => [p.nodes, p.globalBatchSize, Math.round(p.gpuHours)]);
    expect(curve(bot)).toEqual(curve(cli));
    expect(bot.fastest?.nodes).toBe(cli.fastest?.nodes);
    // By hand: past 4,096 GPUs the default batch is one sequence per 8 GPUs (Llama 3 405B's 2,048 on 16,384) up to 2^24
    // tokens a step, 2,048 sequences of 8,192: the fastest size, on more than 16,384 GPUs, takes the cap rounded to its
    // data-parallel sizes (8,100 nodes: 2,025, 1.1% under), not its GPUs over 8, and more than the 512 sequences held for
    // every size before.
    const fastest = bot.frontier?.find((p) => p.nodes === bot.fastest?.nodes);
    expect(fastest!.gpus / 8).toBeGreaterThan(2048);
    expect(fastest?.globalBatchSize).toBe(deadlineBatchFor(flags)(fastest!.nodes));
    expect(Math.abs(fastest!.globalBatchSize! - 2 ** 24 / 8192)).toBeLessThanOrEqual(0.1 * 2048);
  });
});
