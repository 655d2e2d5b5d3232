import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

describe('"how much" asked of a named cluster plans that cluster, never the nodes a default deadline needs', () => {
  it('"how much is … on 512 h100 at $2 per gpu hour" is the cost of the run on the 512 GPUs', () => {
    const q = parse('how much is llama3-70b 2T tokens on 512 h100 at $2 per gpu hour');
    expect(q.intent).toBe('time');
    expect(q.defaults.some((d) => d.field === 'deadlineSeconds')).toBe(false);
    const a = ask(q.text, { publicUrl: null });
    expect(a.scenario?.cluster).toMatchObject({ nodes: 64 });
    expect(a.figures.some((f) => f.label === 'Cost')).toBe(true);
  });
  it('"how much does … on 64 H100 take" is its time on 64 GPUs', () => {
    const q = parse('how much does llama3-8b on 1T tokens on 64 H100 take');
    expect(q.intent).toBe('time');
    expect(q.parameters.deadlineSeconds).toBeUndefined();
  });
  it('"how much energy" plans the cluster and says energy is not modelled', () => {
    const a = ask('how much energy in MWh to train llama3-70b 2T tokens on 512 h100', { publicUrl: null });
    expect(a.intent).toBe('time');
    expect(a.notes[0]).toMatch(/^Not read: "energy", "in MWh" \(energy is not modelled/);
  });
  it('"how many H100 …" still asks for a cluster', () => {
    expect(parse('how many h100 do i need for llama3-70b on 2T tokens in 30 days').intent).toBe('nodes');
  });
});
