import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const line = (a: ReturnType<typeof ask>, label: string): string => a.figures.find((f) => f.label === label)?.value ?? '';

describe('a question comparing two GPUs answers each, side by side', () => {
  it('parses both GPUs, the one written first answered first', () => {
    expect(parse('A100 vs H100 for 70B').stated).toMatchObject({ gpu: 'a100-80gb', comparedGpus: [{ gpu: 'h100-sxm' }] });
    expect(parse('should I use H100 or A100 to train llama3-70b on 2T tokens in 30 days').stated).toMatchObject({ gpu: 'h100-sxm', comparedGpus: [{ gpu: 'a100-80gb' }] });
    expect(parse('compare H100 and H200 for training llama3-70b on 2T tokens').stated).toMatchObject({ gpu: 'h100-sxm', comparedGpus: [{ gpu: 'h200' }] });
  });

  it('"should I use H100 or A100 … in 30 days": each GPU\'s nodes for the deadline, GPU-hours, and which spends fewer', () => {
    const a = ask('should I use H100 or A100 to train llama3-70b on 2T tokens in 30 days', { publicUrl: null });
    expect(a.intent).toBe('nodes');
    expect(a.headline).toMatch(/^H100 SXM5 80GB vs A100 SXM4 80GB for Llama 3 70B: H100 SXM5 80GB: [\d,]+ nodes \([\d,]+ GPUs\), [\d.]+ days for 2\.00T tokens, [\d.]+[kM] GPU-hours; A100 SXM4 80GB: [\d,]+ nodes/);
    const nodes = (label: string): number => Number(/^([\d,]+) nodes/.exec(line(a, label))?.[1]?.replace(/,/g, ''));
    // An A100 does less a second than an H100: more of them meet the same deadline.
    expect(nodes('A100 SXM4 80GB')).toBeGreaterThan(nodes('H100 SXM5 80GB'));
    for (const label of ['H100 SXM5 80GB', 'A100 SXM4 80GB']) {
      const days = Number(/([\d.]+) days/.exec(line(a, label))?.[1]);
      expect(days).toBeLessThanOrEqual(30);
    }
    expect(a.notes[0]).toMatch(/^H100 SXM5 80GB spends [\d.]+× fewer GPU-hours than A100 SXM4 80GB/);
    expect(a.notes.some((n) => n.includes("are for H100 SXM5 80GB; for the plan of A100 SXM4 80GB in full, ask the question naming it alone"))).toBe(true);
  });

  it('a price gives each GPU\'s cost, and says it was taken for both', () => {
    const a = ask('compare H100 and H200 for training llama3-70b on 2T tokens on 64 nodes at $3/gpu-hour', { publicUrl: null });
    expect(line(a, 'H100 SXM5 80GB')).toMatch(/^64 nodes \(512 GPUs\), [\d.]+ days for 2\.00T tokens, [\d.]+[kM] GPU-hours, \$[\d.]+M$/);
    expect(line(a, 'H200 SXM 141GB')).toMatch(/^64 nodes \(512 GPUs\), .*\$[\d.]+M$/);
    expect(a.notes.some((n) => n.includes('at the one price given, taken for both'))).toBe(true);
  });

  it('"A100 vs H100 for 70B" answers both, never one silently', () => {
    const a = ask('A100 vs H100 for 70B', { publicUrl: null });
    expect(a.headline).toContain('A100 SXM4 80GB: ');
    expect(a.headline).toContain('H100 SXM5 80GB: ');
  });

  it('a serving comparison sets each GPU\'s serving headline side by side', () => {
    const a = ask('serve llama3-70b on 8 h100 vs 8 h200', { publicUrl: null });
    expect(a.intent).toBe('serving');
    expect(line(a, 'H100 SXM5 80GB')).toMatch(/serves [\d,]+ tokens\/s per GPU/);
    expect(line(a, 'H200 SXM 141GB')).toMatch(/serves [\d,]+ tokens\/s per GPU/);
  });

  it('one GPU named twice, or a question of one GPU, is no comparison', () => {
    expect(parse('how long to train llama3-70b on 64 h100 or 64 h100s').stated.comparedGpus).toBeUndefined();
    expect(parse('how long to train llama3-70b on 64 h100').stated.comparedGpus).toBeUndefined();
  });
});
