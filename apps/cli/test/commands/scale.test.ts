import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

async function cli(args: string[]) {
  const io = fakeIo();
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const GPT3 = ['scale', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--global-batch', '1536'];
/** The table's rows: node count → its cells. */
const rows = (out: string): Map<number, string[]> => new Map(out.split('\n')
  .filter((l) => /^\s+\d+\s+\d+\s+\d+\s/.test(l))
  .map((l) => l.trim().split(/\s{2,}/))
  .map((cells) => [Number(cells[0]), cells]));

describe('trainplan scale', () => {
  it('efficiency is against the smallest size, whatever order --nodes lists', async () => {
    const { code, out } = await cli([...GPT3, '--nodes', '64,32,16']);
    expect(code).toBe(0);
    const r = rows(out);
    expect(r.get(16)![6]).toBe('100.0%');
    for (const n of [32, 64]) expect(Number.parseFloat(r.get(n)![6]!)).toBeLessThanOrEqual(100);
  });

  it('--weak grows the batch with the nodes from the first size listed; --trade-off adds the TP × PP table at it', async () => {
    const { code, out } = await cli([...GPT3, '--nodes', '64,32,16', '--weak', '--trade-off']);
    expect(code).toBe(0);
    expect(out).toMatch(/^weak scaling:\n/);
    const r = rows(out);
    expect([64, 32, 16].map((n) => r.get(n)![2])).toEqual(['1536', '768', '384']);
    expect(r.get(16)![6]).toBe('100.0%');
    expect(out).toContain('\nTP × PP at 64 nodes (best of the other dimensions):\n');
    // TP 1 · PP 1 of a 175B model cannot hold its weights: the reason is the memory, per GPU.
    expect(out).toMatch(/\n\s+1\s+1\s+—\s+—\s+—\s+needs [\d.]+ GiB per GPU on pipeline stage 0, the NVIDIA A100 SXM4 80GB has 80\.0 GiB\n/);
  });

  it('a size where nothing runs says why (the memory the closest plan needs) and exits 1', async () => {
    const { code, out } = await cli([...GPT3, '--nodes', '1,16']);
    expect(code).toBe(1);
    expect(rows(out).get(1)!.at(-1)).toMatch(/^no configuration fits: out of memory: the plan that comes closest \(.*\) needs [\d.]+ GiB per GPU, the GPU has 80\.0 GiB$/);
    expect(rows(out).get(16)![6]).toBe('100.0%');
  });
});
