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
  ['the best GPU weighed for training (a search on each)', "what's the best GPU for training llama3-70b"],
  ['models compared without a layout', 'how long to train 7B vs 13B on 64 H100'],
  ['the model a budget trains (sized, then the nodes search)', 'what can I train for $1M at $2/GPU-hour'],
  ['the model a compute trains (parsed as help, answered by the nodes search)', 'what can I train with 5.76e23 FLOPs'],
  ['serving at a request rate (the fewest GPUs for the load)', 'serve llama3-70b at 10 requests/s'],
  ['serving at a rate on GPUs named', 'serve llama 3 70b on 8 h100 at 10 qps'],
  ['serving on GPUs compared (a serving plan each)', 'serve llama3-70b on H100 vs A100 at 50 ms per token'],
  ['serving on GPUs compared at a rate (security QA: 6.2 s inline)', 'serve llama3.1-405b at 1000 requests/s on 8x H200 vs H100 vs B200 vs V100 at 8k per token'],
  ['serving models compared', 'serve llama3-8b vs llama3-70b on 8 h100'],
  ['serving on cluster sizes compared', 'serve llama3-70b on 8 or 16 h100'],
  ['serving concurrent requests in all (spread over replicas)', 'serve llama3-70b on 16 h100 with 500 concurrent requests'],
  ['serving on the fewest GPUs asked', 'minimum number of H100s to serve llama 3 70b'],
] as const;

/** Questions answered without a search: help and refusals, stated layouts, closed forms, one serving plan. */
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
  ['serving with no count named (one plan, no count search)', 'serve llama 3 8b'],
  ['serving precisions compared (one plan)', 'serve llama3-70b on 8 h100 in fp8 vs bf16'],
  ['serving concurrent requests per replica (one plan)', 'serve llama3-70b on 8 h100 with 64 concurrent requests per replica'],
  ['serving at a rate refused before any plan', 'serve llama3-70b on 8 h100 with dp 0 at 10 qps'],
  ['the tokens alone', 'Chinchilla optimal tokens for 70B'],
  ['models compared, a layout stated (an estimate each)', 'how long to train 7B vs 13B on 64 H100 with tp 8'],
  ['GPUs compared, a layout stated (an estimate each)', 'step time of llama3-8b on 8 H100 vs 8 A100 with tp 8'],
  ['a collective on GPUs compared', 'all-reduce 1 GB on 64 H100 vs 64 A100'],
  ['the best GPU weighed for one replica\'s memory (an estimate each)', 'which GPU for memory of llama3-70b'],
  ['a pipeline bubble', 'pipeline bubble for pp 8 with 32 microbatches'],
  ["a GPU's facts", 'how much memory does an h200 have'],
] as const;

describe('runsSearch', () => {
  it.each(SEARCHED)('%s runs a search ("%s")', (_what, question) => {
    expect(runsSearch(parse(question))).toBe(true);
  });

  it.each(INLINE)('%s runs none ("%s")', (_what, question) => {
    expect(runsSearch(parse(question))).toBe(false);
  });
});
