import { describe, expect, it } from 'vitest';
import type { NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

describe('a budget in node-hours is a budget, never a cluster size', () => {
  it.each([
    ['how fast can I train llama3-70b on 15T tokens on H100 with 700k node-hours'],
    ['how fast can I train llama3-70b on 15T tokens on H100 with a budget of 700k node hours'],
    ['how fast can I train llama3-70b on 15T tokens with 700k H100 node-hours'],
  ])('"%s": 700k node-hours × 8 H100 a node (DGX H100) = 5.6M GPU-hours, and no node count', (question) => {
    const q = parse(question);
    expect(q.stated.nodes).toBeUndefined();
    expect(q.stated.gpus).toBeUndefined();
    // 700,000 × 8 = 5,600,000 GPU-hours.
    expect(q.stated.gpuHours).toBe(5_600_000);
    expect(q.defaults.map((d) => d.text)).toContain(
      'a budget in node-hours: 700k node-hours = 5.6M GPU-hours of 8-GPU nodes (the budget planned in GPU-hours; never a count of nodes)',
    );
  });

  it('answers as "5.6M GPU hours" does: the fastest plan the budget affords, said against 5.6M GPU-hours', () => {
    const byNodeHours = ask('how fast can I train llama3-70b on 15T tokens on H100 with 700k node-hours', { publicUrl: null });
    const byGpuHours = ask('how fast can I train llama3-70b on 15T tokens on H100 with 5.6M GPU hours', { publicUrl: null });
    expect(byNodeHours.headline).toBe(byGpuHours.headline);
    expect(byNodeHours.headline).toMatch(/\(budget 5\.6M GPU-hours\)$/);
    expect((byNodeHours.data as NodesOk).mode).toBe('fastest-within-budget');
    // The QA's answer planned 700,000 nodes (5,600,000 GPUs): no such cluster is named.
    expect(byNodeHours.headline).not.toContain('700,000 nodes');
  });

  it('node-hours of a 4-GPU node (a GB200 tray) are 4 GPU-hours each', () => {
    // 100,000 × 4 = 400,000 GPU-hours.
    expect(parse('how many gb200 nodes to train llama3-8b on 1T tokens with 100k node-hours').stated.gpuHours).toBe(400_000);
  });

  it('beside a budget in GPU-hours it is a second budget, said not read', () => {
    const q = parse('how many nodes for llama3-8b on 1T tokens with 2M gpu-hours and 700k node-hours');
    expect(q.stated.gpuHours).toBe(2_000_000);
    expect(q.notRead).toContainEqual({ phrase: '"700k node-hours"', why: 'a second budget beside the 2M GPU-hours, which are planned; give one' });
  });
});
