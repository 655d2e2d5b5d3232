import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import { figure, served } from './support/serving.ts';

const servingReading = (q: ReturnType<typeof parse>): string | undefined => q.defaults.find((d) => d.text.startsWith('read as serving (inference)'))?.text;

describe('generating, running a model on GPUs, or tokens/s at batch 1, with no training word, is serving', () => {
  it.each([
    ['can I run llama3-70b on a single H200 in fp8', '"run" a model on GPUs', { model: 'llama3-70b', gpu: 'h200', gpus: 1, precision: 'fp8' }],
    ['how many tokens/s can one H200 generate for llama3-70b in fp8', '"generate"', { model: 'llama3-70b', gpu: 'h200', gpus: 1, precision: 'fp8' }],
    ['tokens per second for llama3-8b on a single A100 80GB, batch 1', '"batch 1"', { model: 'llama3-8b', gpu: 'a100-80gb', gpus: 1 }],
    ['how fast does llama3-8b generate on one A100', '"generate"', { model: 'llama3-8b', gpu: 'a100-80gb', gpus: 1 }],
  ])('"%s" is served on the GPU named, its reading said (%s)', (question, cue, stated) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    expect(q.stated).toMatchObject(stated);
    expect(servingReading(q)).toContain(`from ${cue} with no training word`);
    const { a, data } = served(question);
    expect(a.ok).toBe(true);
    // Served on the one GPU asked, not a training plan's "does not fit … per GPU" on a larger cluster.
    expect((data.best?.tensor ?? 0) * (data.best?.pipeline ?? 0)).toBe(1);
    expect(a.headline).toMatch(/ on 1 × .*: TP 1 · PP 1 serves [\d,.]+k? tokens\/s per GPU/);
  });

  it('"batch 1" is one request at a time', () => {
    const { data } = served('tokens per second for llama3-8b on a single A100 80GB, batch 1');
    expect(parse('tokens per second for llama3-8b on a single A100 80GB, batch 1').parameters.concurrency).toBe(1);
    expect(data.best?.batch).toBe(1);
  });

  it('a question saying "serve" or "inference" is not said back as read so', () => {
    expect(servingReading(parse('inference throughput of llama3-70b on one H200 in fp8'))).toBeUndefined();
  });
});

/**
 * Weights quantized to serve ("int8 weights", "fp8 weights", "quantized") asked how fast, with no training word: serving,
 * the weights one byte each (INT8 and a bare "quantized" planned as FP8, said so). QA: "how fast is llama 2 70b on one B200
 * with int8 weights" was planned as training and refused, "needs 1.26 TiB per GPU". By hand, the layers' linears at 1 byte and
 * the embedding, output layer and norms at 2 (FP8 checkpoints keep those 16-bit: search's serving-weights.ts): Llama 2 70B's
 * 69.0B parameters at 1 byte and its 2 × 32,000 × 8,192 = 0.52B of tables (and 1.3M of norms) at one more = 64.7 GiB, in a
 * B200's 179 GiB with room for the KV cache; Llama 3 8B's 8.03B and its 2 × 128,256 × 4,096 = 1.05B of tables = 8.46 GiB on
 * one H100.
 */
describe('the speed of weights quantized to serve, with no training word, is serving', () => {
  it.each([
    ['how fast is llama 2 70b on one B200 with int8 weights', '"int8 weights"', { model: 'llama2-70b', gpu: 'b200', gpus: 1, precision: 'fp8' }, /^INT8 weights planned as FP8: one byte a weight either way$/, /weights 64\.7 GiB/],
    ['throughput of llama3-8b with fp8 weights on one h100', '"fp8 weights"', { model: 'llama3-8b', gpu: 'h100-sxm', gpus: 1, precision: 'fp8' }, undefined, /weights 8\.46 GiB/],
    ['how fast is a quantized llama3-8b on one h100', '"quantized"', { model: 'llama3-8b', gpu: 'h100-sxm', gpus: 1, precision: 'fp8' }, /^"quantized" with no format named taken as FP8, one byte a weight/, /weights 8\.46 GiB/],
  ])('"%s" is served (%s), its layers\' weights one byte each', (question, cue, stated, reading, weights) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    expect(q.stated).toMatchObject(stated);
    expect(servingReading(q)).toContain(`from ${cue} with no training word`);
    if (reading !== undefined) expect(q.defaults.map((d) => d.text)).toContainEqual(expect.stringMatching(reading));
    const { a } = served(question);
    expect(a.ok).toBe(true);
    expect(a.headline).toMatch(/ on 1 × .*: TP 1 · PP 1 serves [\d,.]+k? tokens\/s per GPU/);
    expect(a.configuration).toMatch(/ · FP8 · /);
    expect(figure(a, 'Memory per GPU')).toMatch(weights);
  });

  it.each([
    'how fast can I train llama3-8b with int8 weights on 8 h100',
    'how fast is llama3-8b with 8-bit adam on 8 h100',
    'how fast is llama3-8b on 8 h100 in fp8',
  ])('"%s" keeps its training reading (a training word, or no weights said to be quantized)', (question) => {
    expect(parse(question).intent).not.toBe('serving');
  });
});

describe('training questions keep their training reading', () => {
  it.each([
    'training throughput in tokens per second of llama3-8b on 8 h100',
    'tokens per second of llama3-70b on 64 h100',
    'throughput of llama3-8b on 1 h100',
    'how long to run llama3-70b on 2T tokens on 64 h100',
    'can I run a pretraining of llama3-8b on 8 h100',
    'run llama3-8b on 8 h100 with zero-3',
    'what does it cost per day to run 128 H100 nodes at $2/GPU-hour',
  ])('"%s" is not serving', (question) => {
    expect(parse(question).intent).not.toBe('serving');
  });

  it('"the H100 generation" is no generating', () => {
    expect(parse('throughput of llama3-8b on the H100 generation').intent).not.toBe('serving');
  });

  it('a training throughput answer is still training', () => {
    const a = ask('training throughput in tokens per second of llama3-8b on 8 h100', { publicUrl: null });
    expect(a.intent).toBe('estimate');
    expect(a.headline).toMatch(/tokens\/s \([\d.]+ s per step/);
  });
});

describe('"run" is inference only as running a model on something', () => {
  it('"run by sunny" is no running of a model', () => {
    expect(parse('how many nodes for llama 3 70b on h100, run by sunny').intent).toBe('nodes');
  });
});

describe('generating a number of tokens', () => {
  it('"generate 1T tokens … on 64 H100: how long" is a serving question answered with the time to generate them, unbounded', () => {
    const a = ask('generate 1T tokens of synthetic data with llama3-70b on 64 H100: how long', { publicUrl: null });
    expect(a.intent).toBe('serving');
    const figure = a.figures.find((f) => f.label === 'Time to generate')?.value ?? '';
    const m = /^([\d,.]+) days for 1\.00T generated tokens at ([\d,]+) tokens\/s on 64 GPUs/.exec(figure);
    expect(m, figure).not.toBeNull();
    // days = tokens / (tokens/s on the GPUs) / 86,400, to the figures' rounding.
    const days = Number(m![1]!.replace(/,/g, ''));
    const rate = Number(m![2]!.replace(/,/g, ''));
    expect(days).toBeCloseTo(1e12 / rate / 86400, 0);
    expect(a.assumptions.join(' ')).not.toMatch(/interactive service/);
  });
  it('"how long to train … on 1T tokens" stays training', () => {
    expect(ask('how long to train llama3-70b on 1T tokens on 64 H100', { publicUrl: null }).intent).toBe('time');
  });
});

describe('the most requests held at once ("max batch", "how many sequences fit") is serving; a training batch stays training', () => {
  // QA: "max batch for llama3-8b on a100-80gb with 4k context" was planned as training on a default 128 nodes.
  it.each([
    ['max batch for llama3-8b on a100-80gb with 4k context', 'max batch'],
    ['max concurrent sequences for llama3-8b on a100-80gb with 4k context', 'max concurrent sequences'],
    ['how many sequences fit for llama3-8b on a100-80gb with 4k context', 'how many sequences fit'],
    ['maximum batch size for llama3-70b on 8 h100', 'maximum batch size'],
  ])('"%s" is serving, read from "%s"', (question, cue) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    expect(servingReading(q)).toContain(`from "${cue}" with no training word`);
  });

  it('"max batch size for inference" says inference itself: serving, with no reading said back', () => {
    const q = parse('max batch size for inference of llama3-8b on a100-80gb');
    expect(q.intent).toBe('serving');
    expect(servingReading(q)).toBeUndefined();
  });

  it.each([
    'max micro batch for training llama3-8b on 8 a100',
    'max micro batch for llama3-8b on 8 a100',
    'max global batch for llama3-8b on 64 h100',
    'largest batch size that fits in memory for training llama3-70b on 64 h100',
    'max batch for llama3-8b with zero-3 on 8 h100',
    'max batch size for fine-tuning llama3-8b on 8 a100',
  ])('"%s" is not serving', (question) => {
    expect(parse(question).intent).not.toBe('serving');
  });
});
