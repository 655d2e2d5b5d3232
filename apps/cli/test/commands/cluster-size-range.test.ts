import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

async function cli(args: string[]) {
  const io = fakeIo();
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const GPT3 = ['--model', 'gpt3-175b', '--gpu', 'a100-80gb'];

// QA: `search --nodes 1e308` was refused as "--global-batch: expected an integer from 1 to 1,000,000,000, got Infinity", a
// flag never given: the default batch was sized for the out-of-range cluster before the cluster's size was checked.
describe('an out-of-range cluster size without --global-batch: only the size is refused, as the API refuses cluster.nodes', () => {
  it.each([
    [['search', '--nodes', '1e308'], '--nodes: expected an integer ≤ 1,000,000, got 1e+308'],
    [['search', '--nodes', '1e20'], '--nodes: expected an integer ≤ 1,000,000, got 100,000,000,000,000,000,000'],
    [['nodes', '--nodes', '1e308', '--tokens', '300B'], '--nodes: expected an integer ≤ 1,000,000, got 1e+308'],
    [['nodes', '--nodes', '1e20', '--tokens', '300B'], '--nodes: expected an integer ≤ 1,000,000, got 100,000,000,000,000,000,000'],
    [['search', '--gpus', '1e308'], '--gpus: expected an integer ≤ 10,000,000, got 1e+308'],
    [['search', '--gpus', '9000000'], '--gpus: expected at most 8,000,000 GPUs (1,000,000 nodes of 8), got 9,000,000'],
    [['search', '--nodes', '8', '--gpus-per-node', '1e308'], '--gpus-per-node: expected an integer ≤ 1024, got 1e+308'],
  ])('%j', async ([command, ...flags], refusal) => {
    const { code, out, err } = await cli([command!, ...GPT3, ...flags]);
    expect({ code, out, err }).toEqual({ code: 2, out: '', err: `trainplan: ${refusal}\n` });
  });
});
