import { describe, expect, it } from 'vitest';
import { runNodes } from '../../src/index.ts';

describe('nodes: constraints that contradict each other are said in every mode, as search says them', () => {
  // TP 16 kept within a node of 8 H100: no size can run, whatever its count.
  const request = {
    model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, training: { globalBatchSize: 512 }, tokens: 2e12,
    constraints: { tensorSizes: [16], tensorWithinNode: true },
  };
  it.each([
    [{ nodes: 4 }, 'no configuration of 4 nodes runs: '], [{ days: 30 }, 'no configuration runs on any cluster size: '],
    [{ gpuHours: 600e3 }, 'no configuration runs on any cluster size: '], [{ frontier: true }, 'no configuration runs on any cluster size: '],
  ])('%o: the contradiction, not a divisibility or a size limit', (goal, head) => {
    const a = runNodes({ ...request, ...goal });
    if (a.ok) throw new Error('answered a contradiction');
    expect(a.reason).toBe('does-not-fit');
    const why = "the constraints contradict each other: tensorSizes asks for TP 16, but tensorWithinNode keeps tensor parallelism within a node's 8 GPUs (16 > 8)";
    expect(a.message).toBe(`${head}${why}`);
    expect(a.message).not.toMatch(/divide|up to 8,192 nodes/);
    // Apart from the message too, so a client tells a request no cluster runs without reading words.
    expect(a.contradiction).toBe(why);
  });
  // 70B's weights and Adam states (~1.1 TB) do not fit one node's 640 GB; 15T tokens in a day need more than 8,192 nodes.
  it.each([[{ nodes: 1 }, 'does-not-fit'], [{ days: 1 }, 'deadline-unreachable']])('%o: a request that only this size or deadline defeats carries no contradiction', (goal, reason) => {
    const a = runNodes({ ...request, constraints: {}, tokens: 15e12, ...goal });
    if (a.ok) throw new Error('expected no answer');
    expect(a.reason).toBe(reason);
    expect(a.contradiction).toBeUndefined();
  });
});
