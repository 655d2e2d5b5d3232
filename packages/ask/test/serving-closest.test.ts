import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

describe('a model that does not fit on the GPUs named for serving', () => {
  const a = ask('will 405B fit on 8 H100s for inference', { publicUrl: null });
  const seconds = (label: string): number => {
    const value = a.figures.find((f) => f.label === label)?.value ?? '';
    const m = /^([\d.]+) (ms|s)\b/.exec(value);
    if (m === null) throw new Error(`no time in ${label}: ${value}`);
    return Number(m[1]) * (m[2] === 'ms' ? 1e-3 : 1);
  };
  it('offers the fewest GPUs that serve, at a batch within the latency bounds, not its largest batch past them', () => {
    expect(a.ok).toBe(false);
    // 12 as TP 4 · PP 3, the CLI's remedy (answer-fewest-serving.test.ts); 16 as TP 8 · PP 2 before, powers of two alone tried.
    expect(a.configuration).toMatch(/^closest that works, not what was asked: TP \d+ · PP \d+ on 12 GPUs$/);
    // The default bounds: each next token within 200 ms, the first within 2 s.
    expect(seconds('Time per output token (closest)')).toBeLessThanOrEqual(0.2);
    expect(seconds('Time to first token (closest)')).toBeLessThanOrEqual(2);
    expect(a.notes[0]).toMatch(/^Closest that works: 12 GPUs \(TP \d+ · PP \d+\), the fewest that serve within the bounds \(the count the CLI's inference names\), hold it, with up to [\d,]+ requests at a time/);
  });
  it('says FP8 weights would fit on the 8 GPUs, and asked in FP8 they do', () => {
    expect(a.notes).toContainEqual(expect.stringMatching(/^In FP8 .* it fits on the 8 GPUs: TP \d+ · PP \d+ holds up to/));
    const fp8 = ask('will 405B fit on 8 H100s for inference in fp8', { publicUrl: null });
    expect(fp8.ok).toBe(true);
    expect(fp8.headline).toMatch(/fits/);
  });
  it('names no FP8 on a GPU without FP8 tensor cores', () => {
    const a100 = ask('will 405B fit on 8 A100 80GB for inference', { publicUrl: null });
    expect(a100.ok).toBe(false);
    expect(a100.notes.some((n) => n.startsWith('In FP8'))).toBe(false);
  });
});
