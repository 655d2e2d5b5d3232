import { describe, expect, it } from 'vitest';
import type { NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { compactCount, formatDays, nodesGpus } from '../src/format.ts';
import { fasterThanAYear } from '../src/answer/frontier-notes.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

describe('a question asking GPU-hours leads with the GPU-hours, the time after', () => {
  it('"how many gpu hours … on 15T tokens": the GPU-hours of a size trained within a quarter first, not the 8-year cheapest', () => {
    const a = ask('how many gpu hours to train llama3-70b on 15T tokens', { publicUrl: null });
    const d = a.data as NodesOk;
    expect(d.days).toBeGreaterThan(365);
    const faster = fasterThanAYear(d);
    expect(faster?.days).toBeLessThanOrEqual(90);
    // Led by that size's GPU-hours, then its cluster and time; the fewest GPU-hours (the figures' plan) after, with their years.
    expect(a.headline).toMatch(/^GPU-hours to train Llama 3 70B \(15\.0T tokens\) on H100 SXM5 80GB: /);
    expect(a.headline).toContain(`: ${compactCount(faster?.gpuHours ?? 0)} GPU-hours on ${nodesGpus(faster ?? d)}, ${formatDays(faster?.days ?? 0)}; `);
    expect(a.headline).toContain(`the fewest, ${compactCount(d.gpuHours)} GPU-hours, take ${formatDays(d.days)} on ${nodesGpus(d)}`);
  });

  it('"how many GPU-hours … on 2T tokens": the fewest\'s days between one year and two said as over a year, beside those days', () => {
    const a = ask('how many gpu hours to train llama3-70b on 2T tokens', { publicUrl: null });
    const d = a.data as NodesOk;
    // 402 days here: over a year, under the two from which formatDays says years itself.
    expect(d.days).toBeGreaterThan(365);
    expect(d.days).toBeLessThan(730);
    expect(a.headline).toContain(`the fewest, ${compactCount(d.gpuHours)} GPU-hours, take ${formatDays(d.days)} (over a year) on ${nodesGpus(d)}, whose plan the figures show`);
  });

  it('within a year the cheapest\'s own GPU-hours lead', () => {
    const a = ask('how many gpu hours to train llama3-8b on 1T tokens', { publicUrl: null });
    const d = a.data as NodesOk;
    expect(d.days).toBeLessThanOrEqual(365);
    expect(a.headline).toContain(`: ${compactCount(d.gpuHours)} GPU-hours on ${nodesGpus(d)}, ${formatDays(d.days)}, the fewest of any cluster size`);
  });

  it('on a named cluster the GPU-hours come before the days', () => {
    const a = ask('how many gpu hours to train llama3-70b on 2T tokens on 512 H100', { publicUrl: null });
    const d = a.data as NodesOk;
    expect(a.headline).toMatch(new RegExp(`: ${compactCount(d.gpuHours)} GPU-hours, ${formatDays(d.days)} to train 2\\.00T tokens on 64 nodes`));
  });

  it.each([
    ['how many H100-hours to train llama3-8b on 1T tokens on 64 H100'],
    ['how many H100 GPU-hours to train llama3-8b on 1T tokens on 64 H100'],
    ['how many A100 GPU-hours to train llama3-8b on 1T tokens on 64 A100'],
  ])('%s: GPU-hours on the 64 GPUs named, never a nodes search to a default deadline', (question) => {
    const a = ask(question, { publicUrl: null });
    const d = a.data as NodesOk;
    expect(a.assumptions.join(' ')).not.toContain('deadline');
    expect(a.headline).toContain(`: ${compactCount(d.gpuHours)} GPU-hours, ${formatDays(d.days)} to train 1.00T tokens on 8 nodes (64 GPUs)`);
  });

  it('"how many node-hours": the GPU-hours, and node-hours as GPU-hours over the GPUs a node holds', () => {
    const a = ask('how many node-hours to train llama3-8b on 1T tokens on 64 H100', { publicUrl: null });
    const d = a.data as NodesOk;
    expect(a.notes).toContain(`Node-hours = GPU-hours / 8 GPUs per node: ${compactCount(d.gpuHours / 8)} node-hours.`);
  });

  it('a cost asked with a deadline and no price: the nodes it needs, their GPU-hours, and how to get a cost', () => {
    const a = ask('what does it cost to train llama3-70b on 15T tokens in 60 days on H100', { publicUrl: null });
    const d = a.data as NodesOk;
    expect(a.headline).toContain(` for ${compactCount(d.gpuHours)} GPU-hours (deadline 60 days)`);
    expect(a.notes).toContain('No price given, so no cost in money: the cost is these GPU-hours × a price per GPU-hour; give one ("at $2/GPU-hour") for it.');
  });

  it('a pricing term with no price ("on-demand", "spot") is said to price nothing: no price list is kept', () => {
    for (const term of ['on-demand', 'spot', 'reserved']) {
      const a = ask(`what does it cost to train llama3-8b on 1T tokens in 30 days on H100 ${term}`, { publicUrl: null });
      expect(a.notes.find((n) => n.startsWith('No price given'))).toContain(`"${term}" prices nothing here: trainplan keeps no price list`);
    }
    // No term, no such clause.
    const plain = ask('what does it cost to train llama3-8b on 1T tokens in 30 days on H100', { publicUrl: null });
    expect(plain.notes.find((n) => n.startsWith('No price given'))).not.toContain('prices nothing here');
  });

  it('on the cheapest curve too (no cluster size): "on AWS p5 on-demand" is said to price nothing (QA: only "Give a price…" was said)', () => {
    const a = ask('what does it cost to train llama3-70b on 2T tokens on AWS p5 on-demand', { publicUrl: null });
    expect(a.ok).toBe(true);
    expect((a.data as { mode?: string }).mode).toBe('cost-time-frontier');
    expect(a.notes).toContain('Give a price ("at $2/GPU-hour") for the cost in money: GPU-hours × the price per GPU-hour. '
      + '"on-demand" prices nothing here: trainplan keeps no price list, prices differing by provider, region and date.');
  });

  it('a cheapest question that does not ask GPU-hours keeps its cluster first', () => {
    expect(ask('cheapest way to train llama3-70b on 15T tokens', { publicUrl: null }).headline).toMatch(/^Cheapest for Llama 3 70B \(15\.0T tokens\) on H100 SXM5 80GB: \d+ nodes/);
  });
});
