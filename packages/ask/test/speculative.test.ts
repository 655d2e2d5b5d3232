import { runInference } from '@trainplan/protocol';
import { formatBytes, formatNumber, formatSeconds } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { parse } from '../src/parse.ts';
import { figure, served, type Served } from './support/serving.ts';


/** The request a question with no lengths or bounds sends for Llama 3 70B on one H100 node (defaults.ts). */
const LLAMA3_70B_NODE = {
  model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, precision: 'bf16', promptTokens: 2048, outputTokens: 512,
  maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2, gpus: 8, batching: 'continuous',
} as const;
/** …with the time per token bounded as asked, the first token still within an interactive service's 2 s (defaults.ts), on `gpus` when given. */
const tokenBound = (maxDecodeSecondsPerToken: number, more: Record<string, unknown> = {}): Record<string, unknown> =>
  ({ ...LLAMA3_70B_NODE, maxDecodeSecondsPerToken, ...more });
const DEFAULT_SPECULATIVE = { draftModel: 'llama3.2-1b', draftTokens: 4, acceptanceRate: 0.7 };

describe('speculative decoding is read from a serving question', () => {
  it.each([
    ['serve llama 3 70b on 8 h100 with speculative decoding', {}],
    ['serve llama3-70b on 8 h100 with speculative decoding with llama 3.2 1b as the draft', { draftModel: 'llama3.2-1b' }],
    ['serve llama 3 70b with a 1B draft model on 8 h100', { draftModel: 'llama3.2-1b' }],
    ['serve llama3-70b on 8 h100, draft model llama3.2-1b, 4 draft tokens, acceptance rate 0.8', { draftModel: 'llama3.2-1b', draftTokens: 4, acceptanceRate: 0.8 }],
    ['serve llama3-70b on 8 h100 with speculative decoding, 80% acceptance', { acceptanceRate: 0.8 }],
    ['serve llama 3 70b with spec decode, gamma = 5, alpha 0.6', { draftTokens: 5, acceptanceRate: 0.6 }],
    ['serve llama3-70b with num_speculative_tokens=3 and 75% of draft tokens accepted', { draftTokens: 3, acceptanceRate: 0.75 }],
    ['serve llama 3.1 405b on 16 h100 with llama 3 8b as the draft', { model: 'llama3.1-405b', draftModel: 'llama3-8b' }],
    ['llama3-70b on 8 h100 with 6 draft tokens', { draftTokens: 6 }],
  ])('"%s"', (question, facts) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.intent).toBe('serving');
    expect(q.parameters).toMatchObject({ model: 'llama3-70b', speculative: true, ...DEFAULT_SPECULATIVE, ...facts });
  });

  it.each([
    ['speculative decoding with llama 3.2 1b as the draft for llama 3 70b on 8 h100', 'llama3.2-1b'],
    ['serve 70b with a 1b draft on 8 h100', 'llama3.2-1b'],
    // No "draft" said: of two models in a speculative question, the smaller drafts, whichever comes first.
    ['speculative decoding with llama 3.2 1b for llama 3 70b', 'llama3.2-1b'],
    ['serve llama 3.1 405b with speculative decoding using llama 3 8b', 'llama3-8b'],
  ])('the draft named is never the model to serve: "%s"', (question, draft) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated.model).not.toBe(draft);
    expect(q.stated.draftModel).toBe(draft);
    expect(q.stated.customModel).toBeUndefined();
  });

  it('a draft named by its size alone is the preset of that size sharing the model\'s vocabulary, said so', () => {
    expect(parse('serve llama 3 70b with a 1B draft model').defaults[0]?.text)
      .toBe('the 1B draft taken as Llama 3.2 1B (llama3.2-1b), the preset of that size sharing Llama 3 70B\'s vocabulary');
    expect(parse('serve llama 2 70b with a 7b draft on 8 h100').stated.draftModel).toBe('llama2-7b');
    // Llama 3.2 3B, a preset of its own (meta-llama/Llama-3.2-3B): a 3B draft is it.
    expect(parse('serve llama 3 70b with a 3b draft model').stated.draftModel).toBe('llama3.2-3b');
  });

  it.each([
    ['serve llama 3 70b with speculative decoding and 20 draft tokens', 'γ, the tokens a draft proposes a step, is a whole number from 1 to 16, got 20'],
    ['serve llama 3 70b with speculative decoding, acceptance rate 120%', 'an acceptance rate of 120% is out of range: it is the share of draft tokens the model accepts, above 0% and at most 100%'],
    ['serve llama 3 70b with speculative decoding, acceptance rate 80', 'an acceptance rate of 80 is out of range: give a fraction above 0 and at most 1 (0.8) or a percentage (80%)'],
    ['serve llama 2 70b with llama 3.2 1b as the draft', 'Llama 3.2 1B cannot draft for Llama 2 70B: a draft proposes tokens the model verifies, so the two share a vocabulary (128,256 and 32,000 tokens); '
      + 'name one, e.g. "with llama2-7b as the draft" (presets that can draft for Llama 2 70B: llama2-7b, llama2-13b)'],
    // Llama 3.2 1B and 3B share Llama 3's 128,256-token vocabulary and are smaller than 8B: both can draft for it.
    ['serve llama3-8b with llama 3 70b as the draft', 'Llama 3 70B cannot draft for Llama 3 8B: a draft must be smaller than the model it drafts for; '
      + 'name one, e.g. "with llama3.2-1b as the draft" (presets that can draft for Llama 3 8B: llama3.2-1b, llama3.2-3b)'],
    ['serve llama 3 70b with a 5b draft model', 'no preset of 5B can draft for Llama 3 70B; '
      + 'name one, e.g. "with llama3.2-1b as the draft" (presets that can draft for Llama 3 70B: llama3.2-1b, llama3.2-3b, llama3-8b, llama3.1-8b)'],
  ])('"%s" is refused, saying why', (question, problem) => {
    expect(parse(question).problems).toEqual([problem]);
  });
});

describe('what a speculative question leaves out is assumed and said', () => {
  it('a Llama 3 model drafts with Llama 3.2 1B, 4 tokens a step, 0.7 accepted: each said, α as workload-dependent', () => {
    const q = parse('serve llama 3 70b on 8 h100 with speculative decoding');
    expect(q.defaults.filter((d) => ['draftModel', 'draftTokens', 'acceptanceRate'].includes(d.field)).map((d) => [d.field, d.value])).toEqual([
      ['draftModel', 'llama3.2-1b'], ['draftTokens', 4], ['acceptanceRate', 0.7],
    ]);
    const said = q.defaults.map((d) => d.text).join('\n');
    expect(said).toMatch(/Llama 3\.2 1B \(llama3\.2-1b\) as the draft model \(none named\).*128,256-token vocabulary/);
    expect(said).toMatch(/4 draft tokens a step \(γ; none given; vLLM's draft-model example speculates 5/);
    expect(said).toMatch(/accepted with probability 0\.7 \(α; none given\): it depends on the workload.*Leviathan et al\. 2023/);
  });

  it('a model no default draft shares a vocabulary with is served without speculation, said in the headline and why', () => {
    const q = parse('serve llama 2 70b with speculative decoding on 8 h100');
    expect(q.parameters).toMatchObject({ speculative: false });
    expect(q.parameters.draftModel).toBeUndefined();
    const { a, data } = served('serve llama 2 70b with speculative decoding on 8 h100');
    expect(a.headline).toMatch(/^Llama 2 70B without speculative decoding \(no draft named\) on 8 × /);
    expect(a.assumptions.join('\n')).toMatch(/no speculative decoding: a draft must share Llama 2 70B's vocabulary \(32,000 tokens\).*name one, e\.g\. "with llama2-7b as the draft"/);
    expect(data).toEqual(runInference({ ...LLAMA3_70B_NODE, model: 'llama2-70b' }));
  });
});

describe('a speculative serving answer', () => {
  const question = 'can I serve llama 3 70b on one H100 node with speculative decoding';

  it('sends the hand-written request: the question\'s, with the default draft, γ and α', () => {
    expect(served(question).data).toEqual(runInference({ ...LLAMA3_70B_NODE, speculative: DEFAULT_SPECULATIVE }));
  });

  it('says the tokens a step: (1 − 0.7⁵)/(1 − 0.7) = 0.83193 / 0.3 = 2.77', () => {
    const { a, data } = served(question);
    expect(data.best!.speculation!.tokensPerStep).toBeCloseTo((1 - 0.16807) / 0.3, 12);
    expect(figure(a, 'Speculative decoding')).toMatch(/^Llama 3\.2 1B \(TP \d\) drafts 4 tokens a step, each kept with probability 0\.7: \(1 − 0\.7⁵\)\/\(1 − 0\.7\) = 2\.77 tokens a step; a step /);
    expect(a.configuration).toMatch(/ · speculative: Llama 3\.2 1B draft, γ 4, α 0\.7$/);
    expect(a.headline).toMatch(/^Llama 3 70B with a Llama 3\.2 1B draft on 8 × /);
  });

  it('a step is the time per token × its 2.77 tokens, of which the draft\'s 4 steps are said', () => {
    const { a, data } = served(question);
    const x = data.best!;
    const spec = x.speculation!;
    expect(figure(a, 'Speculative decoding')).toContain(`a step ${formatSeconds(x.decodeStepSeconds * spec.tokensPerStep)}, of which the draft's 4 steps ${formatSeconds(4 * spec.draftStepSeconds)}`);
  });

  it('says the draft\'s memory: Llama 3.2 1B\'s 1,235,814,400 parameters × 2 bytes over TP 8 is 295 MiB, and 1/11 of the KV cache', () => {
    // Llama 3.2 1B (config.json): per layer Q and O 2 × 2048², K and V 2 × 2048 × 512 (8 KV heads of 64), gated FFN 3 × 2048 × 8192,
    // two norms 2 × 2048: 60,821,504; × 16 layers + the tied 128,256 × 2048 embedding + the final norm's 2048 = 1,235,814,400.
    const { a, data } = served('serve llama3-70b on 8 h100 with speculative decoding at 10 ms per token');
    const x = data.best!;
    expect(x.tensor).toBe(8);
    expect(x.speculation!.draftTensor).toBe(8);
    // Split over TP 8 but for its 16 × 2 + 1 norms of 2048, which each rank holds whole: 67,584 parameters.
    expect(x.speculation!.draftWeightsBytesPerGpu).toBe(((1_235_814_400 - 67_584) / 8 + 67_584) * 2);
    // A token's KV per GPU at TP 8 (one KV head each): the draft 2 × 16 layers × 64 × 2 B = 4,096, Llama 3 70B 2 × 80 × 128 × 2 B = 40,960.
    expect(x.speculation!.draftKvCacheBytesPerGpu / x.kvCacheBytesPerGpu).toBeCloseTo(4096 / (4096 + 40_960), 12);
    expect(figure(a, 'Memory per GPU')).toBe(`${formatBytes(x.totalBytesPerGpu)} of ${formatBytes(x.capacityBytes)}: weights ${formatBytes(x.weightsBytesPerGpu)} (the draft's 295 MiB), `
      + `KV cache ${formatBytes(x.kvCacheBytesPerGpu)} (the draft's ${formatBytes(x.speculation!.draftKvCacheBytesPerGpu)}; ${formatBytes(x.kvCacheBytesPerGpu / x.batch)} on average per request on each GPU, paged)`);
  });

  it('says the plan without it beside: at 50 ms per token the draft pays, at 200 ms (batches of hundreds) it loses', () => {
    const plain = (bound: number) => runInference(tokenBound(bound)) as Served;
    for (const [question, bound, wins] of [
      ['serve llama3-70b on 8 h100 with speculative decoding at 50 ms per token', 0.05, true],
      ['serve llama3-70b on 8 h100 with speculative decoding at 200 ms per token', 0.2, false],
    ] as const) {
      const { a, data } = served(question);
      const without = plain(bound).best!;
      const gain = data.best!.tokensPerSecondPerGpu / without.tokensPerSecondPerGpu;
      expect(gain > 1).toBe(wins);
      const note = a.notes.find((n) => n.startsWith('Without speculative decoding: ')) ?? '';
      expect(note).toContain(`serves ${formatNumber(without.tokensPerSecondPerGpu, 3)} tokens/s per GPU at ${without.batch} concurrent requests`);
      expect(note).toContain(`: speculation gives ${formatNumber(gain, 2)}× its tokens/s per GPU`);
      expect(note).toMatch(/speculation pays while decoding is memory-bound .* and loses once a large batch makes it compute-bound/);
    }
  });

  it('where no plan meets the bound without it, says so: 10 ms per token is met only speculating', () => {
    const { a } = served('serve llama3-70b on 8 h100 with speculative decoding at 10 ms per token');
    expect(a.ok).toBe(true);
    expect(a.notes.join('\n')).toMatch(/^Without speculative decoding no plan meets ≤ 10\.0 ms per token, ≤ 2\.00 s to the first token: the closest plan \(TP 8, PP 1, batch 1\)/m);
  });

  it('at a request rate, says the GPUs it takes with speculation and without', () => {
    const { a, data } = served('serve llama3-70b at 20 qps with speculative decoding, 50 ms per token');
    const { gpus: _gpus, ...anyGpus } = tokenBound(0.05, { requestsPerSecond: 20 });
    const without = runInference(anyGpus) as Served;
    expect(a.notes.join('\n')).toContain(`: ${data.best!.load!.gpus} GPUs with speculation, ${without.best!.load!.gpus} without`);
  });

  it('a stated pipeline depth is refused by the protocol (one stage), and the plan without it is said', () => {
    const { a } = served('serve llama 3 70b with speculative decoding on 8 h100 with pp 2');
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(/speculative decoding is modelled on one pipeline stage, not 2/);
    expect(a.notes.join('\n')).toMatch(/Speculative decoding is planned on one pipeline stage, as vLLM runs it.*; without it: TP 4 · PP 2 serves/);
  });
});

describe('answers without speculation are unchanged', () => {
  it('no speculative request, figure, configuration part or note', () => {
    const { a, data } = served('serve llama 3 70b on one h100 node');
    expect(data).toEqual(runInference(LLAMA3_70B_NODE));
    expect(a.figures.map((f) => f.label)).toEqual(['Replica', 'Concurrent requests', 'Time to first token', 'Time per output token', 'Throughput', 'Memory per GPU']);
    expect(figure(a, 'Memory per GPU')).toMatch(/^[\d.]+ GiB of [\d.]+ GiB: weights [\d.]+ GiB, KV cache [\d.]+ GiB \([\d.]+ MiB on average per request on each GPU, paged\)$/);
    expect([a.headline, a.configuration, ...a.assumptions, ...a.notes].join('\n')).not.toMatch(/draft|speculat/i);
  });
});
