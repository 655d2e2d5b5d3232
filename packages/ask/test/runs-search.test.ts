import { describe, expect, it } from 'vitest';
import { parse } from '../src/parse.ts';
import { runsSearch } from '../src/answer/runs-search.ts';

/** Questions whose answer runs a configuration or cluster-size search (the chat bot defers these). */
const SEARCHED = [
  ['a nodes question', 'how many nodes for 175B'],
  ['a nodes question with a deadline', 'how many H100 nodes to train llama3-70b on 2T tokens in 30 days'],
  ['the cheapest cluster', 'cheapest way to train llama3-70b on 2T tokens at $2/GPU-hour'],
  ['a best configuration', 'best config for 530B on 280 DGX A100'],
  ['a time to train without a layout', 'how long to train gpt3-175b on 128 nodes'],
  ['a time with a layout and a deadline the cluster may miss (then the nodes that meet it)', 'train llama3-70b on 2T tokens in 1 day on 8 H100 with tp 8'],
  ['a memory question on a cluster without a layout (the fastest layout that fits)', 'does llama3.1-405b fit on 16 H200 nodes'],
  ['an estimate without a layout', 'MFU of GPT-3 175B on 1024 A100'],
  ['GPUs compared', 'A100 vs H100 for 70B'],
  ['cluster sizes compared', 'is 512 or 1024 H100 cheaper for llama3-70b on 2T tokens'],
  ['precisions compared', 'is fp8 faster than bf16 for llama3-70b on 512 H100'],
] as const;

/** Questions answered without a search: help and refusals, stated layouts, collectives, serving. */
const INLINE = [
  ['the help', 'help'],
  ['a question not understood', 'what is the weather'],
  ['a refused count (a fraction of a node)', 'how many nodes for 175B on 1.5 nodes'],
  ['a memory question with a layout', 'memory for 70B with tp 8 pp 4 on A100 80GB'],
  ['a memory question without a cluster (one replica)', 'memory for 70B'],
  ['a step time with a layout', 'step time of llama3-8b on 8 H100 with tp 8'],
  ['a time to train with a layout', 'how long to train gpt3-175b on 128 nodes with tp 8 pp 8'],
  ['layouts compared', 'memory for 70B with tp 8 pp 8 or tp 4 pp 16 on 64 H100'],
  ['a collective', 'all-reduce 1 GB on 64 H100'],
  ['serving', 'serve llama3-70b on one H100 node at 50 ms per token'],
  ['serving on GPUs compared', 'serve llama3-70b on H100 vs A100 at 50 ms per token'],
  ['the tokens alone', 'Chinchilla optimal tokens for 70B'],
] as const;

describe('runsSearch', () => {
  it.each(SEARCHED)('%s runs a search ("%s")', (_what, question) => {
    expect(runsSearch(parse(question))).toBe(true);
  });

  it.each(INLINE)('%s runs none ("%s")', (_what, question) => {
    expect(runsSearch(parse(question))).toBe(false);
  });
});
