import { runEstimate, type EstimateOk, type ScenarioInput, type SearchResponseJson } from '@trainplan/protocol';
import { GPU_IDS, modelById } from '@trainplan/presets';
import { describe, expect, it } from 'vitest';
import { ask, answer } from '../src/answer/answer.ts';
import { renderText } from '../src/answer/render-text.ts';
import { parse } from '../src/parse.ts';

const DAY_SECONDS = 86_400;
const scenarioFromUrl = (url: string): ScenarioInput => JSON.parse(decodeURIComponent(url.split('#scenario=')[1]!.split('&')[0]!)) as ScenarioInput;

describe('answer: nodes, time and best configuration (the search)', () => {
  const nodes = ask('how many nodes for 175B');

  it('labels the closest alternative\'s figures as such: they answer another cluster than the one asked', () => {
    const a = ask('how long to train gpt3-175b on 1 node');
    expect(a.ok).toBe(false);
    expect(a.figures.length).toBeGreaterThan(0);
    for (const f of a.figures) expect(f.label).toMatch(/\(closest\)$/);
    expect(a.configuration).toMatch(/^closest that works, not what was asked: /);
  });

  it('says a failure once: a closest point whose why is the headline\'s message adds no "Closest that works" note', () => {
    const a = ask('how many nodes for gpt3-175b on 300B tokens in 0.2 days on A100');
    expect(a.ok).toBe(false);
    const reason = a.headline.slice(a.headline.indexOf(': ') + 2);
    expect(reason).toMatch(/^no cluster of up to [\d,]+ nodes meets the deadline/);
    for (const n of a.notes) expect(n).not.toContain(reason);
    expect(a.configuration).toMatch(/^closest that works, not what was asked: /);
    // A closest point with something else to say still says it (another cluster than the one asked).
    expect(ask('how long to train gpt3-175b on 1 node').notes.some((n) => n.startsWith('Closest that works: '))).toBe(true);
  });

  it('counts the cluster sizes searched in words: "1 cluster size searched", not "1 cluster sizes searched"', () => {
    const a = ask('how many nodes for gpt3-126m');
    // Among the notes, wherever the estimate's own (its MFU counted causal too) fall before it.
    expect(a.notes).toContain('The fewest nodes whose best configuration meets the deadline (1 cluster size searched).');
  });

  it('says when the batch holds the plan back, with the same question at twice the batch (runNodes\'s largerBatch)', () => {
    // At the published batch stated: with none, each size takes its own default (1,462 on 2,924 nodes), which meets the day unhinted.
    const a = ask('how many H100 nodes to train gpt3-175b on 300B tokens in 1 day at global batch 1536');
    expect(a.ok).toBe(true);
    const hint = (a.data as { largerBatch?: { message: string; nodes: number } }).largerBatch;
    if (!hint) throw new Error('expected a larger-batch hint at 1 day');
    expect(a.notes).toContain(hint.message);
    expect(renderText(a)).toContain(hint.message);
    // At the published batch held at every size too: with none, each size takes a default its GPUs run (default-batch.ts
    // someLayoutRuns), and the fastest, 6,720 nodes at 1,680 sequences, leaves a bubble under a tenth of its step: no hint.
    const unreachable = ask('how many H100 nodes to train gpt3-175b on 300B tokens in 0.4 days at global batch 1536');
    expect(unreachable.ok).toBe(false);
    expect(unreachable.notes.at(-1)).toMatch(/^The batch holds this plan back: .* would meet the deadline on /);
    expect(nodes.notes.some((n) => n.startsWith('The batch holds'))).toBe(false);
  });

  it('takes a default batch some split of the GPUs can divide: on 1000 GPUs, 1000 sequences, not 1024', () => {
    const a = ask('how long to train a 7b on 1000 H100s');
    expect(a.ok).toBe(true);
    const batch = a.scenario!.training.globalBatchSize;
    expect(batch % 125).toBe(0);
    expect(Math.abs(batch * 4096 - 4e6) / 4e6).toBeLessThan(0.1); // still about 4M tokens per step
  });

  it('derives the budget and the batch from token phrases: 20 tokens per parameter, a 4M-token batch', () => {
    const a = ask('how many nodes for 70b at 20 tokens per parameter with a 4M token batch in 30 days');
    const params = modelById('llama3-70b')!.publishedParameters;
    expect(a.scenario?.training.tokens).toBe(Math.round(20 * params));
    // 4e6 / 8192 = 488.3 sequences, which only DP 1, 2, 4 and 8 divide: 512 (4.9% more) is what runs.
    expect(a.scenario?.training.globalBatchSize).toBe(512);
    expect(a.assumptions.join(' ')).toMatch(/20 per parameter, as asked/);
  });

  it('rounds a batch asked in tokens to sequences power-of-two data-parallel sizes divide: GPT-3\'s 3.2M tokens is 1536 sequences', () => {
    // Brown et al. 2020, Table 2.1: GPT-3 175B trained on a 3.2M-token batch, 1536 sequences of 2048.
    expect(parse('how long to train gpt3 175b on 1024 a100 with a 3.2M token batch').parameters.globalBatchSize).toBe(1536);
    // 4M / 2048 = 1953 sequences: on 256 GPUs only DP 1 divides it, which forced PP 32 × CP 4.
    const a = ask('how long to train gpt3 on 256 gpus with batch size 4M tokens');
    expect(a.scenario?.training.globalBatchSize).toBe(2048);
    expect(a.scenario?.parallelism?.data).toBeGreaterThan(1);
    // 4,000,000 / 2,048 = 1,953.125 sequences, grouped as every count in an answer.
    expect(a.assumptions.join(' ')).toMatch(/rounded from 1,953\.1/);
  });

  it('keeps the settings the question states: recompute, micro-batch and sequence parallelism exactly', () => {
    const a = ask('best config for gpt3-13b on 8 nodes with mbs 4, full recompute and without sequence parallel');
    const e = (a.data as { best: { estimate: EstimateOk } }).best.estimate;
    expect(e.resolved).toMatchObject({ microBatchSize: 4, recompute: 'full', sequenceParallel: false });
  });

  it('holds a stated TP exactly, though the search finds a smaller one faster without it', () => {
    const held = ask('best config for gpt3-13b on 8 nodes with tp 8');
    const e = (held.data as { best: { estimate: EstimateOk } }).best.estimate;
    expect(e.resolved.tensor).toBe(8);
    for (const p of (held.data as { top: { estimate: EstimateOk }[] }).top) expect(p.estimate.resolved.tensor).toBe(8);
    // The premise: 13B on 64 GPUs runs fastest below TP 8 when free to choose.
    const free = (ask('best config for gpt3-13b on 8 nodes').data as { best: { estimate: EstimateOk } }).best.estimate;
    expect(free.resolved.tensor).toBeLessThan(8);
    expect(free.stepTimeSeconds).toBeLessThan(e.stepTimeSeconds);
  });

  it('"how many nodes for 175B" meets the 30-day default deadline with GPT-3\'s 300B tokens', () => {
    expect(nodes.ok).toBe(true);
    const e = runEstimate(nodes.scenario) as EstimateOk;
    expect(e.timeToTrain?.tokens).toBe(300e9);
    // Days to train = whole steps (tokens / tokens per step, rounded up) × step time, and within the deadline.
    expect(e.timeToTrain!.days).toBeCloseTo(Math.ceil(300e9 / (e.resolved.globalBatchSize * e.resolved.seqLength)) * e.stepTimeSeconds / DAY_SECONDS, 6);
    expect(e.timeToTrain!.days).toBeLessThanOrEqual(30);
    expect(nodes.headline).toContain(`${e.resolved.nodes} nodes (${e.resolved.gpus} GPUs)`);
  });

  it('says which defaults it used', () => {
    expect(nodes.assumptions.join('\n')).toMatch(/300B training tokens[\s\S]*30-day deadline/);
  });

  it('the next smaller size that runs misses the deadline (the answer is the fewest)', () => {
    const data = nodes.data as { nodes: number };
    // Not every size divides into a layout (35 nodes' 280 GPUs split no way GPT-3's 96 layers and batch of 1,536 allow).
    const smaller = Array.from({ length: 8 }, (_, i) => ask(`how long to train gpt3-175b on ${data.nodes - 1 - i} H100 nodes`)).find((a) => a.ok);
    expect(smaller).toBeDefined();
    expect((runEstimate(smaller!.scenario) as EstimateOk).timeToTrain!.days).toBeGreaterThan(30);
  });

  it('its widget link carries the same scenario, which estimates to the same figures', () => {
    const scenario = scenarioFromUrl(nodes.widgetUrl!);
    expect(scenario).toEqual(nodes.scenario);
    expect((runEstimate(scenario) as EstimateOk).stepTimeSeconds).toBe(nodes.stepTimeSeconds);
  });

  it('its widget link carries the deadline it answered against, the default or the one asked (the widget kept its page\'s 30 days)', () => {
    expect(nodes.widgetUrl).toMatch(/&days=30$/);
    expect(ask('how many nodes for a 30B llama model on A100 for 1T tokens in 2 weeks').widgetUrl).toMatch(/&days=14$/);
  });

  it('"best config for 530B on 280 DGX A100" keeps the 2240 GPUs and the DGX A100 fabric', () => {
    const a = ask('best config for 530B on 280 DGX A100');
    expect(a.ok).toBe(true);
    const e = runEstimate(a.scenario) as EstimateOk;
    expect(e.resolved).toMatchObject({ model: 'mt-nlg-530b', gpu: 'a100-80gb', network: 'hdr-ib-8x', nodes: 280, gpus: 2240 });
    expect(e.resolved.tensor * e.resolved.pipeline * e.resolved.context * e.resolved.data).toBe(2240);
    expect(e.memory.fits).toBe(true);
  });

  it('a deadline nothing meets answers with the closest and why, not a crash', () => {
    const a = ask('how many nodes to train llama3.1-405b on 15.6T tokens in 1 day on v100');
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(/Llama 3.1 405B/);
  });
});

describe('answer: precision follows the GPU', () => {
  it('a V100 question is planned in FP16 (Volta has no BF16) and says so', () => {
    const a = ask('how long to train gpt3-1.3b on 300B tokens on 16 nodes of v100');
    expect(a.ok).toBe(true);
    expect(a.scenario).toMatchObject({ training: { precision: 'fp16' } });
    expect(a.assumptions).toContain('FP16 mixed precision (the GPU has no BF16)');
  });

  it('an H100 question keeps BF16', () => {
    const a = ask('how long to train gpt3-1.3b on 300B tokens on 16 nodes of h100');
    expect(a.scenario).toMatchObject({ training: { precision: 'bf16' } });
  });
});

describe('answer: a stated configuration (runEstimate)', () => {
  it('memory for 70B with tp 8 pp 4 on A100 80GB: model states are at least 18 B per parameter share', () => {
    const a = ask('memory for 70B with tp 8 pp 4 on A100 80GB');
    expect(a.ok).toBe(true);
    const e = a.data as EstimateOk;
    // Megatron's mixed-precision Adam: 18 bytes per parameter (Korthikanti et al. 2022); with no data
    // parallelism nothing is sharded, and the heaviest of 32 shards holds at least the average.
    const states = e.memory.weightsBytes + e.memory.gradientsBytes + e.memory.optimizerBytes;
    expect(states).toBeGreaterThanOrEqual((18 * e.parameters) / 32);
    expect(a.memoryPerGpuBytes).toBe(e.memory.totalBytes);
    expect(a.headline).toMatch(/GiB per GPU of .*GiB \((fits|does not fit) for training\)/);
  });

  it('"how long … with tp 8 pp 8" uses the stated layout and days = whole steps × step time', () => {
    const a = ask('how long to train 175B on 128 DGX A100 with tp 8 pp 8');
    const e = a.data as EstimateOk;
    expect(e.resolved).toMatchObject({ tensor: 8, pipeline: 8, nodes: 128 });
    expect(e.timeToTrain!.days).toBeCloseTo(Math.ceil(300e9 / (e.resolved.globalBatchSize * e.resolved.seqLength)) * e.stepTimeSeconds / DAY_SECONDS, 6);
  });

  it('an impossible layout answers why (out of memory), with the widget link to fix it there', () => {
    const a = ask('memory for 405B with tp 1 pp 1 on a100');
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(/does not fit: needs .* per GPU/);
    expect(a.widgetUrl).toBeDefined();
  });
});

describe('answer: ZeRO and FSDP', () => {
  it('"with zero-3" and no cluster is one node of data parallelism with ZeRO-3, not one TP-8 replica where it shards nothing', () => {
    const a = ask('does llama 2 7b fit in 80GB with zero-3');
    expect(a.scenario?.parallelism).toMatchObject({ zeroStage: 3, tensor: 1 });
    expect(a.scenario?.parallelism?.distributedOptimizer).toBeUndefined();
    const r = (a.data as EstimateOk).resolved;
    expect(r.data).toBe(8);
    expect(r.zeroStage).toBe(3);
    // ZeRO-3 over 8 GPUs: weights, gradients and Adam states (16 bytes per parameter, Rajbhandari et al. 2020) / 8.
    expect(a.memoryPerGpuBytes).toBeGreaterThan((16 * modelById('llama2-7b')!.publishedParameters) / 8);
    expect(a.configuration).toMatch(/ZeRO-3/);
  });

  it('"with fsdp" on a cluster is searched with ZeRO-3 only, and the reading is said', () => {
    const a = ask('llama3-8b with fsdp on 8 h100, step time?');
    expect((a.data as SearchResponseJson & { ok: true }).best.estimate.resolved.zeroStage).toBe(3);
    expect(a.assumptions[0]).toMatch(/^FSDP read as ZeRO-3/);
  });
});

describe('answer: collectives (runCollective)', () => {
  it('all-reduce 1 GB on 64 H100: bus bandwidth is 2(n-1)/n of algorithm bandwidth (nccl-tests)', () => {
    const a = ask('all-reduce 1 GB on 64 H100');
    expect(a.ok).toBe(true);
    const row = (a.data as { rows: { bytes: number; seconds: number; algbwGBps: number; busbwGBps: number }[] }).rows[0]!;
    expect(row.bytes).toBe(1e9);
    expect(row.busbwGBps / row.algbwGBps).toBeCloseTo((2 * 63) / 64, 9);
    expect(row.algbwGBps).toBeCloseTo(1e9 / row.seconds / 1e9, 9);
  });
});

describe('answer: help', () => {
  it.each(['', 'help', 'what is the weather'])('"%s" gets the examples', (q) => {
    const a = ask(q);
    expect(a.intent).toBe('help');
    expect(a.examples).toContain('how many nodes for 175B');
  });

  it.each(['', '   ', 'help', 'Help me', 'hi', 'examples', 'usage'])('"%s" (empty, or asking for help) gets the help alone, headed by what the bot answers', (q) => {
    const a = ask(q);
    expect(a.headline).toMatch(/^I answer LLM training planning questions/);
    expect(a.headline).not.toMatch(/understand/);
  });

  it.each(['what is the weather', 'asdfgh qwerty', 'tell me a joke about GPUs'])('"%s" is said not to be understood, in the first line, before the help', (q) => {
    const a = ask(q);
    expect(a.intent).toBe('help');
    expect(a.headline).toBe(`I didn't understand "${q}".`);
    expect(a.notes[0]).toMatch(/^I answer LLM training planning questions/);
    expect(renderText(a).split('\n')[0]).toBe(a.headline);
    expect(a.examples.length).toBeGreaterThan(0);
  });

  it('a long question not understood is quoted clipped, on one line', () => {
    const a = ask(`${'blah '.repeat(40)}\nand more`);
    expect(a.headline).toMatch(/^I didn't understand "blah blah .*…"\.$/);
    expect(a.headline).not.toContain('\n');
    expect(a.headline.length).toBeLessThan(120);
  });

  it('a family size no preset has is said back, with the examples', () => {
    const a = ask('how many nodes for bloom 30B');
    expect(a.headline).toMatch(/no BLOOM preset has about 30B/);
    expect(a.examples.length).toBeGreaterThan(0);
  });

  it('every example question is answered (none falls back to help)', () => {
    for (const q of ask('help').examples) expect(ask(q).intent, q).not.toBe('help');
  });
});

describe('the widget link', () => {
  const q = 'step time of llama3-8b on 8 H100 with tp 8';
  it('is built on the publicUrl the caller passes (a server\'s configured URL or its request\'s origin)', () => {
    expect(ask(q, { publicUrl: 'http://10.0.0.5:9000' }).widgetUrl).toMatch(/^http:\/\/10\.0\.0\.5:9000\/#scenario=/);
  });
  it('is left out when the caller says nothing serves the widget (publicUrl null)', () => {
    for (const question of [q, 'how many nodes for 175B', 'best config for 530B on 280 DGX A100']) {
      const a = ask(question, { publicUrl: null, candidateBudget: 2000 });
      expect(a.scenario, question).toBeDefined();
      expect(a.widgetUrl, question).toBeUndefined();
      expect(renderText(a)).not.toContain('Open in the widget');
    }
  });
  // `#scenario=` is a training scenario, which opens <trainplan-estimator>; <trainplan-serving> reads no link (only its
  // attributes: apps/widget trainplan-serving.ts), so no address opens a serving plan, and a serving answer links none.
  it('is left out of a serving answer: the widget opens no serving plan from a link', () => {
    const a = ask('how do I serve llama 3 70b on H100 with 2048 prompt and 512 output at 50 ms per token', { publicUrl: 'https://x.example' });
    expect(a.intent).toBe('serving');
    expect(a.widgetUrl).toBeUndefined();
    expect(renderText(a)).not.toContain('Open in the widget');
  });
});

describe('renderText', () => {
  it('prints the headline, configuration, figures, assumptions and link', () => {
    const a = answer(parse('step time of llama3-8b on 8 H100 with tp 8'), { publicUrl: 'https://x.example/' });
    const text = renderText(a);
    expect(text.split('\n')[0]).toBe(a.headline);
    for (const part of ['Configuration: TP 8', 'Step time:', 'MFU:', 'Memory per GPU:', 'Assumed (not in the question):', 'https://x.example/#scenario=']) {
      expect(text).toContain(part);
    }
  });

  it.each(['how many H100 nodes to train llama3-70b on 2T tokens in 30 days', 'how long to train gpt3-175b on 128 nodes'])('"%s" states the GPU-hours once, beside the time to train', (question) => {
    const text = renderText(ask(question));
    expect(text).toMatch(/Time to train: .* · \S+ GPU-hours\n/);
    expect(text.match(/GPU-hours/g)).toHaveLength(1);
  });

  it('uses the preset\'s sequence length for the default batch (Llama 3: 8192 → 512 sequences)', () => {
    expect(modelById('llama3-8b')?.shape.seqLength).toBe(8192);
    expect((ask('step time of llama3-8b on 8 H100 with tp 8').data as EstimateOk).resolved.globalBatchSize).toBe(512);
  });

  it('grows the default batch on a large cluster to one sequence per 8 GPUs, and says so (Llama 3 405B: 2,048 sequences on 16,384 H100s)', () => {
    // Dubey et al. 2024, Table 4: 16,384 H100s trained 405B with DP 128 × 16 sequences = 2,048 sequences of 8,192 tokens.
    // The count in digits: "16k" is 16,000 (k a thousand in a count, as the CLI reads it).
    const searched = ask('how long to train llama 3.1 405b on 16384 h100s');
    expect(searched.scenario?.training.globalBatchSize).toBe(2048);
    expect(searched.assumptions.join(' ')).toMatch(/global batch 2,048 sequences \(16\.8M tokens: one sequence per 8 GPUs/);
    const fixed = parse('step time of llama 3.1 405b on 16384 h100 with tp 8 pp 16');
    expect(fixed.parameters.globalBatchSize).toBe(2048);
    // Where 4M tokens already gives a sequence per 8 GPUs, it stays (Nemotron-4 15B on 1024 GPUs: 1024 sequences of 4096).
    expect(ask('how long to train nemotron4-15b on 1024 a100s').scenario?.training.globalBatchSize).toBe(1024);
    // A model whose source states its batch keeps it: GPT-3 175B's 1,536 (Brown et al. 2020, Table 2.1), as SC'21 trained it on 1,024 GPUs.
    expect(ask('how long to train gpt3 175b on 1024 a100s').scenario?.training.globalBatchSize).toBe(1536);
  });
});

describe('answer: questions the planner does not answer are declined, not planned as training', () => {
  it.each([
    // Full fine-tuning's memory is answered as pretraining's (full-fine-tuning.test.ts); with an adapter it is not.
    ['how much memory for 7b qlora finetune on 1 a100', /fine-tuning runs \(LoRA, QLoRA, DPO, RLHF with PPO or GRPO, reward models, a run's time\) are not modelled/],
    ['lora llama 3 8b on 8 h100 how long', /fine-tuning runs \(LoRA, QLoRA, DPO, RLHF with PPO or GRPO, reward models, a run's time\) are not modelled/],
    ['how many nodes to fine-tune llama3-70b', /fine-tuning runs \(LoRA, QLoRA, DPO, RLHF with PPO or GRPO, reward models, a run's time\) are not modelled/],
    ["what's the best learning rate for 70b", /the learning rate are not planned here/],
    ['optimal batch size for 70b on 64 nodes', /the optimal batch size is not planned here/],
  ])('"%s" is declined with what the bot answers', (question, why) => {
    const a = ask(question);
    expect(a.ok).toBe(false);
    expect(a.scenario).toBeUndefined();
    expect(a.headline).toMatch(/^I could not answer that: /);
    expect(a.headline).toMatch(why);
    expect(a.notes[0]).toMatch(/^I answer LLM training planning questions/);
  });

  it('an inference latency is served, a collective\'s latency answered as a collective', () => {
    expect(ask('inference latency of llama 70b on 8 h100').intent).toBe('serving');
    expect(ask('all-reduce latency of 1 GB on 64 h100')).toMatchObject({ intent: 'collective', ok: true });
  });

  it('"optimal batch size" is declined, a stated batch size planned with', () => {
    expect(ask('optimal batch size for 70b on 64 nodes').headline).toMatch(/^I could not answer that: the optimal batch size/);
    expect(ask('best config for 70b on 64 nodes with batch size 1024', { candidateBudget: 2000 }).ok).toBe(true);
  });
});

describe('answer: unmodelled hardware', () => {
  it('"how long to train 70b on 512 mi300x" is declined naming the MI300X, not answered for H100', () => {
    const a = ask('how long to train 70b on 512 mi300x');
    expect(a.ok).toBe(false);
    expect(a.scenario).toBeUndefined();
    // The catalogue's presets, whichever it holds.
    expect(a.headline).toBe(`I could not answer that: MI300X is not modelled; the GPU presets are ${GPU_IDS.join(', ')}.`);
  });
});

describe('answer: counts and words', () => {
  it('"does llama 3 8b fit on a single h100" is searched on one GPU (where no layout fits), with the closest that runs', () => {
    const a = ask('does llama 3 8b fit on a single h100');
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(/^Llama 3 8B on H100 SXM5 80GB on 1 GPU: does not fit for training: no configuration of 1 GPU runs: out of memory/);
    const searched = a.data as SearchResponseJson;
    expect(searched).toMatchObject({ ok: false, reason: 'no-feasible-configuration' });
    // The closest is another cluster, and says so.
    expect(a.configuration).toMatch(/^closest that works, not what was asked: /);
    expect(a.scenario?.cluster.gpu).toBe('h100-sxm');
  });

  it.each([
    // One default layout (TP 8, no pipeline) needs 394 GiB per GPU here; the search finds the splits that fit.
    ['does llama3.1-405b fit on 16 H200 nodes', 'memory', /^Llama 3\.1 405B on H200 SXM 141GB × 16 nodes: fits for training, [\d.]+ GiB per GPU of 140 GiB with the fastest plan that fits: TP \d+ · PP \d+/],
    // TP 8 alone does not hold 175B on one node's worth of layout; any layout on 1024 GPUs is searched.
    ['what MFU does gpt3-175b get on 1024 A100s', 'estimate', /^GPT-3 175B on A100 SXM4 80GB × 1,024 GPUs: [\d.]+ s per step, [\d.]+% MFU with the fastest plan found: TP \d+ · PP \d+/],
  ])('"%s" (%s, no layout stated) is answered by the fastest plan on that cluster', (question, intent, headline) => {
    const a = ask(question);
    expect(a.intent).toBe(intent);
    expect(a.ok).toBe(true);
    expect(a.headline).toMatch(headline);
    const best = (a.data as Extract<SearchResponseJson, { ok: true }>).best;
    expect(best.estimate.memory.fits).toBe(true);
    expect(a.memoryPerGpuBytes).toBe(best.estimate.memory.totalBytes);
    // No layout default is claimed: the search chose it.
    expect(a.assumptions.some((x) => /no pipeline parallelism|tensor parallel 8/.test(x))).toBe(false);
  });

  it('a cluster no split divides runs nothing, and is not said not to fit (memory is not why)', () => {
    const a = ask('does gpt3-1.3b fit on 125 A100 nodes with global batch 1536');
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(/on 125 nodes: no configuration of 1,000 GPUs runs: no plan passes Megatron's divisibility rules/);
    expect(a.headline).not.toContain('does not fit');
  });

  it('a default batch raised to one micro-batch per data-parallel rank says so, not that it is one sequence per 8 GPUs', () => {
    const a = ask('estimate llama2-7b on 4096 H100 with tp 1 pp 1');
    expect(a.assumptions).toContain('global batch 4,096 sequences (16.8M tokens: one micro-batch on each of the 4,096 data-parallel ranks, the least this layout runs)');
    expect(a.assumptions.join(' ')).not.toContain('one sequence per 8 GPUs');
  });

  it('a layout stated with the cluster is estimated as stated, not searched', () => {
    const a = ask('does llama3.1-405b fit on 16 H200 nodes with tp 8 pp 1');
    expect(a.headline).toMatch(/does not fit: needs [\d.]+ GiB per GPU/);
    expect(a.scenario).toMatchObject({ cluster: { nodes: 16 }, parallelism: { tensor: 8, pipeline: 1 } });
    expect(a.data).toMatchObject({ ok: false, reason: 'out-of-memory' });
  });

  it('"how long to train 7b on a single a100 80gb" is planned on the one GPU, not 128 nodes: 7B\'s weights, gradients and Adam states alone (16 bytes a parameter) pass 80 GB', () => {
    const a = ask('how long to train 7b on a single a100 80gb');
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(/^Llama 2 7B on A100 SXM4 80GB on 1 GPU: no configuration of 1 GPU runs: out of memory/);
  });

  it('"allreduce 1GB on 16 nodes of 8xH100" runs on 128 H100s', () => {
    const a = ask('allreduce 1GB on 16 nodes of 8xH100');
    expect(a.ok).toBe(true);
    expect(a.data).toMatchObject({ nodes: 16, gpusPerNode: 8 });
    expect(a.headline).toMatch(/^all-reduce of 1\.00 GB on 128 × H100/);
  });

  it('one node "trains", several "train"', () => {
    const a = ask('how many nodes for llama3-8b on 20B tokens in 30 days');
    expect(a.headline).toMatch(/: 1 node \(8 GPUs\) trains 20\.0B tokens in /);
  });
});
