import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { periodOf } from '../src/answer/serving-cost.ts';
import { figure } from './support/serving.ts';

describe('a serving cost asked per month, day or year is given per that period', () => {
  it('"how much per month … at $2.5/hr": the hour\'s cost × 720 hours (30 days, as a month is read everywhere), said so', () => {
    const a = ask('how much per month to rent enough H100 to serve llama3-70b at 50 req/s at $2.5/hr', { publicUrl: null });
    expect(a.ok).toBe(true);
    const hourly = /\$([\d.]+) an hour/.exec(a.headline)?.[1];
    expect(hourly).toBeDefined();
    const monthly = /\$([\d.]+)k a month: 720 hours, a month taken as 30 days/.exec(a.headline)?.[1];
    expect(Number(monthly) * 1000).toBeCloseTo(Number(hourly) * 720, -3);
    expect(figure(a, 'Cost')).toContain('a month: 720 hours');
  });

  it('reads the periods, and not a rate\'s "per day"', () => {
    expect(periodOf('how much monthly')?.hours).toBe(720);
    expect(periodOf('cost per day')?.hours).toBe(24);
    expect(periodOf('what does it cost a year')?.hours).toBe(8760);
    expect(periodOf('serve 1M requests per day at $2/gpu-hour')).toBeUndefined();
    expect(periodOf('serve llama at $2/gpu-hour')).toBeUndefined();
  });

  it('no period asked, no period said', () => {
    const a = ask('serve llama3-70b on H100 at 50 req/s at $2.5/gpu-hour', { publicUrl: null });
    expect(a.headline).toMatch(/\$[\d.]+ an hour/);
    expect(a.headline).not.toMatch(/a month|a day|a year/);
  });
});

describe('a serving memory question leads with memory, and warns of a context past the model\'s', () => {
  it('"how much VRAM to serve a 70b model with 128k context": weights and KV cache first, the context warned, the latency after', () => {
    const a = ask('how much VRAM to serve a 70b model with 128k context', { publicUrl: null });
    expect(a.intent).toBe('serving');
    expect(a.headline).toMatch(/^Llama 3 70B on H100 SXM5 80GB: the smallest replica that holds it is TP \d+ · PP \d+ \(\d+ GPUs?\): weights [\d.]+ GiB per GPU; the rest, [\d.]+ GiB, a KV cache for up to \d+ concurrent requests? \([\d.]+ GiB on average per request on each GPU, paged\)$/);
    expect(a.headline).not.toMatch(/no plan meets/);
    expect(a.notes[0]).toMatch(/^the context \(130,560 prompt \+ 512 output = 131,072 tokens\) is longer than Llama 3 70B's sequence length \(8,192 tokens\)/);
    expect(a.notes.some((n) => n.startsWith("Latency, the figures being the closest plan's: no plan meets"))).toBe(true);
  });
});
