import { describe, expect, it } from 'vitest';
import { GPU_IDS } from '@trainplan/presets';
import { parse } from '../src/parse.ts';
import type { AskParameters, IntentName } from '../src/question.ts';

const BILLION = 1e9;
const TRILLION = 1e12;
const DAY = 24 * 60 * 60;
const GB_BYTES = 1e9;
const MIB_BYTES = 1024 * 1024;

/**
 * Phrasings people type in chat, with the intent and the facts a reader takes from each.
 * `stated` is exactly the facts the text gives (defaults are checked separately below).
 */
const TABLE: readonly [question: string, intent: IntentName, stated: AskParameters][] = [
  // The examples the bot was specified with.
  ['how many nodes for 175B', 'nodes', { model: 'gpt3-175b' }],
  ['how many H100 nodes to train llama3-70b on 2T tokens in 30 days', 'nodes',
    { model: 'llama3-70b', gpu: 'h100-sxm', tokens: 2 * TRILLION, deadlineSeconds: 30 * DAY }],
  ['memory for 70B with tp 8 pp 4 on A100 80GB', 'memory', { model: 'llama3-70b', gpu: 'a100-80gb', tensor: 8, pipeline: 4 }],
  ['best config for 530B on 280 DGX A100', 'config', { model: 'mt-nlg-530b', gpu: 'a100-80gb', system: 'dgx-a100-80gb', nodes: 280 }],
  ['how long to train gpt3-175b on 128 nodes', 'time', { model: 'gpt3-175b', nodes: 128 }],
  ['all-reduce 1 GB on 64 H100', 'collective', { op: 'all-reduce', bytes: GB_BYTES, gpu: 'h100-sxm', gpus: 64 }],
  // nodes
  ['How many GPUs do I need to train Llama 3 8B on 15T tokens within 2 weeks?', 'nodes',
    { model: 'llama3-8b', tokens: 15 * TRILLION, deadlineSeconds: 14 * DAY }],
  ['how many B200 nodes for llama 3.1 405b in 3 months', 'nodes', { model: 'llama3.1-405b', gpu: 'b200', deadlineSeconds: 90 * DAY }],
  ['number of nodes needed for bloom on 366B tokens', 'nodes', { model: 'bloom-176b', tokens: 366 * BILLION }],
  ['how many a100 40gb nodes to train gpt-3 13b in 10 days', 'nodes', { model: 'gpt3-13b', gpu: 'a100-40gb', deadlineSeconds: 10 * DAY }],
  ['nodes needed for nemotron 340b with fp8 on h200', 'nodes', { model: 'nemotron4-340b', gpu: 'h200', precision: 'fp8' }],
  ['how many machines for 1T in 60 days', 'nodes', { model: 'megatron-1t', deadlineSeconds: 60 * DAY }],
  ['how big a cluster for llama2-70b on 2 trillion tokens in 21 days', 'nodes',
    { model: 'llama2-70b', tokens: 2 * TRILLION, deadlineSeconds: 21 * DAY }],
  // A deadline or GPU-hour budget with no cluster asks for the cluster (a 128-node default would drop it).
  ['nodes to train 70b in 1.5 months', 'nodes', { model: 'llama3-70b', deadlineSeconds: 45 * DAY }],
  ['best setup for llama3 8b on 15T tokens in 2 weeks', 'nodes', { model: 'llama3-8b', tokens: 15 * TRILLION, deadlineSeconds: 14 * DAY }],
  ['gpt3 175b in 10 days on h100', 'nodes', { model: 'gpt3-175b', gpu: 'h100-sxm', deadlineSeconds: 10 * DAY }],
  // time
  ['how long to train llama3-70b on 512 H100', 'time', { model: 'llama3-70b', gpu: 'h100-sxm', gpus: 512 }],
  ['how many days to train GPT-3 on 1,024 A100s', 'time', { model: 'gpt3-175b', gpu: 'a100-80gb', gpus: 1024 }],
  ['time to train mt-nlg-530b on 420 DGX A100 with 270B tokens', 'time',
    { model: 'mt-nlg-530b', gpu: 'a100-80gb', system: 'dgx-a100-80gb', nodes: 420, tokens: 270 * BILLION }],
  ['How long would Llama 2 7B take on 4 nodes?', 'time', { model: 'llama2-7b', nodes: 4 }],
  // k is a thousand in a count, as the CLI reads "--gpus 1k".
  ['training time for 405B on 2k H100 GPUs', 'time', { model: 'llama3.1-405b', gpu: 'h100-sxm', gpus: 2000 }],
  // config
  ['best configuration for llama3-8b on 8 H100', 'config', { model: 'llama3-8b', gpu: 'h100-sxm', gpus: 8 }],
  ['optimal parallelism for gpt3-175b on 128 DGX H100 nodes', 'config', { model: 'gpt3-175b', gpu: 'h100-sxm', system: 'dgx-h100', nodes: 128 }],
  ['how should I shard bloom-176b on 48 nodes', 'config', { model: 'bloom-176b', nodes: 48 }],
  ['what is the fastest strategy for 340B on 96 GB200 trays', 'config', { model: 'nemotron4-340b', gpu: 'gb200', system: 'gb200-nvl72', nodes: 96 }],
  ['llama3-70b on 64 h100 nodes', 'config', { model: 'llama3-70b', gpu: 'h100-sxm', nodes: 64 }],
  // memory
  ['does llama3-70b fit on one node of 8 H100 with tp 8?', 'memory', { model: 'llama3-70b', gpu: 'h100-sxm', tensor: 8, gpusPerNode: 8, nodes: 1 }],
  ['memory per GPU for gpt3-175b tp=8 pp=16 full recompute on a100', 'memory',
    { model: 'gpt3-175b', gpu: 'a100-80gb', tensor: 8, pipeline: 16, recompute: 'full' }],
  ['How much memory does 13B need with tensor parallel 2 and micro batch 4?', 'memory',
    { model: 'llama2-13b', tensor: 2, microBatchSize: 4 }],
  ['will llama 3 8b OOM on v100 with no recompute and seq 8192', 'memory',
    { model: 'llama3-8b', gpu: 'v100-32gb', recompute: 'none', seqLength: 8192 }],
  // The memory size written before the GPU's name: "a single 80GB A100" is one GPU, "40GB A100s" the 40GB part.
  ['does a 13b fit on a single 80gb a100', 'memory', { model: 'llama2-13b', gpu: 'a100-80gb', gpus: 1 }],
  ['how long to train 7b on 64 40GB A100s', 'time', { model: 'llama2-7b', gpu: 'a100-40gb', gpus: 64 }],
  ['step time of llama3-8b on 8 80gb h100', 'estimate', { model: 'llama3-8b', gpu: 'h100-sxm', gpus: 8 }],
  ['hbm use of 175B with 8-way tensor and 8-way pipeline parallelism and gbs 1536', 'memory',
    { model: 'gpt3-175b', tensor: 8, pipeline: 8, globalBatchSize: 1536 }],
  // A bare "batch N" is the global batch, beside a micro-batch named as one.
  ['how long to train gpt3-175b on 128 A100 nodes with batch 1536 and micro batch 2', 'time',
    { model: 'gpt3-175b', gpu: 'a100-80gb', nodes: 128, globalBatchSize: 1536, microBatchSize: 2 }],
  ['cheapest way to train gpt3-175b on 300B tokens with a batch of 1536', 'cheapest', { model: 'gpt3-175b', tokens: 300e9, globalBatchSize: 1536 }],
  // estimate
  ['step time of llama3-8b on 8 H100 with tp 8', 'estimate', { model: 'llama3-8b', gpu: 'h100-sxm', gpus: 8, tensor: 8 }],
  ['MFU for gpt3-175b on 128 DGX A100 with tp 8 pp 8 and global batch 1536', 'estimate',
    { model: 'gpt3-175b', gpu: 'a100-80gb', system: 'dgx-a100-80gb', nodes: 128, tensor: 8, pipeline: 8, globalBatchSize: 1536 }],
  ['throughput of megatron 39.1b with tp 8 pp 2 on 64 gpus', 'estimate', { model: 'megatron-39.1b', tensor: 8, pipeline: 2, gpus: 64 }],
  ['gpt3-6.7b tp 4 pp 2 cp 2 bf16', 'estimate', { model: 'gpt3-6.7b', tensor: 4, pipeline: 2, context: 2, precision: 'bf16' }],
  // "8k context" is a sequence length (k = 1024 for token counts, as Llama 2's 4k is 4096); "2 context parallel" is CP.
  ['how long to train llama 3 8b with 8k context on 8 nodes', 'time', { model: 'llama3-8b', seqLength: 8192, nodes: 8 }],
  ['llama 70b with a 128k-token context window on 64 nodes', 'config', { model: 'llama3-70b', seqLength: 131072, nodes: 64 }],
  ['how long to train llama 3 8b with 2 context parallel on 8 nodes', 'time', { model: 'llama3-8b', context: 2, nodes: 8 }],
  ['memory for 70b on 16 h100 with tp 8 w/o sp and without the distributed optimizer', 'memory',
    { model: 'llama3-70b', gpu: 'h100-sxm', gpus: 16, tensor: 8, sequenceParallel: false, distributedOptimizer: false }],
  ['memory for 70b on 16 h100 with tp 8 and the distributed optimizer', 'memory', { model: 'llama3-70b', gpu: 'h100-sxm', gpus: 16, tensor: 8, distributedOptimizer: true }],
  // ZeRO stages (DeepSpeed) and FSDP's full sharding, read as ZeRO-3.
  ['does llama 2 7b fit with zero-3', 'memory', { model: 'llama2-7b', zeroStage: 3 }],
  ['memory for 13b with deepspeed zero stage 2 tp 2', 'memory', { model: 'llama2-13b', zeroStage: 2, tensor: 2 }],
  ['llama3-8b with fsdp on 8 h100, step time?', 'estimate', { model: 'llama3-8b', gpu: 'h100-sxm', gpus: 8, zeroStage: 3 }],
  // Misspelt counts are read, not dropped for a default that may differ.
  ['how long to train gpt3 175b on 1024 a100 with 250 bilion tokens', 'time', { model: 'gpt3-175b', gpu: 'a100-80gb', gpus: 1024, tokens: 250 * BILLION }],
  ['how many nodes for llama 3 8b on 2 trilion tokens', 'nodes', { model: 'llama3-8b', tokens: 2 * TRILLION }],
  // Counts as people write them: "bn" and "tn", a thousands separator before the scale, spelt-out numbers before a scale word.
  ['how many nodes for llama 3 8b on 300bn tokens in 6 weeks', 'nodes', { model: 'llama3-8b', tokens: 300 * BILLION, deadlineSeconds: 42 * 86_400 }],
  ['how long to train 70b on 256 h100 with 15tn tokens', 'time', { model: 'llama3-70b', gpu: 'h100-sxm', gpus: 256, tokens: 15 * TRILLION }],
  ['train llama2-70b on 2,000B tokens', 'config', { model: 'llama2-70b', tokens: 2 * TRILLION }],
  ['how many nodes for llama 2 70b on two trillion tokens', 'nodes', { model: 'llama2-70b', tokens: 2 * TRILLION }],
  ['how many h100 for gpt3 on half a trillion tokens', 'nodes', { model: 'gpt3-175b', gpu: 'h100-sxm', tokens: 0.5 * TRILLION }],
  ['how many nodes for 7b on a trillion tokens', 'nodes', { model: 'llama2-7b', tokens: TRILLION }],
  // Digits grouped by spaces (SI), underscores (code), apostrophes (Swiss) or dots (German), and powers of ten written out:
  // before, "1 000 000 000 000 tokens" was read as 0 tokens and "1 024 GPUs" as 24 GPUs.
  ['how many nodes to train 70B on 1 000 000 000 000 tokens in 30 days on H100', 'nodes',
    { model: 'llama3-70b', gpu: 'h100-sxm', tokens: TRILLION, deadlineSeconds: 30 * DAY }],
  ['how many nodes to train 70B on 300 000 000 000 tokens', 'nodes', { model: 'llama3-70b', tokens: 300 * BILLION }],
  ['how many nodes to train 70B on 1_000_000_000_000 tokens', 'nodes', { model: 'llama3-70b', tokens: TRILLION }],
  ['how long to train 70B on 1.000.000.000.000 tokens on 256 GPUs', 'time', { model: 'llama3-70b', tokens: TRILLION, gpus: 256 }],
  ["how long to train 70B on 2'000'000'000'000 tokens on 1'024 GPUs", 'time', { model: 'llama3-70b', tokens: 2 * TRILLION, gpus: 1024 }],
  ['how long to train 70B on 2 000 000 000 000 tokens on 2 048 GPUs', 'time', { model: 'llama3-70b', tokens: 2 * TRILLION, gpus: 2048 }],
  ['how long to train 70B on 15T tokens on 16\u202f384 H100', 'time', { model: 'llama3-70b', gpu: 'h100-sxm', tokens: 15 * TRILLION, gpus: 16_384 }],
  ['how long for 7b with a 4 000 000 token batch on 64 gpus', 'time', { model: 'llama2-7b', batchTokens: 4e6, gpus: 64 }],
  ['how many nodes to train 70B on 1.5e+12 tokens', 'nodes', { model: 'llama3-70b', tokens: 1.5 * TRILLION }],
  ['how many nodes to train 70B on 3x10^11 tokens', 'nodes', { model: 'llama3-70b', tokens: 300 * BILLION }],
  ['how many nodes to train 70B on 10^12 tokens', 'nodes', { model: 'llama3-70b', tokens: TRILLION }],
  ['how long to train 70B on 2e12 tokens with 1e3 GPUs', 'time', { model: 'llama3-70b', tokens: 2 * TRILLION, gpus: 1000 }],
  // A space is no separator where the digits are two numbers: a model's version and size, a parallel size then a count.
  ['how long to train llama 3 405b on 2 048 h100', 'time', { model: 'llama3.1-405b', gpu: 'h100-sxm', gpus: 2048 }],
  ['how long to train llama3-70b with tp 8 pp 4 512 GPUs', 'time', { model: 'llama3-70b', tensor: 8, pipeline: 4, gpus: 512 }],
  // Token counts that are not the training budget, and a budget in GPU-hours that is not a GPU count.
  ['how many nodes for llama 3 8b with a 4M token batch', 'nodes', { model: 'llama3-8b', batchTokens: 4e6 }],
  // A batch in tokens written after the word batch, or per step: never the training budget.
  ['how long to train gpt3 on 256 gpus with batch size 4M tokens', 'time', { model: 'gpt3-175b', gpus: 256, batchTokens: 4e6 }],
  ['how long to train gpt3 on 256 gpus with gbs=2M tokens', 'time', { model: 'gpt3-175b', gpus: 256, batchTokens: 2e6 }],
  ['how long to train gpt3 on 256 gpus with 4M tokens per step', 'time', { model: 'gpt3-175b', gpus: 256, batchTokens: 4e6 }],
  ['how long to train 7b on 4096 token sequences on 8 nodes', 'time', { model: 'llama2-7b', seqLength: 4096, nodes: 8 }],
  ['how many nodes for 70b at 20 tokens per parameter in 30 days', 'nodes', { model: 'llama3-70b', tokensPerParameter: 20, deadlineSeconds: 30 * 86_400 }],
  ['how many h100 nodes to train llama 3 8b on 1.7M gpu hours', 'nodes', { model: 'llama3-8b', gpu: 'h100-sxm', gpuHours: 1.7e6 }],
  // collectives
  ['allreduce 256MB on 8 nodes of DGX H100', 'collective', { op: 'all-reduce', bytes: 256 * 1000 * 1000, gpu: 'h100-sxm', system: 'dgx-h100', nodes: 8 }],
  ['all-gather of 64 MiB across 16 A100 with ring', 'collective', { op: 'all-gather', bytes: 64 * MIB_BYTES, gpu: 'a100-80gb', gpus: 16, algorithm: 'ring' }],
  ['reduce-scatter 4 GB on 2 nodes', 'collective', { op: 'reduce-scatter', bytes: 4 * GB_BYTES, nodes: 2 }],
  ['how fast is a broadcast of 1 GiB on 32 H200', 'collective', { op: 'broadcast', bytes: 1024 * MIB_BYTES, gpu: 'h200', gpus: 32 }],
  ['alltoall 128 MB on 8 b200 nvls', 'collective', { op: 'all-to-all', bytes: 128 * 1000 * 1000, gpu: 'b200', gpus: 8, algorithm: 'nvls' }],
  // help
  ['help', 'help', {}],
  ['', 'help', {}],
  ['what is the weather in Paris', 'help', {}],
];

describe('parse: typos and signs a reader would still read', () => {
  it.each([
    // A misspelt noun or question word must not drop the number before it for a default ("2T tokns" was 15T unsaid).
    ['how long to trian llama3 70b on 2T tokns on 512 h100', 'time', { model: 'llama3-70b', tokens: 2 * TRILLION, gpu: 'h100-sxm', gpus: 512 }],
    ['how long to train llama3 70b on 300B tokenz on 512 h100', 'time', { model: 'llama3-70b', tokens: 300 * BILLION, gpu: 'h100-sxm', gpus: 512 }],
    ['hw many nodes for llama3-70b', 'nodes', { model: 'llama3-70b' }],
    ['how mnay nodes for llama3-70b', 'nodes', { model: 'llama3-70b' }],
    ['how lnog to train llama3-70b on 512 h100s', 'time', { model: 'llama3-70b', gpu: 'h100-sxm', gpus: 512 }],
    // "60 dyas" was no deadline (the default 30 days taken, the 60 dropped unsaid); "nodse", "ndoes" no cluster.
    ['how many nodse to train llama3-70b on 2T tokens in 60 dyas', 'nodes', { model: 'llama3-70b', tokens: 2 * TRILLION, deadlineSeconds: 60 * 86400 }],
    ['how long to train llama3-70b on 2T tokens on 64 ndoes', 'time', { model: 'llama3-70b', tokens: 2 * TRILLION, nodes: 64 }],
    ['how many nodes to train llama3-70b on 2T tokens in 2 monhts', 'nodes', { model: 'llama3-70b', tokens: 2 * TRILLION, deadlineSeconds: 2 * 30 * 86400 }],
    // "a fortnite" was no deadline (the game's name for a fortnight).
    ['how long to train llama3-70b on 2T tokens on 64 nodes in a fortnite', 'time', { model: 'llama3-70b', tokens: 2 * TRILLION, nodes: 64, deadlineSeconds: 14 * 86400 }],
  ] as const)('"%s" is a %s question', (question, intent, stated) => {
    const q = parse(question);
    expect(q.intent).toBe(intent);
    expect(q.stated).toEqual(stated);
  });

  it.each(['how many nodes to train 70b on -2T tokens', 'how long to train 70b on -64 h100', 'how many nodes for 70b in -3 days'])(
    '"%s" is refused for its negative number, never read as positive', (question) => {
      expect(parse(question).problems.some((p) => /negative/.test(p))).toBe(true);
    },
  );

  it('a hyphen inside a name, or a dash set apart, is no sign: "llama3-70b", "tp-8", "70b - 2T tokens"', () => {
    for (const question of ['how many nodes for llama3-70b', 'memory for 70b with tp-8', 'train gpt3-175b on 1024 a100', 'train llama3-70b - 2T tokens - 64 h100']) {
      expect(parse(question).problems).toEqual([]);
    }
  });
});

describe('parse: what a training run costs, and a scaling range', () => {
  it.each([
    // "What does … cost" with no cluster is the cheapest plan's cost, as "how much would it cost" is; not a default 128 nodes'.
    ['what does 530B cost at $2/GPU-hour', 'cheapest'],
    ["what's the budget for 405b at $3 per gpu hour", 'cheapest'],
    ['what would training llama3-70b on 2T tokens cost', 'cheapest'],
    // With a cluster it stays that cluster's time and cost.
    ['what does training gpt3 175b cost on 1024 a100 at $1.5/gpu-hr', 'time'],
  ] as const)('"%s" is a %s question', (question, intent) => {
    expect(parse(question).intent).toBe(intent);
  });

  it.each([
    ['how does 175b scale from 64 to 512 nodes', '64 and 512 nodes'],
    ['scaling efficiency of 70b from 128 to 1024 h100', '128 and 1024 GPUs'],
  ])('"%s" names two cluster sizes, which one answer cannot plan: said, with the CLI\'s scale command', (question, sizes) => {
    const q = parse(question);
    expect(q.problems.join(' ')).toContain(sizes);
    expect(q.problems.join(' ')).toContain('trainplan scale');
  });
});

describe('parse: a named supercomputer', () => {
  it('"MFU of 175B on Selene" plans DGX A100 80GB nodes and says so, never the default H100 with Selene dropped', () => {
    const q = parse('MFU of 175B on Selene');
    expect(q.stated).toMatchObject({ model: 'gpt3-175b', gpu: 'a100-80gb', system: 'dgx-a100-80gb' });
    expect(q.defaults.some((d) => d.field === 'gpu' && d.text.startsWith('Selene read as its node type, DGX A100 80GB'))).toBe(true);
    expect(parse('how long to train gpt3 on 128 nodes of selene').stated).toMatchObject({ nodes: 128, system: 'dgx-a100-80gb' });
  });
});

describe('parse: a table of phrasings', () => {
  it('has at least 30 phrasings', () => expect(TABLE.length).toBeGreaterThanOrEqual(30));

  it.each(TABLE)('"%s" is a %s question', (question, intent, stated) => {
    const q = parse(question);
    expect(q.intent).toBe(intent);
    expect(q.stated).toEqual(stated);
  });
});

describe('parse: defaults are stated', () => {
  it('"how many nodes for 175B" takes GPT-3\'s 300B tokens, a 30-day deadline and H100 nodes', () => {
    const q = parse('how many nodes for 175B');
    expect(q.parameters).toMatchObject({ model: 'gpt3-175b', gpu: 'h100-sxm', tokens: 300 * BILLION, deadlineSeconds: 30 * DAY });
    // The bare size is a reading too: 175B names no architecture, GPT-3's is taken.
    expect(q.defaults.map((d) => d.field)).toEqual(['model', 'gpu', 'tokens', 'deadlineSeconds', 'precision', 'network', 'globalBatchSize']);
    expect(q.parameters.globalBatchSize).toBe(1536);
    expect(q.defaults.find((d) => d.field === 'tokens')?.text).toMatch(/300B training tokens/);
  });

  it('a bare size says which preset it was taken as, and the others of that size', () => {
    // Llama 2 13B and GPT-3 13B share the size, not the shape (40 layers each, but 4096 vs 2048 tokens, 32k vs 50k vocabulary).
    const q = parse('how long to train 13b on 32 a100s');
    expect(q.stated.model).toBe('llama2-13b');
    expect(q.defaults[0]).toMatchObject({ field: 'model', value: 'llama2-13b' });
    expect(q.defaults[0]?.text).toBe('13B taken as Llama 2 13B (llama2-13b); also that size: gpt3-13b (name one to plan it)');
    // A named family is no reading.
    expect(parse('how long to train gpt-3 13b on 32 a100s').defaults.map((d) => d.field)).not.toContain('model');
  });

  it('a stated fact is never listed as a default', () => {
    const q = parse('how many H100 nodes to train llama3-70b on 2T tokens in 30 days');
    expect(q.defaults.map((d) => d.field)).toEqual(['precision', 'network', 'globalBatchSize']);
    const stated = parse('how many H100 nodes to train llama3-70b on 2T tokens in 30 days with a global batch of 1024');
    expect(stated.defaults.map((d) => d.field)).toEqual(['precision', 'network']);
  });

  it('the network between nodes is said among the assumptions when none is named, never taken unsaid', () => {
    expect(parse('how long to train llama3-8b 1T tokens on 64 H100').defaults.find((d) => d.field === 'network')?.text)
      .toBe("network: ndr-ib-8x, the GPU's usual fabric (8 × NDR InfiniBand 400 Gb/s (DGX H100/H200/B200); no network named)");
    expect(parse('how long to train llama3-8b 1T tokens on 64 H100 over NDR IB').defaults.filter((d) => d.field === 'network')).toHaveLength(1);
  });

  it('a model with no published budget takes 20 tokens per parameter (Chinchilla)', () => {
    const q = parse('how long to train megatron 39.1b on 16 nodes');
    expect(q.parameters.tokens).toBe(20 * 39.1 * BILLION);
    expect(q.defaults.find((d) => d.field === 'tokens')?.text).toMatch(/20 per parameter/);
  });

  it('"80GB A100" names the part: nothing is said to be assumed of it', () => {
    expect(parse('does a 13b fit on a single 80gb a100').defaults.map((d) => d.text).join(' ')).not.toMatch(/A100 taken as/);
  });

  it('a bare "A100" says it was taken as the 80GB part', () => {
    expect(parse('memory for 70B on a100').defaults.find((d) => d.field === 'gpu')?.text).toMatch(/80GB/);
  });

  it('memory questions without a cluster use one model replica and a ~4M-token batch', () => {
    const q = parse('memory for 70B with tp 8 pp 4 on A100 80GB');
    // 8 × 4 = 32 GPUs = 4 DGX A100 nodes, data parallel 1; Llama 3's 8192-token sequences: 4M / 8192 = 512.
    expect(q.parameters).toMatchObject({ nodes: 4, globalBatchSize: 512, microBatchSize: 1, recompute: 'selective' });
  });

  it('the global batch is a multiple of data parallel × micro-batch', () => {
    const q = parse('step time of nemotron4-15b on 96 DGX A100 with tp 8 pp 8');
    // 768 GPUs / 64 = DP 12; 4M tokens / 4096 = 1024 sequences → nearest multiple of 12 is 12 × 85 = 1020.
    expect(q.parameters.globalBatchSize).toBe(1020);
    // SC'21's 145.6B states its batch (Table 1: 2,304), a multiple of DP 12: kept.
    expect(parse('step time of megatron-145.6b on 96 DGX A100 with tp 8 pp 8').parameters.globalBatchSize).toBe(2304);
    // GPT-3 175B's published 1,536 is a multiple of DP 12: kept; of DP 10 (640 GPUs) it is not: the nearest multiple, 1,540.
    expect(parse('step time of gpt3-175b on 96 DGX A100 with tp 8 pp 8').parameters.globalBatchSize).toBe(1536);
    expect(parse('step time of gpt3-175b on 80 DGX A100 with tp 8 pp 8').parameters.globalBatchSize).toBe(1540);
  });
});

describe('parse: what it will not guess', () => {
  it('a size no preset has is no silent substitute: it is planned as a GPT-style decoder, said first among the assumptions', () => {
    const q = parse('how many nodes for 100B');
    expect(q.problems).toEqual([]);
    expect(q.parameters.model).toBeUndefined();
    expect(q.defaults[0]?.text).toMatch(/^100B taken as a GPT-style decoder \(no preset has that size\)/);
  });

  it('a family\'s size no preset has is a problem naming the family, with the bare size to ask instead', () => {
    const problems = parse('how many nodes for nemotron 30b').problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^no Nemotron-4 preset has about 30B parameters \(ask for "a 30B model" to plan a GPT-style decoder of that size, or give the decoder's shape /);
  });

  it('a GPT-3 or Megatron GPT size no preset has is the GPT-style decoder a bare size is', () => {
    expect(parse('how many nodes for gpt-3 30b').parameters.customModel?.shape.name).toBe('GPT-style 30B');
    expect(parse('how many nodes for megatron gpt 30b').parameters.customModel?.shape.name).toBe('GPT-style 30B');
  });

  it('a negative size is refused, not read as its magnitude (-5B is not 5B)', () => {
    const q = parse('how many nodes for -5B');
    expect(q.problems.join(' ')).toMatch(/a model size must be positive, got -5/);
    expect(q.parameters.model).toBeUndefined();
  });

  it('a training question without a model asks for one', () => {
    expect(parse('how many nodes in 30 days').problems.join(' ')).toMatch(/name a model/);
  });

  it('questions longer than 500 characters are refused', () => {
    expect(parse(`how many nodes for 175B ${'x'.repeat(600)}`).problems.join(' ')).toMatch(/500 characters/);
  });

  it('"2T tokens" is a token budget, never a 2T-parameter model', () => {
    const q = parse('how many nodes for llama3-8b on 2T tokens');
    expect(q.stated).toEqual({ model: 'llama3-8b', tokens: 2 * TRILLION });
  });
});

describe('parse: deadlines', () => {
  it('"3D parallel" is no 3-day deadline: the "in 60 days" is', () => {
    expect(parse('how many nodes for 175b with 3D parallel in 60 days').stated.deadlineSeconds).toBe(60 * DAY);
    const q = parse('how many nodes for 175b with 3d parallelism');
    expect(q.stated.deadlineSeconds).toBeUndefined();
    expect(q.defaults.map((d) => d.text)).toContain('a 30-day deadline');
    expect(parse('how many nodes for 175b in 3d').stated.deadlineSeconds).toBe(3 * DAY);
  });

  it.each([
    ['how many nodes for 7b on 1T tokens in a week', 7],
    ['how many nodes to train 70b in two weeks', 14],
    ['how many nodes for 70b in a month', 30],
    ['how many nodes for 70b within one day', 1],
    ['how many nodes for 70b on 2T tokens in a month and a half', 45],
    ['how many nodes for 70b in two and a half weeks', 17.5],
    ['how many nodes for 70b within a day and a half', 1.5],
    ['how many nodes to train llama3-70b on 2T tokens in 1 year', 365],
    ['how many nodes to train llama3-70b on 2T tokens in a year', 365],
    ['how many nodes for 70b in 2 years', 730],
    ['how many nodes for 70b in 2y', 730],
    ['how many nodes for 70b within one and a half years', 547.5],
  ])('"%s" is a %d-day deadline, not the 30-day default', (question, deadlineDays) => {
    const q = parse(question);
    expect(q.stated.deadlineSeconds).toBe(deadlineDays * DAY);
    expect(q.defaults.map((d) => d.text)).not.toContain('a 30-day deadline');
  });

  it.each(['by end of month', 'by next friday', 'before q3', 'by 2025-06-30'])('a date ("%s") is said not understood where the default deadline stands in for it', (when) => {
    const q = parse(`how many nodes for llama 3 70b ${when} on h100`);
    expect(q.parameters.deadlineSeconds).toBe(30 * DAY);
    expect(q.defaults.find((d) => d.field === 'deadlineSeconds')?.text).toContain(`"${when}" not understood`);
    // A deadline stated as a length is read, and nothing is said about dates.
    expect(parse('how many nodes for llama 3 70b in 20 days on h100').defaults.map((d) => d.text).join(' ')).not.toMatch(/not understood/);
  });

  it.each(['paid by month', 'limited by saturating links', 'sized by this model', 'run by sunny'])('words that only look like a date ("%s") are not taken for one', (words) => {
    const q = parse(`how many nodes for llama 3 70b on h100, ${words}`);
    expect(q.parameters.deadlineSeconds).toBe(30 * DAY);
    expect(q.defaults.map((d) => d.text).join(' ')).not.toMatch(/not understood/);
  });

  it('"2T tokens a batch of 1024" is a budget and then a batch, not a 2T-token batch; "4M tokens a step" is the batch in tokens', () => {
    const budget = parse('how many nodes to train 70b on 2T tokens a batch of 1024');
    expect(budget.stated).toMatchObject({ tokens: 2e12 });
    expect(budget.stated.batchTokens).toBeUndefined();
    expect(parse('how long to train gpt3 175b on 256 gpus with 4M tokens a step').stated).toMatchObject({ batchTokens: 4e6 });
  });

  it('months are 30 days, and the answer says so', () => {
    const q = parse('how many nodes for 70b in 6 months');
    expect(q.stated.deadlineSeconds).toBe(180 * DAY);
    expect(q.defaults.map((d) => d.text)).toContain('a month taken as 30 days (6 months = 180 days)');
    expect(parse('how many nodes for 70b in a month').defaults.map((d) => d.text)).toContain('a month taken as 30 days');
  });

  it('years are 365 days, and the answer says so (a year was once dropped for the 30-day default)', () => {
    expect(parse('how many nodes for 70b in 2 years').defaults.map((d) => d.text)).toContain('a year taken as 365 days (2 years = 730 days)');
    expect(parse('how many nodes for 70b in a year').defaults.map((d) => d.text)).toContain('a year taken as 365 days');
  });
});

describe('parse: counts in words', () => {
  it.each<[string, AskParameters]>([
    ['does llama 3 8b fit on a single h100', { gpu: 'h100-sxm', gpus: 1 }],
    ['does llama 3 8b fit on one h100', { gpu: 'h100-sxm', gpus: 1 }],
    ['does llama 3 8b fit on an h100', { gpu: 'h100-sxm', gpus: 1 }],
    ['does llama 3 8b fit on a single gpu', { gpus: 1 }],
    ['memory for 70b on a single node', { nodes: 1 }],
    ['memory for 70b on one node', { nodes: 1 }],
    ['memory for 70b on one dgx h100', { gpu: 'h100-sxm', system: 'dgx-h100', nodes: 1 }],
    ['step time of 70b on two h100 nodes with tp 8', { gpu: 'h100-sxm', nodes: 2, tensor: 8 }],
  ])('"%s" states its count', (question, stated) => {
    const q = parse(question);
    expect(q.stated).toMatchObject(stated);
    expect(q.defaults.map((d) => d.field)).not.toContain('nodes');
    expect(q.defaults.map((d) => d.field)).not.toContain('gpus');
  });

  it('"one GB200 tray" is one node; "a GB200 NVL72" one rack of 72 GPUs; "8 GB200 NVL72" 8 racks; "72 GB200" 72 GPUs', () => {
    expect(parse('memory for 70b on one gb200 tray').stated).toMatchObject({ system: 'gb200-nvl72', nodes: 1 });
    // NVIDIA GB200 NVL72: 72 Blackwell GPUs (18 trays of 4) in one NVLink domain.
    expect(parse('how fast is llama 3 70b on a gb200 nvl72').stated).toMatchObject({ gpus: 72 });
    expect(parse('how long to train 70b on 8 gb200 nvl72').stated).toMatchObject({ gpus: 8 * 72 });
    expect(parse('all-reduce 1GB on 72 gb200').stated).toMatchObject({ gpus: 72 });
    expect(parse('how long to train 70b on 280 dgx a100').stated).toMatchObject({ nodes: 280 });
  });

  it('"a rack of GB200" is one NVL72 rack (72 GPUs), "2 GB200 racks" two: not the 128-node default', () => {
    // NVIDIA GB200 NVL72: one rack is one NVLink domain of 72 Blackwell GPUs.
    expect(parse('how long to train llama3 70b on a rack of gb200').stated).toMatchObject({ system: 'gb200-nvl72', gpus: 72 });
    expect(parse('how long to train llama3 70b on 2 racks of gb200').stated).toMatchObject({ gpus: 144 });
    expect(parse('how long to train llama3 70b on two gb200 nvl72 racks').stated).toMatchObject({ gpus: 144 });
    expect(parse('how long to train llama3 70b on 4 gb200 racks').defaults.map((d) => d.field)).not.toContain('nodes');
  });

  it('k in a cluster size is 1,000, as the CLI reads --gpus 1k, and the answer says so: "100k H100s" is 100,000 GPUs', () => {
    // QA: "100k H100" was 102,400 GPUs here while the CLI's help reads "--gpus 1k = 1,000 GPUs".
    const q = parse('how long does llama 3.1 405b take on 100k h100s');
    expect(q.stated.gpus).toBe(100_000);
    expect(q.defaults[0]?.text).toMatch(/^k read as 1,000 in a cluster size \(100,000\)/);
    expect(parse('how long to train 70b on 2k nodes').stated.nodes).toBe(2000);
    expect(parse('how long does llama 3.1 405b take on 16k h100s').stated.gpus).toBe(16_000);
    // In the 8xH100 node form too (a second regex used to guess whether k was applied, and missed it).
    expect(parse('how long to train 70b on 16k 8xh100 nodes').defaults.find((d) => d.field === 'nodes')?.text).toMatch(/^k read as 1,000 in a cluster size \(16,000\)/);
    // A length in tokens keeps k = 1024: "8k context" is 8,192 tokens.
    expect(parse('how long to train 70b with 8k context on 2k nodes').stated).toMatchObject({ seqLength: 8192, nodes: 2000 });
  });

  it('"an H100" is one GPU, "an H100 cluster" no count', () => {
    expect(parse('how long to train 70b on an h100').stated.gpus).toBe(1);
    const q = parse('how long to train 70b on an h100 cluster');
    expect(q.stated.gpus).toBeUndefined();
    expect(q.stated.nodes).toBeUndefined();
  });
});

describe('parse: "8xH100" is GPUs per node', () => {
  it.each<[string, AskParameters]>([
    ['how long to train 70b on 16 8xH100 nodes', { gpu: 'h100-sxm', gpusPerNode: 8, nodes: 16 }],
    ['how long to train 70b on 16 8x a100 nodes', { gpu: 'a100-80gb', gpusPerNode: 8, nodes: 16 }],
    ['how long to train 70b on 16 nodes of 8x A100', { gpu: 'a100-80gb', gpusPerNode: 8, nodes: 16 }],
    ['how many 8xH100 nodes do i need to train llama 70b on 2T tokens in 3 weeks', { gpu: 'h100-sxm', gpusPerNode: 8 }],
    ['allreduce 1GB on 16 nodes of 8xH100', { op: 'all-reduce', gpu: 'h100-sxm', gpusPerNode: 8, nodes: 16 }],
  ])('"%s"', (question, stated) => {
    const q = parse(question);
    expect(q.stated).toMatchObject(stated);
    expect(q.stated.gpus).toBeUndefined();
    if (stated.nodes === undefined) expect(q.stated.nodes).toBeUndefined();
  });

  it('"8xH100" with no node noun stays 8 GPUs', () => {
    expect(parse('tokens/sec for llama 2 7b on 8xH100').stated).toMatchObject({ gpu: 'h100-sxm', gpus: 8 });
  });
});

describe('parse: hardware no preset models is declined, never read as H100', () => {
  // The catalogue's presets, whichever it holds (a preset added there is listed with no edit here).
  const presets = `the GPU presets are ${GPU_IDS.join(', ')}`;
  it.each([
    ['how long to train 70b on 512 l40s', `L40S is not modelled; ${presets}`],
    ['how many nodes for 175b on mi300x', `MI300X is not modelled; ${presets}`],
    ['how long to train 70b on 64 mi250 nodes', `MI250 is not modelled; ${presets}`],
    ['how many nodes for 175B on TPU v4', `TPU v4 is not modelled; ${presets}`],
    ['how long to train 70b on 64 gaudi nodes', `Gaudi is not modelled; ${presets}`],
    ['how long to train 7b on 8 rtx 4090', `RTX 4090 is not modelled; ${presets}`],
    // A GPU named by a memory size no preset has: never the default H100, nor "a single" dropped.
    ['does 7b fit on a single 24GB GPU', `a 24 GB GPU is not modelled; ${presets}`],
    ['can llama 2 7b train on 4 48gb cards', `a 48 GB GPU is not modelled; ${presets}`],
    // Variants of a modelled GPU that no preset is: the NVL card, the 40 GB PCIe card.
    ['how long to train 70b on 512 h100 nvl', 'H100 NVL is not modelled: the H100 SXM (h100-sxm) and PCIe (h100-pcie) parts are modelled'],
    ['how long to train 70b on 512 a100 40gb pcie', 'A100 40GB PCIe is not modelled: the A100 80GB PCIe (a100-80gb-pcie) and the SXM4 parts'],
    ['memory for 13b on v100 16gb', 'V100 16GB is not modelled: only the 32 GB V100 (v100-32gb) is modelled'],
  ])('"%s" is declined: %s', (question, problem) => {
    const q = parse(question);
    expect(q.stated.gpu).toBeUndefined();
    expect(q.problems.join(' ')).toContain(problem);
  });

  // QA: the PCIe presets were declined as "not modelled", even by their ids.
  it.each([
    ['how long to train 70b on 512 h100 pcie', { gpu: 'h100-pcie' }],
    ['how long to train 70b on 512 a100 pcie', { gpu: 'a100-80gb-pcie' }],
    ['nvlink bandwidth of a100-80gb-pcie', { gpu: 'a100-80gb-pcie' }],
    ['what network does h100-pcie-8x have', { gpu: 'h100-pcie', system: 'h100-pcie-8x' }],
    ['how long to train llama2 7b on 8 a100 pcie nodes', { gpu: 'a100-80gb-pcie', system: 'a100-80gb-pcie-8x', nodes: 8 }],
    ['all-reduce 1 GiB on 4 a100-80gb-pcie-8x nodes', { gpu: 'a100-80gb-pcie', system: 'a100-80gb-pcie-8x', nodes: 4 }],
    // And the GH200 and its quad node (JUPITER's Booster).
    ['how long to train 70b on 512 gh200', { gpu: 'gh200' }],
    ['how long to train 70b on 128 gh200-quad nodes', { gpu: 'gh200', system: 'gh200-quad', nodes: 128 }],
    ['how long to train 70b on 128 JUPITER nodes', { gpu: 'gh200', system: 'gh200-quad', nodes: 128 }],
  ])('"%s" is read as the PCIe or GH200 preset it names', (question, stated) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject(stated);
  });

  it('a size of GPU buffers is no GPU: "all-gather 64 GB gpu buffers on 8 h100" is 8 H100s', () => {
    expect(parse('all-gather 64 GB gpu buffers on 8 h100').problems).toEqual([]);
  });

  it.each([
    ['serve llama3-8b on a single 80gb gpu', { gpu: 'h100-sxm', gpus: 1 }, 'an 80 GB GPU taken as the H100 SXM 80GB (say "A100 80GB" for the other)'],
    ['does llama3-8b fit on one 80 GB GPU', { gpu: 'h100-sxm', gpus: 1 }, 'an 80 GB GPU taken as the H100 SXM 80GB (say "A100 80GB" for the other)'],
    ['serve llama3-8b on 4 40gb gpus', { gpu: 'a100-40gb', gpus: 4 }, 'a 40 GB GPU taken as the A100 SXM4 40GB, the modelled part of that size'],
    ['serve llama3-8b on a 141 GB card', { gpu: 'h200', gpus: 1 }, 'a 141 GB GPU taken as the H200 SXM 141GB, the modelled part of that size'],
    ['how many 192gb gpus to serve llama3-70b at 10 qps', { gpu: 'b200' }, 'a 192 GB GPU taken as the B200, the modelled part of that size'],
  ])('a GPU named by a size a preset has, "%s", is that part on the GPUs counted ("a single": one), said so', (question, stated, reading) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject(stated);
    expect(q.defaults.map((d) => d.text)).toContain(reading);
    expect(q.defaults.map((d) => d.text).join(' ')).not.toMatch(/no GPU named/);
  });

  it.each(['how long to train 13b on 256 a100-40g', 'how long to train 13b on 256 a100 40'])('"%s" is the A100 40GB', (question) => {
    const q = parse(question);
    expect(q.stated).toMatchObject({ gpu: 'a100-40gb', gpus: 256 });
    expect(q.defaults.map((d) => d.field)).not.toContain('gpu');
  });

  it('"a100 40" is the 40GB part, but "a100 40 nodes" is 40 nodes of the (assumed 80GB) A100', () => {
    expect(parse('memory for 13b on a100 40 with tp 2').stated).toMatchObject({ gpu: 'a100-40gb', tensor: 2 });
    expect(parse('how long to train 13b on a100 40 nodes').stated).toMatchObject({ gpu: 'a100-80gb', nodes: 40 });
  });
});

describe('parse: model names', () => {
  it.each(['how many nodes for llama 3 405b', 'how many nodes for llama3 405b', 'how many nodes for llama-3-405b'])('"%s" is Llama 3.1 405B, said so', (question) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated.model).toBe('llama3.1-405b');
    expect(q.defaults[0]?.text).toBe("Llama 3 405B taken as Llama 3.1 405B (llama3.1-405b; Meta's paper, Dubey et al. 2024, calls it Llama 3 405B)");
  });

  // Meta names it 1B for 1.23B parameters, 19% off: the name's own size matches, as no tolerance would.
  it.each(['serve llama 3.2 1b on one h100', 'serve llama-3.2-1b on one h100', 'serve llama3.2 1b on one h100'])('"%s" is Llama 3.2 1B, the size its name states', (question) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject({ model: 'llama3.2-1b' });
    expect(q.stated.customModel).toBeUndefined();
  });

  it('a Llama 3.2 size no preset has is shaped Llama 3.2-style, as another Llama version\'s is (preset-size-readings.test.ts)', () => {
    const q = parse('how long to train llama 3.2 2b on 8 h100 nodes');
    expect(q.problems).toEqual([]);
    expect(q.stated.customModel?.shape.name).toBe('Llama 3.2-style 2B');
  });
});

describe('parse: a model family no preset has is declined, never read as a preset of its size', () => {
  it.each([
    ['how long to train mistral 7b on 64 H100', 'Mistral 7B is not modelled (no preset has its shape); ask for "a 7B model" to plan a GPT-style decoder of that size'],
    ['serve qwen 72b on 8 H100', 'Qwen 72B is not modelled (no preset has its shape); ask for "a 72B model" to plan a GPT-style decoder of that size'],
    ['how long to train gemma 7b on 1T tokens on 32 h100', 'Gemma 7B is not modelled'],
    ['how long to train falcon 40b on 64 H100', 'Falcon 40B is not modelled'],
    ['how many nodes for mixtral 8x22b', 'Mixtral 8x22B is a mixture-of-experts model (141B total, 39B activated per token'],
    ['how long would mixtral 8x7b take on 64 H100', 'Mixtral 8x7B is a mixture-of-experts model (47B total, 13B activated per token'],
    ['serve deepseek v3 on 16 h200', 'DeepSeek-V3 is a mixture-of-experts model (671B total, 37B activated per token'],
  ])('"%s" is declined: %s', (question, problem) => {
    const q = parse(question);
    expect(q.stated.model).toBeUndefined();
    expect(q.stated.customModel).toBeUndefined();
    expect(q.problems[0]).toContain(problem);
    expect(q.problems.join(' ')).not.toContain('name a model');
  });
});
