import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { matchInstance } from '../src/lexicon/instances.ts';
import { parse } from '../src/parse.ts';

describe('a number glued inside a word is never a duration', () => {
  it('"p4d" is no 4-day deadline, "a3" no 3 years', () => {
    expect(parse('how long to train llama3-8b on 1T tokens on 16 p4d nodes').stated.deadlineSeconds).toBeUndefined();
    expect(parse('train llama3-8b on 1T tokens on x4d hardware').stated.deadlineSeconds).toBeUndefined();
    // Durations as written still read: "14d", "in 30 days".
    expect(parse('how many nodes to train llama3-8b on 1T tokens in 14d').stated.deadlineSeconds).toBe(14 * 86400);
  });
});

describe('cloud instance types are nodes of 8 GPUs of a preset', () => {
  it.each([
    ['p4d.24xlarge', 'a100-40gb'],
    ['p4d', 'a100-40gb'],
    ['p4de', 'a100-80gb'],
    ['p5.48xlarge', 'h100-sxm'],
    ['p5', 'h100-sxm'],
    ['p5e.48xlarge', 'h200'],
    ['p5en', 'h200'],
    ['standard nd96asr v4', 'a100-40gb'],
    ['nd a100 v4', 'a100-40gb'],
    ['nd96amsr a100 v4', 'a100-80gb'],
    ['ndm a100 v4', 'a100-80gb'],
    ['nd h100 v5', 'h100-sxm'],
    ['nd96isr h100 v5', 'h100-sxm'],
    ['a2-highgpu-8g', 'a100-40gb'],
    ['a2-ultragpu-8g', 'a100-80gb'],
    ['a3-highgpu-8g', 'h100-sxm'],
    ['a3-megagpu-8g', 'h100-sxm'],
  ])('%s → 8 × %s', (name, gpu) => {
    const m = matchInstance(`on 16 ${name} nodes`);
    expect(m?.instance.gpu).toBe(gpu);
    expect(m?.instance.gpus).toBe(8);
  });

  it('"128 p4d nodes at $32.77/hr": 128 nodes of A100 40GB, the price a node-hour ($4.10 per GPU-hour), no deadline', () => {
    const q = parse('cost to train llama 2 70B on 2T tokens on 128 p4d nodes at $32.77/hr');
    expect(q.intent).toBe('time');
    expect(q.stated).toMatchObject({ gpu: 'a100-40gb', nodes: 128, currency: '$' });
    expect(q.stated.deadlineSeconds).toBeUndefined();
    expect(q.stated.pricePerGpuHour).toBeCloseTo(32.77 / 8, 6);
    const a = ask('cost to train llama 2 70B on 2T tokens on 128 p4d nodes at $32.77/hr', { publicUrl: null });
    expect(a.ok).toBe(true);
    expect(a.headline).toMatch(/^Llama 2 70B on A100 SXM4 40GB: [\d.]+ days to train 2\.00T tokens on 128 nodes \(1,024 GPUs\) for \$[\d.]+M$/);
    expect(a.assumptions.some((s) => s.startsWith('p4d.24xlarge read as one node of 8 × A100 SXM4 40GB'))).toBe(true);
    expect(a.assumptions.some((s) => s.includes('$32.77 an hour read as the price of one p4d.24xlarge, a node-hour: $4.10 per GPU-hour'))).toBe(true);
    expect(a.assumptions.join(' ')).not.toMatch(/read as per GPU-hour/);
  });

  it('"16 p5 instances" is 16 nodes of H100, not the default 128', () => {
    const q = parse('cost to train llama 2 70B on 2T tokens on 16 p5 instances');
    expect(q.stated).toMatchObject({ gpu: 'h100-sxm', nodes: 16 });
    expect(q.defaults.some((d) => d.field === 'nodes' && /no cluster size/.test(d.text))).toBe(false);
  });

  it('an instance\'s price "per instance-hour" is a node-hour too', () => {
    const q = parse('how long for llama3-8b on 1T tokens on 4 p5e.48xlarge at $40 per instance-hour');
    expect(q.stated).toMatchObject({ gpu: 'h200', nodes: 4, pricePerGpuHour: 5 });
  });

  it('Azure NDm A100 v4 keeps its system preset; ND A100 v4 is the 40GB part', () => {
    expect(parse('how long for llama3-8b on 1T tokens on 4 Standard_ND96amsr_A100_v4').stated).toMatchObject({ system: 'azure-ndm-a100-v4', gpu: 'a100-80gb', nodes: 4 });
    expect(parse('how long for llama3-8b on 1T tokens on 4 Standard_ND96asr_v4').stated).toMatchObject({ gpu: 'a100-40gb', nodes: 4 });
  });

  it('an instance with no system preset says the network it was planned on', () => {
    const a = ask('how long to train llama3-8b on 1T tokens on 8 a3-megagpu-8g', { publicUrl: null });
    expect(a.assumptions.some((s) => /^a3-megagpu-8g read as one node of 8 × H100 SXM5 80GB; the network between nodes taken as ndr-ib-8x/.test(s))).toBe(true);
  });
});

describe('"N DGX" and "N <GPU> instances"', () => {
  it('"16 DGX" is 16 nodes', () => {
    const q = parse('how long to train llama3-70b on 2T tokens on 16 DGX');
    expect(q.stated.nodes).toBe(16);
    expect(q.defaults.some((d) => d.field === 'nodes')).toBe(false);
  });

  it('"16 H100 instances" is 16 GPUs, said so with how to ask for 8-GPU instances', () => {
    const q = parse('how long to train llama3-70b on 2T tokens on 16 H100 instances');
    expect(q.stated).toMatchObject({ gpu: 'h100-sxm', gpus: 16 });
    const reading = q.defaults.find((d) => d.field === 'gpus');
    expect(reading?.text).toMatch(/^16 H100 SXM5 80GB instances read as 16 GPUs, one an instance/);
    expect(reading?.text).toContain('p5.48xlarge');
  });
});

describe('a GCP family named alone, and counts glued inside a word', () => {
  it('"8 a3 vms" is 8 nodes of H100 (a3-highgpu-8g), "a3 nodes" no count of 3, "a3-ultragpu-8g" H200', () => {
    expect(parse('how long to train llama3-8b on 1T tokens on 8 a3 vms').stated).toMatchObject({ gpu: 'h100-sxm', nodes: 8 });
    const bare = parse('train llama3-8b on a3 nodes').stated;
    expect(bare.nodes).toBeUndefined();
    expect(bare.gpus).toBeUndefined();
    expect(parse('how long to train llama3-8b on 1T tokens on 4 a3-ultragpu-8g').stated).toMatchObject({ gpu: 'h200', nodes: 4 });
    expect(parse('how long to train llama3-8b on 1T tokens on 4 a2 nodes').stated).toMatchObject({ gpu: 'a100-40gb', nodes: 4 });
  });
});

describe('an instance type not known', () => {
  it.each(['p3.16xlarge', 'a2-highgpu-4g', 'g5.48xlarge'])('"%s" is named back as not known, never planned on a default GPU and 128 nodes', (name) => {
    const q = parse(`how long to train llama3-8b on 1T tokens on 4 ${name}`);
    expect(q.problems.join(' ')).toContain(`${name} is not a cloud instance type I know`);
  });
  it('p3dn.24xlarge is 8 × V100 32GB', () => {
    expect(parse('how long to train llama3-8b on 1T tokens on 4 p3dn.24xlarge').stated).toMatchObject({ gpu: 'v100-32gb', nodes: 4 });
  });
});

describe('two instance types compared', () => {
  it('"p4d vs p5" compares their GPUs side by side, in the order named; no digit of a name becomes a count', () => {
    const q = parse('p4d vs p5 for llama3-70b on 2T tokens in 30 days');
    expect(q.stated).toMatchObject({ gpu: 'a100-40gb', comparedGpus: [{ gpu: 'h100-sxm' }] });
    expect(q.stated.nodes).toBeUndefined();
    const or = parse('how long to train llama3-70b on 2T tokens on p5 nodes or p4d nodes');
    expect(or.stated).toMatchObject({ gpu: 'h100-sxm', comparedGpus: [{ gpu: 'a100-40gb' }] });
    expect(or.stated.nodes).toBeUndefined();
  });
});

describe('"how many" instances', () => {
  it.each(['how many p5.48xlarge to train llama3-8b on 1T tokens', 'how many p5 instances to train llama3-8b on 1T tokens', 'how many a3-megagpu-8g to train llama3-8b on 1T tokens'])(
    '"%s" asks for nodes, as "how many H100 nodes" does', (question) => {
      expect(parse(question).intent).toBe('nodes');
    });
});
