import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const MILLION = 1e6;
const BILLION = 1e9;

describe('a model size in millions ("a 350M model")', () => {
  it.each([
    ['how many nodes for a 350M model', 'nodes', 'gpt3-350m', '350M taken as GPT-3 Medium (gpt3-350m)'],
    ['best config for 760m on 1 node', 'config', 'gpt3-760m', '760M taken as GPT-3 Large (gpt3-760m)'],
    ['step time of a 125M model on 8 A100', 'estimate', 'gpt3-126m', '125M taken as GPT-3 Small (gpt3-126m)'],
    ['how long to train a 350 million parameter model on 8 h100', 'time', 'gpt3-350m', '350M taken as GPT-3 Medium (gpt3-350m)'],
  ])('%s: a GPT-3 row of that size (Brown et al. 2020, Table 2.1), said first', (question, intent, model, reading) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.intent).toBe(intent);
    expect(q.parameters.model).toBe(model);
    expect(q.defaults[0]?.text).toBe(reading);
  });

  it('a size in millions no preset has is the GPT-style decoder of that size (500M: 35 layers at GPT-3 Medium\'s width)', () => {
    const q = parse('how many nodes for a 500M model');
    expect(q.problems).toEqual([]);
    expect(q.parameters.customModel?.shape).toMatchObject({ name: 'GPT-style 500M', layers: 35, hiddenSize: 1024 });
    expect(q.parameters.tokens).toBe(10 * BILLION);
  });

  it('a 350M model is answered with a plan, not help', () => {
    const a = ask('how many nodes for a 350M model', { publicUrl: null });
    expect(a.ok).toBe(true);
    expect(a.headline).toMatch(/^GPT-3 Medium on H100 SXM5 80GB: 1 node \(8 GPUs\) trains 300B tokens/);
  });

  it.each([
    ['how many nodes for llama3-8b on 500M tokens', { model: 'llama3-8b', tokens: 500 * MILLION }],
    ['how long to train a 1.3b model on 500m tokens on 8 h100', { model: 'gpt3-1.3b', tokens: 500 * MILLION }],
    ['how long to train a 350M model on 500M tokens on 8 h100', { model: 'gpt3-350m', tokens: 500 * MILLION }],
    ['how long to train llama3-8b on 64 h100 with batch 4M tokens', { model: 'llama3-8b', batchTokens: 4 * MILLION }],
    ['with a 4M token batch, how many nodes for 7b', { model: 'llama2-7b', batchTokens: 4 * MILLION }],
    ['with 1.7M gpu hours, how many h100 nodes for 13b', { model: 'llama2-13b', gpuHours: 1.7 * MILLION }],
    ['with 2M GPU-hours how many h100 nodes for 13b', { model: 'llama2-13b', gpuHours: 2 * MILLION }],
    ['with a 4M batch, how many nodes for 13b', { model: 'llama2-13b' }],
    ['with batch size 4m how long for 13b on 64 h100', { model: 'llama2-13b' }],
  ])('%s: counts in millions that are tokens, a batch or GPU-hours stay so, never a model size', (question, stated) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject(stated);
    expect(q.parameters.customModel).toBeUndefined();
  });

  it.each([
    'how many nodes for batch size 4m on h100',
    'how many nodes for a 4m batch on h100',
    'how many nodes with a budget of $2M on h100',
  ])('%s: a batch or money in millions is no model size, so a model is still asked for', (question) => {
    const q = parse(question);
    expect(q.parameters.model).toBeUndefined();
    expect(q.parameters.customModel).toBeUndefined();
    expect(q.problems.join(' ')).toMatch(/name a model/);
  });
});
