import { describe, expect, it } from 'vitest';
import { runNodes } from '../../src/index.ts';

const onNodes = (nodes: number) => runNodes({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, nodes });

describe('a cluster size that runs nothing says why', () => {
  it('86 nodes: 688 = 16 · 43 GPUs, and no TP × PP × CP × DP of them divides the model and a batch of 1,536 (not memory)', () => {
    const a = onNodes(86);
    if (a.ok) throw new Error('expected no plan on 86 nodes');
    expect(a.reason).toBe('does-not-fit');
    expect(a.message).toMatch(/^no configuration of 86 nodes splits its 688 GPUs into a layout the model and a batch of 1,536 divide/);
  });
  it('86 nodes: 84 and 88 run, two away each, and both are offered with their days; 87: the nearer 88 first, each with its days', () => {
    const days = (nodes: number) => {
      const a = onNodes(nodes);
      if (!a.ok) throw new Error(a.message);
      return `${a.days.toFixed(1)} days`;
    };
    const [d84, d88] = [days(84), days(88)];
    const tie = onNodes(86);
    if (tie.ok) throw new Error('expected no plan on 86 nodes');
    expect(tie.message).toMatch(new RegExp(`; the nearest sizes that run are 84 nodes \\(2 fewer, ${d84}\\) and 88 nodes \\(2 more, ${d88}\\)$`));
    const nearer = onNodes(87);
    if (nearer.ok) throw new Error('expected no plan on 87 nodes');
    expect(nearer.message).toMatch(new RegExp(`; the nearest size that runs is 88 nodes \\(1 more, ${d88}\\), the nearest smaller 84 nodes \\(3 fewer, ${d84}\\)$`));
  });
  it('1,000,000 nodes: the fewest that run, 6, and how many fewer, grouped as every count is (QA: "999994 fewer")', () => {
    const a = onNodes(1_000_000);
    if (a.ok) throw new Error('expected no plan on 1,000,000 nodes');
    expect(a.message).toMatch(/; the fewest nodes that run: 6 nodes \(999,994 fewer, [\d.]+ days\)$/);
  });
  it('2 nodes: 16 GPUs split fine, but none of the splits holds 175B in 16 × 80 GB', () => {
    const a = onNodes(2);
    if (a.ok) throw new Error('expected no plan on 2 nodes');
    expect(a.message).toMatch(/^no configuration of 2 nodes fits this model and batch in memory/);
  });
});

describe('a nearest size planned at its own batch says it', () => {
  // A batch per size (runNodes' globalBatchFor, as the CLI's and the bot's default takes one per cluster): GPT-3 Small's
  // published 256 on 8,192 nodes splits no layout of its 65,536 GPUs (DP must divide 256, leaving TP × PP × CP ≥ 256 for
  // a 12-layer, 12-head model); 8,191 nodes, planned at 8,191 sequences, run. The message names that batch.
  it('8,192 nodes at 256 sequences: the nearest size, 8,191 nodes, at a global batch of 8,191 sequences', () => {
    const a = runNodes(
      { model: 'gpt3-126m', cluster: { gpu: 'h100-sxm' }, training: { globalBatchSize: 256 }, tokens: 300e9, nodes: 8192 },
      { globalBatchFor: (n) => (n === 8192 ? 256 : n) },
    );
    if (a.ok) throw new Error('expected no plan on 8,192 nodes at 256 sequences');
    expect(a.message).toMatch(/the nearest size that runs is 8,191 nodes \(1 fewer, [^,)]+, at a global batch of 8,191 sequences\)/);
  });
});
