import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

describe('a percentile on a latency bound is read as the bound, said as taken on the mean (the model gives mean latencies)', () => {
  it.each([
    ['serve llama3-70b on 8 h100 with p99 ttft 500ms', { maxFirstTokenSeconds: 0.5 }, 'the p99 time to first token (≤ 500 ms) taken as a bound on its mean'],
    ['serve llama3-70b on 8 h100, ttft p99 under 500 ms', { maxFirstTokenSeconds: 0.5 }, 'the p99 time to first token (≤ 500 ms) taken as a bound on its mean'],
    ['serve llama3-70b on 8 h100, 500 ms p99 ttft', { maxFirstTokenSeconds: 0.5 }, 'the p99 time to first token (≤ 500 ms) taken as a bound on its mean'],
    ['serve llama3-70b on 8 h100 with 95th percentile time to first token of 1 s', { maxFirstTokenSeconds: 1 }, 'the p95 time to first token (≤ 1.00 s) taken as a bound on its mean'],
    ['serve llama3-70b on 8 h100 with median ITL 30 ms', { maxTokenSeconds: 0.03 }, 'the median time per output token (≤ 30.0 ms) taken as a bound on its mean'],
    ['serve llama3-70b on 8 h100 with p99 tpot under 50 ms', { maxTokenSeconds: 0.05 }, 'the p99 time per output token (≤ 50.0 ms) taken as a bound on its mean'],
  ])('"%s"', (question, bounds, said) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject(bounds);
    const a = ask(question);
    expect(a.ok).toBe(true);
    expect(a.assumptions.find((t) => t.startsWith(said))).toMatch(/tail runs longer|tails run longer/);
  });

  it('a mean is the model\'s own latency: read, and nothing said of it', () => {
    const q = parse('serve llama3-70b on 8 h100 with mean ttft 1 s');
    expect(q.stated.maxFirstTokenSeconds).toBe(1);
    expect(q.defaults.map((d) => d.text).join(' ')).not.toMatch(/bound on its mean/);
  });

  it('a latency naming neither the first token nor each next ("p50 latency under 1s") is said as not read, never dropped unsaid', () => {
    const q = parse('serve llama3-70b on 8 h100 with p50 latency under 1s');
    expect(q.stated.maxFirstTokenSeconds).toBeUndefined();
    expect(q.defaults.map((d) => d.text)).toContain('"p50 latency under 1s" not read as a bound: the plan bounds the time to first token ("ttft under 1 s") '
      + 'and the time per output token ("50 ms per token") apart, so say which');
  });

  it.each(['serve llama3-70b under 50 ms on h100', 'serve llama3-70b with p95 under 50 ms on h100'])(
    '"%s", a bound naming no latency at all, is said as not read too (the default bounds were taken unsaid)', (question) => {
      const q = parse(question);
      expect(q.stated.maxTokenSeconds).toBeUndefined();
      expect(q.defaults.map((d) => d.text)).toContainEqual(expect.stringMatching(/^"(p95 )?under 50 ms" not read as a bound: /));
    });

  it('a named bound is read, not said as unread', () => {
    const q = parse('serve llama3-70b at under 50 ms per token on h100');
    expect(q.stated.maxTokenSeconds).toBeCloseTo(0.05, 12);
    expect(q.defaults.map((d) => d.text).join(' ')).not.toMatch(/not read as a bound/);
  });

  it('a collective\'s latency is no serving bound', () => {
    expect(parse('all-reduce latency of 1 GB on 64 h100').defaults.map((d) => d.text).join(' ')).not.toMatch(/not read as a bound/);
  });
});
