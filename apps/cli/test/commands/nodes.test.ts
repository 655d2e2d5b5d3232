import { validateNodesResponse } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

async function cli(args: string[], tty = false) {
  const io = { ...fakeIo(), stderrIsTTY: tty };
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const GPT3 = ['nodes', '--model', 'gpt3-175b', '--gpu', 'dgx-a100-80gb', '--global-batch', '1536', '--tokens', '300B'];

describe('trainplan nodes', () => {
  it('--budget with --price and no deadline: the fastest plan the money affords, with the smallest cluster that fits', async () => {
    const { code, out } = await cli([...GPT3, '--budget', '1.2M', '--price', '2', '--json']);
    expect(code).toBe(0);
    const a = JSON.parse(out);
    expect(validateNodesResponse(a).ok).toBe(true);
    expect(a.mode).toBe('fastest-within-budget');
    expect(a.cost).toBeLessThanOrEqual(1.2e6);
    expect(a.cost).toBeCloseTo(2 * a.gpuHours, 3);
    expect(a.smallest.nodes).toBeLessThan(a.nodes);
    expect(a.smallest.days).toBeGreaterThan(a.days);
    // The JSON keeps the fields it had: nodes, days, gpuHours, configuration.
    expect(a.configuration.scenario.cluster.nodes).toBe(a.nodes);
  });

  it('says both answers in words', async () => {
    const { code, out } = await cli([...GPT3, '--budget', '1.2M', '--price', '2']);
    expect(code).toBe(0);
    expect(out).toMatch(/^fastest within the budget: \d+ nodes \(\d+ × a100-80gb\)\ntime to train 300B tokens: [\d.]+ days · [\d,]+ GPU-hours · cost [\d,]+\nsmallest cluster that fits: \d+ nodes?, [\d.]+ days · [\d,]+ GPU-hours · cost [\d,]+/);
  });

  it('the help\'s example (--gpu-hours 6.4M, no deadline) answers weeks, not the thousands of days of the smallest cluster', async () => {
    const { code, out } = await cli(['nodes', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--tokens', '15T', '--gpu-hours', '6.4M', '--json']);
    expect(code).toBe(0);
    const a = JSON.parse(out);
    expect(a.gpuHours).toBeLessThanOrEqual(6.4e6);
    expect(a.smallest.days).toBeGreaterThan(1000);
    expect(a.days).toBeLessThan(a.smallest.days / 10);
  });

  it('--budget without --price is a usage error naming --price', async () => {
    const { code, err } = await cli([...GPT3, '--budget', '1M']);
    expect(code).toBe(2);
    expect(err).toMatch(/^trainplan: --price: a budget in money needs pricePerGpuHour/m);
  });

  it('a deadline answer says how far below it every size was checked', async () => {
    const { code, out } = await cli([...GPT3, '--days', '30']);
    expect(code).toBe(0);
    const m = /^fewest nodes: (\d+) nodes[\s\S]*\n {2}checked: every size from (\d+) to (\d+) nodes misses the deadline; fewer than \2 cannot meet it even at 100% MFU\n/.exec(out);
    expect(m, out).not.toBeNull();
    expect(Number(m![3])).toBe(Number(m![1]) - 1);
  });

  it('--days -5 is refused for its value, not taken for a flag', async () => {
    const { code, err } = await cli([...GPT3, '--days', '-5']);
    expect(code).toBe(2);
    expect(err).toMatch(/^trainplan: --days: expected a number > 0, got -5$/m);
    expect(err).not.toContain('got the flag');
  });

  it('one node is "1 node"', async () => {
    const { code, out } = await cli(['nodes', '--model', 'gpt3-1.3b', '--gpu', 'a100-80gb', '--global-batch', '512', '--tokens', '1B', '--nodes', '1']);
    expect(code).toBe(0);
    expect(out).toMatch(/^on: 1 node \(8 × a100-80gb\)\n/);
    expect(out).toContain('· 1 cluster size searched');
  });

  it('on a terminal, the bar restarts for each cluster size searched and names it', async () => {
    const { err } = await cli([...GPT3, '--days', '30', '--json'], true);
    const sizes = new Set([...err.matchAll(/sizing (\d+) nodes? \(cluster size (\d+)\)/g)].map((m) => m[2]));
    expect(sizes.size).toBeGreaterThan(10);
    expect(err).toMatch(/sizing 1 node \(cluster size 1\)/);
    expect(err.endsWith('\r')).toBe(true);
    expect((await cli([...GPT3, '--days', '30', '--json'])).err).toBe('');
  });
});
