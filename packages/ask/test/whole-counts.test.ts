import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

describe('a count that must be whole is refused with a fraction, never rounded or cut to plan it', () => {
  it.each([
    ['how long to train gpt3-175b on 1024 a100 with global batch 1.5', 'a global batch must be a whole number of sequences (1.5 asked)'],
    ['best config for gpt3-175b on 1024 a100 with micro batch 2.5', 'a micro-batch must be a whole number of sequences (2.5 asked)'],
    ['memory for gpt3-175b with tp 8 pp 2.5', 'PP (pipeline parallelism) must be a whole number (2.5 asked)'],
    ['step time of llama3-8b on 8 h100 with tp 1.5', 'TP (tensor parallelism) must be a whole number (1.5 asked)'],
    ['best config for gpt3-175b on 1024 a100 with dp 2.5', 'DP (data parallelism) must be a whole number (2.5 asked)'],
    ['best config for llama3-70b on 64 h100 with cp 1.5', 'CP (context parallelism) must be a whole number (1.5 asked)'],
    ['how long to train gpt3-175b on 1.5 nodes', 'the node count must be a whole number of nodes (1.5 asked)'],
    ['how long to train gpt3-175b on 12.5 h100', 'the GPU count must be a whole number of GPUs (12.5 asked)'],
    ['how many nodes to train llama3-70b with 1.5 gpus per node', 'GPUs per node must be a whole number (1.5 asked)'],
    ['all-reduce 1 GB on 2.5 h100', 'the GPU count must be a whole number of GPUs (2.5 asked)'],
    ['serve llama3-70b on 2.5 h100 nodes', 'the node count must be a whole number of nodes (2.5 asked)'],
    // 1.5 racks of 72 is 108 GPUs, a whole count: the fraction is in the racks written.
    ['how long to train llama3-70b on 1.5 gb200 nvl72 racks', 'the rack count must be a whole number of racks (1.5 asked)'],
    // A serving batch is the requests a replica decodes together, and is named so.
    ['serve llama3-70b on 8 h100 with batch 2.5', 'the concurrent requests must be a whole number (2.5 asked)'],
    ['serve llama3-70b on 8 h100 with 1.5 concurrent requests', 'the concurrent requests must be a whole number (1.5 asked)'],
  ])('"%s": "%s"', (question, words) => {
    const a = ask(question, { publicUrl: null });
    expect(a.kind).toBe('refusal');
    expect(a.ok).toBe(false);
    expect(a.headline).toBe(`I could not answer that: ${words}.`);
  });

  it.each([
    // Before, "batch 1.5" was a batch of 1, "1.5 concurrent requests" 5 requests, "1.5 gpus per node" 5 GPUs per node.
    ['how long to train gpt3-175b with global batch 1.5', { globalBatchSize: 1.5 }],
    ['serve llama3-70b with 1.5 concurrent requests', { concurrency: 1.5 }],
    ['how many nodes to train llama3-70b with 1.5 gpus per node', { gpusPerNode: 1.5 }],
    ['how long to train gpt3-175b on 1.5 nodes', { nodes: 1.5 }],
  ])('"%s" reads the number as written, %o, not its digits on one side of the point', (question, stated) => {
    expect(parse(question).stated).toMatchObject(stated);
  });

  it.each([
    // k is a thousand in a count, as the CLI reads "--gpus 1k" (apps/cli help: "1k = 1,000 GPUs").
    ['how long to train gpt3-175b on 1.6k h100', { gpus: 1600 }],
    ['best config for gpt3-175b on 1024 a100 with global batch 1.5k', { globalBatchSize: 1500 }],
  ])('"%s": a fraction of k (1,000) is a whole count, %o, planned', (question, stated) => {
    expect(parse(question).stated).toMatchObject(stated);
    expect(ask(question, { publicUrl: null, candidateBudget: 20_000 }).kind).toBe('answer');
  });
});

describe('"dp 0" is refused as "tp 0" is, though a search sizes data parallelism itself', () => {
  it.each([
    ['best config for gpt3-175b on 1024 a100 with dp 0', 'GPT-3 175B on A100 SXM4 80GB on 1,024 GPUs: DP (data parallelism) must be at least 1'],
    ['how long to train gpt3-175b on 1024 a100 with dp 0', 'GPT-3 175B on A100 SXM4 80GB: DP (data parallelism) must be at least 1'],
    ['how many nodes to train gpt3-175b with dp 0', 'GPT-3 175B on H100 SXM5 80GB: DP (data parallelism) must be at least 1'],
    ['memory for gpt3-175b on 64 h100 with dp 0', 'GPT-3 175B on H100 SXM5 80GB on 64 GPUs: DP (data parallelism) must be at least 1'],
    // A fixed layout sends DP to the protocol, which refuses it in the same words.
    ['memory for gpt3-175b with tp 8 dp 0', 'GPT-3 175B on H100 SXM5 80GB: DP (data parallelism) must be at least 1'],
  ])('"%s": "%s"', (question, headline) => {
    const a = ask(question, { publicUrl: null, candidateBudget: 20_000 });
    expect(a.kind).toBe('refusal');
    expect(a.ok).toBe(false);
    expect(a.headline).toBe(headline);
  });

  it('the refusal has the frame and words of "tp 0" on the same question', () => {
    const [dp, tp] = ['dp', 'tp'].map((degree) => ask(`best config for gpt3-175b on 1024 a100 with ${degree} 0`, { publicUrl: null, candidateBudget: 20_000 }));
    expect(dp!.headline.replace('DP (data parallelism)', 'TP (tensor parallelism)')).toBe(tp!.headline);
    expect(dp!.assumptions).toEqual(tp!.assumptions);
  });
});
