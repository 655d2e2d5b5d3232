import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { servingQuestionOf } from '../src/answer/training-memory.ts';
import { parse } from '../src/parse.ts';

describe('a memory question is answered as training memory, and says how to ask for serving', () => {
  it('"does llama 3.1 405b fit on one H200 node?" says it is training memory and names the serving question', () => {
    const a = ask('does llama 3.1 405b fit on one H200 node?');
    expect(a.intent).toBe('memory');
    expect(a.headline).toMatch(/: does not fit for training: /);
    expect(a.assumptions[0]).toBe('memory for training (weights, gradients, optimizer states and activations); '
      + 'for serving, weights and KV cache only, ask "serve llama3.1-405b on 1 h200 node"');
  });

  it.each([
    ['does llama 3.1 405b fit on one H200 node?', 'serve llama3.1-405b on 1 h200 node'],
    ['will a 30b model fit on 8 h100', 'serve a 30B model on 8 h100-sxm'],
    ['does llama 3 8b fit on a dgx a100', 'serve llama3-8b on 1 dgx-a100-80gb node'],
    ['does llama3-70b fit on an h100', 'serve llama3-70b on 1 h100-sxm'],
    ['how much memory for llama3-8b', 'serve llama3-8b'],
  ])('"%s" → "%s", read back as serving the same model on the same cluster', (question, serving) => {
    const q = parse(question);
    expect(servingQuestionOf(q)).toBe(serving);
    const back = parse(serving);
    expect(back.intent).toBe('serving');
    expect(back.problems).toEqual([]);
    const facts = (x: typeof q) => ({
      model: x.parameters.model, size: x.parameters.customModel?.askedParameters, gpu: x.parameters.gpu, system: x.parameters.system, nodes: x.stated.nodes, gpus: x.stated.gpus,
    });
    expect(facts(back)).toEqual(facts(q));
  });

  it('a serving question is not said to be training memory', () => {
    expect(ask('serve llama 3.1 405b on one h200 node').assumptions.join(' ')).not.toMatch(/memory for training/);
  });
});
