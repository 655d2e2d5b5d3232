import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const notRead = (question: string): string[] => ask(question, { publicUrl: null }).notes.filter((n) => n.startsWith('Not read:'));

describe('settings no plan models are said not read, never read as something else or dropped', () => {
  it('"at 700W per GPU" is power, never 700 weeks', () => {
    const q = parse('how many nodes to train llama3-70b on 2T tokens at 700W per GPU');
    expect(q.stated.deadlineSeconds).toBeUndefined();
    expect(q.notRead?.[0]).toMatchObject({ phrase: '"at 700W per GPU"' });
    expect(q.notRead?.[0]?.why).toMatch(/^power is not modelled/);
  });
  it('"at 700W" alone is power too', () => {
    expect(parse('how long to train llama3-8b on 1T tokens on 64 h100 at 700W').stated.deadlineSeconds).toBeUndefined();
  });
  it('goodput is said not read beside dropout and the attention kernel, which are planned; the time lost to failures is read as the uptime', () => {
    const question = 'how long to train llama3-8b on 1T tokens on 64 H100 with dropout, without flash attention, with 90% goodput, assuming 10% of the time is lost to failures';
    const notes = notRead(question);
    expect(notes.map((n) => /^Not read: ("[^"]*")/.exec(n)?.[1])).toEqual(['"with 90% goodput"']);
    // 10% of the time lost leaves 100% − 10% = 90% spent training (lexicon/uptime.ts).
    expect(parse(question).stated).toMatchObject({ uptime: 0.9, dropout: true, attentionKernel: 'unfused' });
    expect(notes[0]).toMatch(/goodput is not read .*say "at 90% uptime"/);
  });
  it('"no flash-attn" plans the unfused kernel; failures with no share of time point to the uptime', () => {
    expect(parse('how long to train llama3-8b on 1T tokens on 64 H100 no flash-attn').stated.attentionKernel).toBe('unfused');
    expect(notRead('how long to train llama3-8b on 1T tokens on 64 H100 no flash-attn')).toEqual([]);
    expect(notRead('how long to train llama3-8b on 1T tokens on 64 H100 with node failures')[0])
      .toMatch(/^Not read: "with node failures" \(failures are not counted one by one: say the share of time they take, e\.g\. "with 10% downtime"/);
  });
  it("a serving engine's memory fraction is planned: the request's gpuMemoryUtilization, the memory held to it and said", () => {
    // Was said not modelled, though the inference request takes gpuMemoryUtilization (vLLM's gpu_memory_utilization).
    for (const q of ['serve llama3-70b on 8 h100 vllm memory fraction 0.8', 'serve llama3-70b on 8 h100 with 80% memory']) {
      expect(notRead(q)).toEqual([]);
      expect(parse(q).parameters.memoryFraction).toBe(0.8);
      const a = ask(q, { publicUrl: null });
      expect(a.memoryPerGpuBytes!).toBeLessThanOrEqual(0.8 * a.memoryCapacityBytes!);
      expect(a.notes).toContainEqual(expect.stringMatching(/^Each GPU's memory filled to at most 80%, as asked/));
    }
    const whole = ask('serve llama3-70b on 8 h100', { publicUrl: null });
    expect(whole.memoryPerGpuBytes!).toBeGreaterThan(0.8 * whole.memoryCapacityBytes!);
  });
  it('"how many kWh … on 64 H100" answers on the 64 GPUs named, energy said not modelled (not a nodes search)', () => {
    const q = parse('how many kWh to train llama3-8b 1T tokens on 64 H100 at 700W');
    expect(q.intent).toBe('time');
    expect(q.parameters.gpus ?? (q.parameters.nodes ?? 0) * 8).toBe(64);
    expect(notRead('how many kWh to train llama3-8b 1T tokens on 64 H100 at 700W')[0]).toMatch(/energy is not modelled/);
  });
  it('an electricity price ("at $0.10/kWh") is said not modelled and the time answered, not the whole question refused', () => {
    const q = parse('how much electricity for llama3-8b 1T tokens on 64 h100 at $0.10/kWh');
    expect(q.problems).toEqual([]);
    expect(q.intent).toBe('time');
    expect(q.notRead?.[0]).toMatchObject({ phrase: '"at $0.10/kWh"' });
    expect(q.notRead?.[0]?.why).toMatch(/^an electricity price is not modelled/);
  });
  it('power drawn and CO2 asked are each said not modelled', () => {
    expect(notRead('how much power does llama3-8b 1T tokens on 64 H100 draw')[0]).toMatch(/^Not read: "power" \(energy is not modelled/);
    expect(notRead('how much co2 to train llama3-8b 1T tokens on 64 H100')[0]).toMatch(/emissions are not modelled/);
  });
});
