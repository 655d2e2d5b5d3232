import { describe, expect, it } from 'vitest';
import { runInference } from '../../src/index.ts';
import { INTERACTIVE_TTFT_SECONDS } from '../../src/search/inference-messages.ts';

const request = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, maxDecodeSecondsPerToken: 0.05 };
const ttft = /^the best plan's time to first token is .*MLPerf Inference's Llama 2 70B server scenario bounds it at 2 s/;

describe('inference: a best plan whose static batch keeps its first token waiting', () => {
  it('without a bound on the time to first token, a best plan past 2 s says so, naming its batch', () => {
    const a = runInference(request);
    if (!a.ok || !a.best) throw new Error('expected a best plan');
    expect(a.best.prefillSeconds).toBeGreaterThan(INTERACTIVE_TTFT_SECONDS);
    const warning = a.warnings?.find((w) => ttft.test(w));
    expect(warning).toContain(`its batch of ${a.best.batch} prompts is prefilled together`);
  });

  it('with a bound given, the best plan keeps to it and nothing is said', () => {
    const a = runInference({ ...request, maxPrefillSeconds: INTERACTIVE_TTFT_SECONDS });
    if (!a.ok || !a.best) throw new Error('expected a best plan');
    expect(a.best.prefillSeconds).toBeLessThanOrEqual(INTERACTIVE_TTFT_SECONDS);
    expect(a.warnings?.some((w) => ttft.test(w))).toBe(false);
  });

  it('a best plan under 2 s without a bound is not warned about (a short prompt, a small latency bound)', () => {
    const a = runInference({ ...request, promptTokens: 128, maxDecodeSecondsPerToken: 0.013 });
    if (!a.ok || !a.best) throw new Error('expected a best plan');
    expect(a.best.prefillSeconds).toBeLessThanOrEqual(INTERACTIVE_TTFT_SECONDS);
    expect(a.warnings?.some((w) => ttft.test(w))).toBe(false);
  });
});

describe('inference without any latency bound (throughput, as for offline batch work)', () => {
  const unbounded = /^with no latency bound the best plan is the highest throughput, as for offline batch work: its time to first token is ([\d.]+) s; for an interactive service give maxDecodeSecondsPerToken and maxPrefillSeconds/;
  it('says once that the throughput plan\'s first token is past the interactive bound, and what to give for a service', () => {
    const { maxDecodeSecondsPerToken: _, ...throughput } = request;
    const a = runInference(throughput);
    if (!a.ok || !a.best) throw new Error('expected a best plan');
    expect(a.best.prefillSeconds).toBeGreaterThan(INTERACTIVE_TTFT_SECONDS);
    expect(a.warnings?.some((w) => ttft.test(w))).toBe(false);
    const said = a.warnings?.filter((w) => unbounded.test(w)) ?? [];
    expect(said).toHaveLength(1);
    expect(Number(unbounded.exec(said[0]!)![1])).toBeCloseTo(a.best.prefillSeconds, 0);
  });
  it('says nothing when the throughput plan\'s first token is within it (continuous batching: one prompt\'s prefill and an iteration)', () => {
    const { maxDecodeSecondsPerToken: _, ...throughput } = request;
    const a = runInference({ ...throughput, model: 'llama3-8b', promptTokens: 256, outputTokens: 64, batching: 'continuous' });
    if (!a.ok || !a.best) throw new Error('expected a best plan');
    if (a.best.prefillSeconds > INTERACTIVE_TTFT_SECONDS) throw new Error(`expected a first token within 2 s, got ${a.best.prefillSeconds}`);
    expect(a.warnings?.some((w) => unbounded.test(w))).toBe(false);
  });
});
