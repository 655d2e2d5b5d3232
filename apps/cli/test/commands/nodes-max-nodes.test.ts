import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

async function cli(args: string[]) {
  const io = fakeIo({});
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

/** The capacity search's largest size: MAX_NODES in packages/search/src/capacity-sizer.ts (65,536 GPUs of 8-GPU nodes). */
const LARGEST = '8,192 nodes';

describe('trainplan nodes: the search\'s largest size is said where it matters', () => {
  it('--help says which sizes the goals search, and how to plan a larger one', async () => {
    const { code, out } = await cli(['nodes', '--help']);
    expect(code).toBe(0);
    const help = out.replace(/\s+/g, ' ');
    expect(help).toContain(`try 1 to ${LARGEST}, so a larger cluster may be faster`);
    expect(help).toContain('--nodes N plans any size');
  });

  it('a budget whose fastest is at the edge (QA: Llama 3 70B, 2T tokens, 770k H100-hours: 8,190 nodes) says a larger cluster may be faster', async () => {
    const { code, out } = await cli(['nodes', '--model', 'llama3-70b', '--gpu', 'h100-sxm', '--tokens', '2T', '--gpu-hours', '770k']);
    expect(code).toBe(0);
    const nodes = Number(/^fastest within the budget: ([\d,]+) nodes/m.exec(out)![1]!.replace(/,/g, ''));
    // Within 5% of 8,192: 7,783 nodes or more.
    expect(nodes).toBeGreaterThanOrEqual(0.95 * 8192);
    expect(out).toContain(`the search's largest size is ${LARGEST}; larger clusters may be faster: ask --nodes N`);
  });
});
