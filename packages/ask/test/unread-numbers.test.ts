import { describe, expect, it } from 'vitest';
import { parse } from '../src/parse.ts';

const DAY = 86_400;
const nodesDefault = (question: string): string | undefined => parse(question).defaults.find((d) => d.field === 'nodes')?.text;

describe('a number no reader takes is said as not read, never dropped unsaid', () => {
  it.each([
    // QA: each of these was planned on the default 128 nodes as "no cluster size given". ("on 256 h10", a GPU-shaped name, is
    // now refused as no known GPU: gpu-model-network-names.test.ts.)
    ['how long to train llama 70b on 2T tokens on 256 xyz', '"256 xyz"'],
  ])('"%s": %s is said as not read, and never as no cluster size given', (question, phrase) => {
    const q = parse(question);
    expect(q.notRead?.map((n) => n.phrase)).toContain(phrase);
    expect(nodesDefault(question)).toMatch(new RegExp(`^128 nodes \\(${phrase} not read as a cluster size`));
    expect(nodesDefault(question)).not.toMatch(/no cluster size given/);
  });

  it('"… on 512 nvidia h100s" is 512 GPUs: the maker\'s name between the count and the GPU is no gap', () => {
    expect(parse('how long to train llama 70b on 2T tokens on 512 nvidia h100s').stated).toMatchObject({ gpu: 'h100-sxm', gpus: 512 });
    expect(parse('how long to train llama 70b on 2T tokens on 64 NVIDIA DGX H100').stated).toMatchObject({ system: 'dgx-h100', nodes: 64 });
  });

  it.each([
    ['how long to train llama 70b on 2T tokens on 16x8 H100', { nodes: 16, gpusPerNode: 8 }],
    ['how long to train llama 70b on 2T tokens on 16 x 8 H100', { nodes: 16, gpusPerNode: 8 }],
    ['how long to train llama 70b on 2T tokens on 32×4 gpus', { nodes: 32, gpusPerNode: 4 }],
  ])('"%s" is nodes × the GPUs in each: %o', (question, counts) => {
    expect(parse(question).stated).toMatchObject(counts);
  });

  it.each([
    ['how many nodes to train llama 70b on 2T tokens en 10 jours', 10 * DAY],
    ['combien de GPU pour entraîner un modèle de 70B sur 2T tokens en 30 jours', 30 * DAY],
    ['how many nodes for llama 70b on 2T tokens in 14 Tagen', 14 * DAY],
    ['how many nodes for llama 70b on 2T tokens en 3 semanas', 21 * DAY],
  ])('"%s": a unit of time in another language is read (%i s), never a default deadline taken unsaid', (question, seconds) => {
    const q = parse(question);
    expect(q.stated.deadlineSeconds).toBe(seconds);
    expect(q.notRead).toEqual([]);
  });

  it.each([
    'how long to train llama3-70b on 2T tokens on 512 H100',
    'how long to train gpt3-175b on 128 nodes with tp 8 pp 8 in 30 days',
    'serve llama3-70b on 8 h100 with 4k prompts and 512 output tokens',
    'memory for 70B with tp 8 pp 4 on A100 80GB',
  ])('"%s" reads every number: nothing said as not read', (question) => {
    expect(parse(question).notRead).toEqual([]);
  });
});

describe('how nodes are racked is no cluster size', () => {
  it('"512 H100 … with 2 nodes per rack" plans the 512 GPUs and says the racking back as not modelled', () => {
    const q = parse('how long to train llama3-70b on 2T tokens on 512 H100 at bf16 with 2 nodes per rack');
    expect(q.stated.gpus).toBe(512);
    expect(q.stated.nodes).toBeUndefined();
    expect(q.notRead).toEqual([{ phrase: '"2 nodes per rack"', why: expect.stringMatching(/^not modelled: how nodes are racked/) }]);
  });
});
