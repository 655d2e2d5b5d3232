import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

describe('cluster sizes as other languages and bills of materials write them', () => {
  it.each([
    ['llama3-70b を 512 台の H100 で 2T トークン学習するのに何日かかりますか'],
    ['用512张H100训练llama3-70b 2T tokens需要多久'],
    ['llama3-70b 512枚のH100 2T tokens 何日'],
  ])('%s: 512 GPUs and 2T tokens, asked how long', (question) => {
    const q = parse(question);
    expect(q.stated).toMatchObject({ gpus: 512, tokens: 2e12 });
    expect(q.intent).toBe('time');
  });
  it.each([
    ['llama3-8b 1T トークン H100 64台 何日', 64],
    ['llama3-8b 1T tokens H100 64枚で', 64],
    ['llama3-8b 1T tokens H100 64個', 64],
    ['llama3-8b 1T tokens H100を512台で', 512],
  ])('%s: the counter after the GPU\'s name counts it (%i GPUs)', (question, gpus) => {
    expect(parse(question).stated).toMatchObject({ gpu: 'h100-sxm', gpus, tokens: 1e12 });
  });
  it.each([
    ['how long to train llama3-70b on 2T tokens on H100 x 512'],
    ['llama3-70b 2T tokens H100×512'],
    ['llama3-70b 2T tokens 512×H100'],
  ])('%s is 512 H100', (question) => {
    expect(parse(question).stated).toMatchObject({ gpu: 'h100-sxm', gpus: 512 });
  });
  it('a number beside the GPU that is not read is never "no cluster size given"', () => {
    const nodes = parse('how long to train llama3-70b on 2T tokens on 512 ☃ H100').defaults.find((d) => d.field === 'nodes');
    expect(nodes?.text).not.toContain('no cluster size given');
    expect(nodes?.text).toContain('512 beside the GPU');
  });
  it('"half a DGX H100" is its 4 GPUs, never a whole node', () => {
    expect(parse('how long to train llama3-8b on 1T tokens on half a DGX H100').stated).toMatchObject({ gpus: 4 });
  });
  it('"a quarter of a DGX H100" is its 2 GPUs, never a whole node', () => {
    expect(parse('how long to train llama3-8b on 1T tokens on a quarter of a DGX H100').stated).toMatchObject({ gpus: 2 });
  });
  it('"a DGX SuperPOD" is no one node: said not read, and the default cluster says so', () => {
    const a = ask('how long to train llama3-70b on 2T tokens on a DGX SuperPOD', { publicUrl: null });
    expect(a.notes[0]).toMatch(/^Not read: "a DGX SuperPOD" \(a DGX SuperPOD is no one size: .*32 DGX nodes/);
    expect(a.assumptions).toContain('128 nodes (the cluster size named not read)');
  });
});
