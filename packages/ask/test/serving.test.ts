import { KV_BLOCK_TOKENS, runInference, type InferencePointJson } from '@trainplan/protocol';
import { formatBytes, formatSeconds, ms } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import { figure, served, type Served } from './support/serving.ts';

/** Requests a replica finishes per second: generated tokens/s of its GPUs over the tokens of one request. */
const requestsPerReplica = (x: InferencePointJson, outputTokens: number): number => (x.tokensPerSecondPerGpu * x.gpus) / outputTokens;

describe('serving questions are read as serving, with their figures', () => {
  it('prompt and output lengths, both latency bounds and the GPUs named', () => {
    const q = parse('serve llama3-70b on 8 h100 with 4k prompt and 1k output tokens, ttft under 1 s and 40 ms per token');
    expect(q.intent).toBe('serving');
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject({ model: 'llama3-70b', gpus: 8, promptTokens: 4096, outputTokens: 1024, maxFirstTokenSeconds: 1, maxTokenSeconds: 0.04 });
  });

  it.each([
    ['how fast can llama3-8b answer a prompt of 1500 tokens, generating 300 tokens, on one h100', { promptTokens: 1500, outputTokens: 300, gpus: 1 }],
    ['llama3-8b with input length 8k and output length 2k on an h200', { promptTokens: 8192, outputTokens: 2048, gpus: 1 }],
    ['serve llama3-70b at 30 tokens/s per user', { maxTokenSeconds: 1 / 30 }],
    ['serve llama3-70b with tpot <= 25 ms and time to first token of 500 ms', { maxTokenSeconds: 0.025, maxFirstTokenSeconds: 0.5 }],
    ['how many h100 to serve 2k requests per second of llama 3 8b', { requestsPerSecond: 2000 }],
    ['how many gpus for 1000 qps of llama3-8b', { requestsPerSecond: 1000 }],
  ])('"%s"', (question, facts) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    expect(q.stated).toMatchObject(facts);
  });

  it.each([
    ['deploy llama 3 8b on a single A100 40GB', { gpus: 1 }],
    ['llama3-70b on 8 h100 with 64 concurrent users', { concurrency: 64 }],
    ['serve llama3-70b with concurrency 16', { concurrency: 16 }],
  ])('"%s"', (question, facts) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    expect(q.stated).toMatchObject(facts);
  });

  it.each([9, 13, 35, 50])('a bound of %d ms is the seconds units\' ms gives, as the widget and the CLI send it (never 1 ulp off)', (milliseconds) => {
    const q = parse(`serve llama3-70b with tpot ${milliseconds} ms and ttft ${milliseconds} ms`);
    expect(q.stated).toMatchObject({ maxTokenSeconds: ms(milliseconds), maxFirstTokenSeconds: ms(milliseconds) });
  });

  it('a stated batch size is the concurrency; a stated context window is the prompt plus the output', () => {
    expect(parse('serve llama3-70b with batch size 32 on 8 h100').parameters.concurrency).toBe(32);
    const q = parse('kv cache of llama3-70b with 32k context and 1k output tokens on 8 h100');
    expect(q.parameters).toMatchObject({ promptTokens: 32768 - 1024, outputTokens: 1024 });
  });

  it('"generate 512 tokens" is an output length, never a training budget', () => {
    const q = parse('llama3-8b on 8 h100: generate 512 tokens per request');
    expect(q.intent).toBe('serving');
    expect(q.stated.outputTokens).toBe(512);
    expect(q.stated.tokens).toBeUndefined();
  });

  it('training questions stay training questions', () => {
    expect(parse('how many nodes for 175B').intent).toBe('nodes');
    expect(parse('how long to train llama3-70b on 2T tokens on 64 h100 nodes')).toMatchObject({ intent: 'time', stated: { tokens: 2e12 } });
    expect(parse('all-reduce latency of 1 GB on 64 h100').intent).toBe('collective');
    expect(parse('how many nodes to fine-tune llama3-70b').problems[0]).toMatch(/^fine-tuning/);
  });

  it('no length or bound given: the defaults are said, with an interactive service\'s bounds; "offline" takes none', () => {
    const q = parse('serve llama3-70b on 8 h100');
    expect(q.parameters).toMatchObject({ promptTokens: 2048, outputTokens: 512, maxFirstTokenSeconds: 2, maxTokenSeconds: 0.2 });
    expect(q.defaults.map((d) => d.text).join(' ')).toMatch(/MLPerf Inference/);
    const offline = parse('offline batch inference of llama3-70b on 8 h100');
    expect(offline.parameters.maxTokenSeconds).toBeUndefined();
    expect(offline.parameters.maxFirstTokenSeconds).toBeUndefined();
    // One bound asked keeps the interactive service's other (assumed-bound.test.ts).
    expect(parse('serve llama3-70b at 50 ms per token').parameters).toMatchObject({ maxTokenSeconds: 0.05, maxFirstTokenSeconds: 2 });
    expect(parse('serve llama3-70b with ttft under 1 s').parameters).toMatchObject({ maxTokenSeconds: 0.2, maxFirstTokenSeconds: 1 });
  });
});

describe('serving answers', () => {
  it('the best replica meets the bounds, divides the GPUs named, and its figures are the plan\'s', () => {
    const { a, data } = served('serve llama3-70b on 8 h100 with ttft under 1 s and 60 ms per token');
    expect(a).toMatchObject({ intent: 'serving', ok: true });
    const best = data.best!;
    expect(best.prefillSeconds).toBeLessThanOrEqual(1);
    expect(best.decodeStepSeconds).toBeLessThanOrEqual(0.06);
    expect(8 % best.gpus).toBe(0);
    // Every shape tried fits in the 8 GPUs as whole replicas.
    for (const s of data.byShape) expect(8 % (s.tensor * s.pipeline)).toBe(0);
    expect(a.headline).toContain(`TP ${best.tensor} · PP ${best.pipeline}`);
    expect(a.assumptions.join(' ')).toMatch(/continuous batching/);
    expect(best.batching).toBe('continuous');
    expect(figure(a, 'Time per output token')).toContain(`${(1 / best.decodeStepSeconds).toPrecision(3)} tokens/s per user`);
    expect(a.memoryPerGpuBytes).toBeLessThanOrEqual(a.memoryCapacityBytes!);
  });

  it('a concurrency stated per replica is the batch of every replica tried, and its total said (serving-users.test.ts: one in all)', () => {
    const { a, data } = served('llama3-8b on 8 h100 with 64 concurrent users per replica');
    expect(data.frontier.every((x) => x.batch === 64)).toBe(true);
    // An 8B model's 16 GB of weights fit one GPU: the best replica is not all eight.
    const replicas = 8 / data.best!.gpus;
    expect(replicas).toBeGreaterThan(1);
    expect(a.assumptions).toContain(`64 concurrent requests taken per replica: ${64 * replicas} on the 8 GPUs`);
  });

  it('one GPU is one replica: no "1 replica on the 1 GPUs"', () => {
    const { a } = served('deploy llama 3 8b on a single A100 40GB');
    expect(figure(a, 'Replica')).toBe('TP 1 · PP 1: 1 GPU');
  });

  it('six GPUs: only replicas of 1, 2, 3 or 6 GPUs', () => {
    const { data } = served('serve llama3-8b on 6 h100 offline');
    expect(data.byShape.length).toBeGreaterThan(0);
    for (const s of data.byShape) expect([1, 2, 3, 6]).toContain(s.tensor * s.pipeline);
  });

  it('405B on 24 H100 is served as one replica of all 24, a pipeline depth no power of two gives (8 GPUs hold 405B in no shape)', () => {
    const { data } = served('serve llama3.1-405b on 24 h100');
    const best = data.best!;
    expect(best.gpus).toBe(24);
    expect(best.tensor * best.pipeline).toBe(24);
    expect(best.pipeline % 3).toBe(0);
  });

  it('a batch of a thousand and more reads grouped, as the rates do: "1,557 concurrent requests", "batch 1,557"', () => {
    const { a, data } = served('how many h100 to serve llama 3 70b at 100 requests per second');
    const batch = data.best!.batch;
    expect(batch).toBeGreaterThanOrEqual(1000);
    const grouped = batch.toLocaleString('en-US');
    expect(a.headline).toContain(`at ${grouped} concurrent requests`);
    expect(figure(a, 'Concurrent requests')).toMatch(new RegExp(`^${grouped} per replica \\(${data.best!.maxBatch.toLocaleString('en-US')} fit in memory\\)$`));
  });

  it('a question whether it fits is answered "fits" first; one about a load is not', () => {
    expect(ask('can I fit llama3-70b on one node of H100 for inference?').headline).toMatch(/^Llama 3 70B on 8 × H100 SXM5 80GB: fits; TP \d+ · PP \d+/);
    expect(ask('are 8 h100 enough to serve llama3-8b at 10 qps').headline).not.toMatch(/fits/);
  });

  it('a count asked with no load says one replica\'s rate and asks for the load', () => {
    const { a } = served('how many GPUs to serve llama 70b at 50 ms/token');
    expect(a.notes.join(' ')).toMatch(/give a load \("at 100 requests\/s"\) for the GPUs it needs/);
  });

  it('a model too large for the GPUs named: does not fit, and the smallest replica that holds it', () => {
    const a = ask('can I serve llama3.1-405b on one H100?');
    expect(a).toMatchObject({ intent: 'serving', ok: false });
    expect(a.headline).toMatch(/^Llama 3\.1 405B on 1 × H100 SXM5 80GB: does not fit for serving \(TP 1 · PP 1: needs [\d.]+ GiB per GPU/);
    const replica = figure(a, 'Replica (closest)');
    const gpus = Number(/: (\d+) GPUs/.exec(replica)?.[1]);
    // 405B parameters in 16 bits are 810 GB: no fewer than eleven 80 GB GPUs hold the weights alone.
    expect(gpus).toBeGreaterThanOrEqual(11);
    expect(a.notes[0]).toMatch(new RegExp(`^Closest that works: ${gpus} GPUs`));
  });

  it('bounds no plan meets: the closest, said as missing them', () => {
    const a = ask('serve gpt3-175b on 8 A100 with 4k prompt and 1k output tokens, TTFT under 100 ms');
    expect(a.ok).toBe(false);
    // The bound per token is the interactive service's, assumed beside the first-token bound asked.
    expect(a.headline).toMatch(/no plan meets ≤ 200 ms per token, ≤ 100 ms to the first token: the closest plan/);
    expect(a.configuration).toMatch(/^closest to the bounds, missing them: /);
    expect(a.figures.every((f) => f.label.endsWith('(closest)'))).toBe(true);
  });

  it('the help lists a serving example, and it is answered', () => {
    const help = ask('help');
    const example = help.examples.find((e) => /serve/.test(e));
    expect(example).toBeDefined();
    expect(ask(example!)).toMatchObject({ intent: 'serving', ok: true });
  });
});

describe('serving at a request rate: the protocol\'s load, worded', () => {
  type Load = NonNullable<InferencePointJson['load']>;
  const loadOf = (x: InferencePointJson | undefined): Load => {
    if (x?.load === undefined) throw new Error('no load');
    return x.load;
  };

  it.each([
    ['how many h100s to serve 70b at 200 requests per minute', 200 / 60],
    ['serve llama3-8b at 12k requests/min', 200],
    ['serve llama3-8b at 600 rpm', 10],
    ['serve llama3-8b for 36k queries an hour', 10],
    ['serve llama3-8b at 8.64 million requests per day', 100],
    ['serve llama3 70b at 1.5k rps', 1500],
  ])('"%s": a rate per minute, hour or day is read per second', (question, requestsPerSecond) => {
    expect(parse(question).stated.requestsPerSecond).toBeCloseTo(requestsPerSecond, 9);
  });

  it('the rate is sent as requestsPerSecond and the answer\'s figures are the best plan\'s load', () => {
    const { a, data } = served('how many h100 to serve 1000 qps of llama 3 8b');
    const best = data.best!;
    const load = loadOf(best);
    expect(load.requestsPerSecond).toBe(1000);
    // Hand-worked: the replicas' GPUs are replicas × TP × PP, and together they finish more than the rate
    // (tokens/s on their GPUs over the 512 tokens of a request), loaded to the rate over that.
    expect(load.gpus).toBe(load.replicas * best.tensor * best.pipeline);
    const served1 = requestsPerReplica(best, 512);
    expect(load.replicas * served1).toBeGreaterThan(1000);
    expect(load.utilization).toBeCloseTo(1000 / (load.replicas * served1), 9);
    expect(load.firstTokenSeconds).toBeCloseTo(best.prefillSeconds + load.queueSeconds, 12);
    // The default 2 s bound holds the first token with its wait.
    expect(load.firstTokenSeconds).toBeLessThanOrEqual(2);
    const shape = `TP ${best.tensor} · PP ${best.pipeline}`;
    expect(a.headline).toBe(`Llama 3 8B on H100 SXM5 80GB: ${load.gpus} GPUs serve 1,000 requests/s as ${load.replicas} replicas of ${shape} at ${best.batch} concurrent requests each, `
      + `${Math.round(load.utilization * 100)}% loaded: ${formatSeconds(best.decodeStepSeconds)} per token, first token in ${formatSeconds(load.firstTokenSeconds)} with the wait for a slot `
      + '(≤ 200 ms per token, ≤ 2.00 s to the first token)');
    expect(figure(a, 'GPUs for 1,000 requests/s')).toBe(`${load.gpus} GPUs: ${load.replicas} replicas of ${shape}, ${Math.round(load.utilization * 100)}% loaded, `
      + `${formatSeconds(load.queueSeconds)} on average waiting for a slot`);
    expect(figure(a, 'Time to first token')).toBe(`${formatSeconds(load.firstTokenSeconds)} at 1,000 requests/s: ${formatSeconds(best.prefillSeconds)} once a slot is free, `
      + `plus ${formatSeconds(load.queueSeconds)} waiting for one on average`);
    expect(a.assumptions).toContain('first token within 2 s, the wait for a slot included, and each next within 200 ms '
      + '(an interactive service, as MLPerf Inference\'s Llama 2 70B server scenario bounds it; say "offline" for throughput alone)');
  });

  it('the best plan needs the fewest GPUs of every point meeting the bounds with its wait, not the most tokens/s per GPU', () => {
    const { data } = served('how many h100 to serve llama 3 70b at 100 requests per second');
    const meets = [...data.frontier, ...data.byShape.flatMap((s) => (s.ok ? [s.largestBatch] : []))]
      .filter((x) => x.load !== undefined && x.decodeStepSeconds <= 0.2 && x.load.firstTokenSeconds <= 2);
    expect(meets.length).toBeGreaterThan(1);
    expect(loadOf(data.best).gpus).toBe(Math.min(...meets.map((x) => loadOf(x).gpus)));
  });

  it('GPUs named that hold the rate: how many of them it takes, and a wait under a microsecond said so', () => {
    const { a, data } = served('are 8 h100 enough to serve llama3-8b at 10 qps');
    const best = data.best!;
    const load = loadOf(best);
    expect(load.gpus).toBeLessThanOrEqual(8);
    expect(load.queueSeconds).toBeLessThan(1e-6);
    expect(a.headline).toMatch(new RegExp(`^Llama 3 8B on 8 × H100 SXM5 80GB: ${load.gpus} of the 8 GPUs serve 10 requests/s as 1 replica of TP ${best.tensor} · PP ${best.pipeline} at ${best.batch} concurrent requests, `));
    expect(figure(a, 'GPUs for 10 requests/s')).toMatch(/under 1 µs on average waiting for a slot \(the 8 GPUs named are enough\)$/);
    // The replica figure names no "4 replicas on the 8 GPUs": the load says how many serve.
    expect(figure(a, 'Replica')).toBe(`TP ${best.tensor} · PP ${best.pipeline}: ${best.gpus} GPUs`);
  });

  it('too few GPUs named for the rate: not served, and the closest plan with the GPUs it needs (the protocol\'s why)', () => {
    const a = ask('serve llama3-8b on 8 h100 at 1000 qps');
    const data = a.data as Served;
    expect(a.ok).toBe(false);
    const closest = data.closest!;
    const load = loadOf(closest.point);
    expect(load.gpus).toBeGreaterThan(8);
    expect(load.gpus).toBe(load.replicas * closest.point.gpus);
    expect(closest.why).toMatch(new RegExp(`1,000 requests/s need ${load.replicas} replicas of it \\(${load.gpus} GPUs\\), 8 given$`));
    expect(a.headline).toBe(`Llama 3 8B on 8 × H100 SXM5 80GB: no plan serves 1,000 requests/s on the 8 GPUs within ≤ 200 ms per token, ≤ 2.00 s to the first token: ${closest.why}`);
    // Then the precision and lengths planned, as every serving configuration says them: BF16, and the default 2,048 + 512 tokens.
    expect(a.configuration).toBe(`closest, on more GPUs than named: TP ${closest.point.tensor} · PP ${closest.point.pipeline} · batch ${closest.point.batch}, ${load.replicas} replicas on ${load.gpus} GPUs · BF16 · 2,048 prompt tokens + 512 output tokens`);
    expect(figure(a, 'GPUs for 1,000 requests/s (closest)')).toMatch(/\(more than the 8 GPUs named\)$/);
  });

  it('a stated concurrency at a rate: its total is over the replicas the load takes', () => {
    const { a, data } = served('how many h100 to serve llama 3 70b at 100 requests per second with 64 concurrent users');
    const load = loadOf(data.best);
    expect(data.best!.batch).toBe(64);
    // Read per replica as a rate is given, with what the rate makes of concurrency beside it (serving-users.test.ts checks its figures).
    expect(a.assumptions).toContainEqual(expect.stringMatching(new RegExp(
      `^64 concurrent requests taken per replica, a rate being given: ${(64 * load.replicas).toLocaleString('en-US')} on the ${load.replicas} replicas; at 100 requests/s of `)));
  });

  it('a model too large for the GPUs named, at a rate: the smallest replica that holds it and the replicas the rate takes of it', () => {
    const a = ask('can I serve llama3.1-405b on one H100 at 10 qps?');
    expect(a.ok).toBe(false);
    const note = a.notes.find((n) => n.startsWith('Closest that works'))!;
    const [, replicas, gpus] = /; 10 requests\/s take (\d+) replicas of it \((\d+) GPUs\)\.$/.exec(note) ?? [];
    const replicaGpus = Number(/^Closest that works: (\d+) GPUs/.exec(note)?.[1]);
    expect(Number(gpus)).toBe(Number(replicas) * replicaGpus);
    expect(figure(a, 'GPUs for 10 requests/s (closest)')).toMatch(new RegExp(`^${gpus} GPUs: ${replicas} replicas of `));
  });

  it('without a rate no load is asked for or worded', () => {
    const { a, data } = served('serve llama3-70b on 8 h100');
    expect(data.best!.load).toBeUndefined();
    expect(a.figures.some((f) => f.label.startsWith('GPUs for'))).toBe(false);
    expect(a.headline).toMatch(/: TP \d+ · PP \d+ serves [\d,.]+ tokens\/s per GPU at [\d,]+ concurrent requests, [\d.]+ ms per token, first token in [\d.]+ ms \(/);
    expect(figure(a, 'Time to first token')).toBe(formatSeconds(data.best!.prefillSeconds));
  });

  it('no latency bound at a rate: the fewest GPUs, said so', () => {
    const { a } = served('offline llama3-8b at 1000 qps');
    expect(a.headline).toMatch(/ \(no latency bound: the fewest GPUs\)$/);
  });
});

describe('serving with a shared prompt prefix (a system prompt, cached once)', () => {
  it.each([
    ['serve llama3-8b with a 1k-token system prompt', 1024],
    ['serve llama3-8b with a 500 token shared prefix', 500],
    ['serve llama3-8b with 2k tokens of system prompt', 2048],
    ['serve llama3-8b with a system prompt of 1k tokens', 1024],
    ['serve llama3-8b with a system prompt of 1.5k', 1536],
    ['serve llama3-8b where every request has 1024 shared prompt tokens', 1024],
    ['serve llama3-8b with a 1,024-token common prefix', 1024],
    ['serve llama3-8b, shared prefix: 300 tokens', 300],
    ['serve llama3-8b with a 256-token prompt prefix', 256],
  ])('"%s" shares %d tokens', (question, tokens) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    expect(q.stated.sharedPrefixTokens).toBe(tokens);
  });

  it('a system prompt alone makes a serving question, and its prompt length is not the prompt\'s', () => {
    const q = parse('llama3-8b on 8 h100 with a 1k system prompt');
    expect(q.intent).toBe('serving');
    expect(q.stated).toMatchObject({ sharedPrefixTokens: 1024 });
    expect(q.stated.promptTokens).toBeUndefined();
  });

  it('"system prompt at 100 qps" is a rate with no prefix or prompt length (the rate is read first)', () => {
    const q = parse('serve llama 3 8b with a system prompt at 100 qps');
    expect(q.stated.requestsPerSecond).toBe(100);
    expect(q.stated.sharedPrefixTokens).toBeUndefined();
    expect(q.stated.promptTokens).toBeUndefined();
  });

  it.each([
    // A prompt longer than the prefix holds it: 4,096 in all, the first 1,024 shared.
    ['serve llama3-8b with 4k prompts and a 1k system prompt', 4096, 1024],
    // No longer than the prefix: each request's own part after it, 2,048 + 500 and 2,048 + 2,048.
    ['serve llama3-8b with 2k tokens of system prompt and a 500 token prompt', 2548, 2048],
    ['serve llama3-8b with a 2k prompt and a 2k system prompt', 4096, 2048],
    // No length given: the default 2,048 holds a shorter prefix, and follows one as long or longer (4,096 + 2,048).
    ['serve llama3-8b with a 1k-token system prompt', 2048, 1024],
    ['serve llama3-8b with a system prompt of 4k tokens', 6144, 4096],
  ])('"%s": a %d-token prompt opening with %d shared', (question, promptTokens, sharedPrefixTokens) => {
    expect(parse(question).parameters).toMatchObject({ promptTokens, sharedPrefixTokens });
  });

  it.each([
    ['serve llama 2 70b, 1000 token system prompt, 200 token user prompt, 300 output, 10 rps on A100', 1000, 1200],
    ['serve gpt3 on 16 a100 with a 2k-token system prompt and 100 token user messages', 2048, 2148],
    ['serve llama3-8b with a 1k system prompt and a user prompt of 1.5k tokens', 1024, 2560],
  ])('"%s": a user\'s prompt (or message) is each request\'s own part, after the %d-token system prompt (%d in all), never a training budget', (question, sharedPrefixTokens, promptTokens) => {
    const q = parse(question);
    expect(q.stated.tokens).toBeUndefined();
    expect(q.parameters).toMatchObject({ promptTokens, sharedPrefixTokens });
  });

  it('a user prompt with no system prompt is the prompt', () => {
    expect(parse('serve llama3-8b with 300-token user prompts').stated).toMatchObject({ promptTokens: 300 });
  });

  it('a prompt no longer than its prefix is said to be read as the part after it', () => {
    const q = parse('serve llama3-8b with 2k tokens of system prompt and a 500 token prompt');
    expect(q.stated.promptTokens).toBe(500);
    expect(q.defaults.map((d) => d.text)).toContain('a 2,548-token prompt: the 2,048-token shared prefix, then 500 tokens of each request\'s own '
      + '(the 500-token prompt asked is no longer than the prefix it opens with, so read as the part after it)');
  });

  it('the prefix is sent as sharedPrefixTokens with the whole prompt, and said in the configuration and assumptions', () => {
    const a = ask('serve llama3-8b on 8 h100 with 2k tokens of system prompt and a 500 token prompt');
    // The very request the bot documents: 2,548 prompt tokens, the first 2,048 shared.
    expect(a.data).toEqual(runInference({
      model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, precision: 'bf16', promptTokens: 2548, outputTokens: 512, sharedPrefixTokens: 2048,
      maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2, gpus: 8, batching: 'continuous',
    }));
    const data = a.data as Served;
    expect(data.best!.sharedPrefixTokens).toBe(2048);
    expect(a.configuration).toMatch(/ · 2,548 prompt tokens \(the first 2,048 shared and cached\) \+ 512 output tokens$/);
    expect(a.assumptions).toContain('a 2,048-token prefix shared and cached: every 2,548-token prompt opens with the same 2,048 tokens (a system prompt), '
      + 'held once in the KV cache in whole 16-token blocks and not prefilled again (prefix caching, as vLLM\'s automatic prefix caching and SGLang\'s RadixAttention serve); '
      + 'each request prefills and holds only the 500 tokens after it, attending over all of them');
  });

  it('a shared prefix lets more requests fit and prefills less: every shape holds more than the same prompts unshared, and a lone request\'s first token comes sooner', () => {
    const shared = served('llama3-70b on 8 h100 with 4k prompts and a 2k system prompt, offline').data;
    const unshared = served('llama3-70b on 8 h100 with 4k prompts, offline').data;
    const largest = (d: Served) => new Map(d.byShape.flatMap((s) => (s.ok ? [[`${s.tensor}·${s.pipeline}`, s.largestBatch] as const] : [])));
    const without = largest(unshared);
    const withPrefix = largest(shared);
    expect(without.size).toBeGreaterThan(0);
    expect([...withPrefix.keys()]).toEqual([...without.keys()]);
    for (const [shape, x] of withPrefix) {
      // Each sequence holds 2,048 fewer prompt tokens (held once for all instead): more of them fit.
      expect(x.maxBatch).toBeGreaterThan(without.get(shape)!.maxBatch);
    }
    // The fastest point (one request at a time) prefills 2,048 of its 4,096 tokens, not all of them.
    expect(shared.frontier[0]!.prefillSeconds).toBeLessThan(unshared.frontier[0]!.prefillSeconds);
  });

  it('the KV cache per request is each request\'s own part; the shared prefix\'s is said apart, held once, never spread over the requests', () => {
    // Four requests of 4,608 tokens, the first 4,096 shared: each holds what a lone 512-token prompt holds.
    const shared = served('serve llama3-70b on 8 h100 with tp 8, a 4k system prompt and 4.5k prompts, 4 concurrent requests, offline');
    const own = served('serve llama3-70b on 8 h100 with tp 8, 512-token prompts, 4 concurrent requests, offline').data.best!;
    const x = shared.data.best!;
    expect([x.batch, own.batch, x.tensor, own.tensor]).toEqual([4, 4, 8, 8]);
    const perRequest = own.kvCacheBytesPerGpu / 4;
    expect(figure(shared.a, 'Memory per GPU')).toContain(`KV cache ${formatBytes(x.kvCacheBytesPerGpu)} (${formatBytes(perRequest)} on average per request on each GPU, paged, `
      + `plus ${formatBytes(x.kvCacheBytesPerGpu - 4 * perRequest)} for the 4,096-token shared prefix, held once)`);
  });

  it('a prefix cached in part is said as the tokens cached: 992 of a 1,000-token prefix (whole 16-token blocks), 208 held by each 1,200-token request', () => {
    const { a, data } = served('serve llama3-70b on 8 h100 with a 1000 token system prompt and 1200 token prompts');
    const x = data.best!;
    expect([x.sharedPrefixTokens, x.cachedPrefixTokens]).toEqual([1000, 992]);
    expect(a.assumptions.find((t) => t.includes('prefix shared and cached'))).toMatch(
      /; 992 of them are cached, in whole 16-token blocks \(the part of a last block is each request's own\); each request prefills and holds only the 208 tokens after them, attending over all of them$/);
    // The split is the protocol's own, not worked out from a second plan.
    expect(figure(a, 'Memory per GPU')).toContain(`KV cache ${formatBytes(x.kvCacheBytesPerGpu)} (${formatBytes((x.kvCacheBytesPerGpu - x.sharedKvCacheBytesPerGpu!) / x.batch)} on average per request on each GPU, paged, `
      + `plus ${formatBytes(x.sharedKvCacheBytesPerGpu!)} for the 1,000-token shared prefix's 992 cached tokens, held once)`);
  });

  it('the block said is the protocol\'s KV_BLOCK_TOKENS, the block it caches a prefix in (992 of 1,000 tokens: whole blocks of it)', () => {
    const { a, data } = served('serve llama3-70b on 8 h100 with a 1000 token system prompt and 1200 token prompts');
    expect(data.best!.cachedPrefixTokens).toBe(1000 - (1000 % KV_BLOCK_TOKENS));
    expect(a.assumptions.join(' ')).toContain(`in whole ${KV_BLOCK_TOKENS}-token blocks`);
  });

  it('a prefix shorter than a KV block is said to be cached not at all', () => {
    const { a } = served('serve llama3-70b on 8 h100 with a 10 token system prompt and 1200 token prompts');
    expect(a.assumptions.join(' ')).not.toMatch(/prefix shared and cached/);
    expect(a.assumptions).toContain('a 10-token prefix shared: every 1,200-token prompt opens with the same 10 tokens (a system prompt), '
      + 'but it is shorter than one 16-token KV block and only whole blocks are cached, so each request prefills and holds all of its prompt');
  });

  it('no prefix stated: no sharedPrefixTokens sent and nothing said of one', () => {
    const { a, data } = served('serve llama3-8b on 8 h100');
    expect(data.best!.sharedPrefixTokens).toBeUndefined();
    expect(a.configuration).toMatch(/ · 2,048 prompt tokens \+ 512 output tokens$/);
    expect(a.assumptions.join(' ')).not.toMatch(/prefix/);
  });
});

describe('static batching, when the question asks for it', () => {
  it('"with static batching" plans static batching and says so, where continuous batching was planned regardless', () => {
    const a = ask('serve llama3-70b on H100 with static batching');
    expect(a.ok).toBe(true);
    expect(a.assumptions).toContain('static batching, as asked (a batch of requests starts and finishes together)');
    expect(a.assumptions.join(' ')).not.toMatch(/^continuous batching/m);
    expect((a.data as { best?: { load?: unknown } }).best).toBeDefined();
    // The same question without it stays continuous, and the two plans differ.
    const continuous = ask('serve llama3-70b on H100');
    expect(continuous.assumptions.some((t) => t.startsWith('continuous batching'))).toBe(true);
    expect(continuous.headline).not.toBe(a.headline);
  });

  it('static batching at a request rate is refused in the chat\'s words (only continuous batching plans a rate)', () => {
    const a = ask('serve llama3-70b on 8 H100 at 10 requests/s with static batching');
    expect(a.ok).toBe(false);
    expect(a.headline).toContain('static batching cannot plan a request rate');
    expect(a.headline).not.toMatch(/requestsPerSecond|batching "continuous"/);
  });
});
