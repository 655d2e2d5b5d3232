import { describe, expect, it } from 'vitest';
import type { EstimateOk, SearchResponseJson } from '@trainplan/protocol';
import { formatNumber, formatPercent } from '@trainplan/units';
import { ask } from '../src/answer/answer.ts';
import { askedMetric } from '../src/answer/asked-metric.ts';
import { compactCount } from '../src/format.ts';

/** The estimate an answer's figures are for: the search's best plan, or the stated layout's estimate. */
const estimateOf = (data: unknown): EstimateOk => {
  const searched = data as Extract<SearchResponseJson, { ok: true }>;
  return searched.best !== undefined ? searched.best.estimate : (data as EstimateOk);
};

describe('an estimate question leads with what it asks', () => {
  it.each([
    ['tokens per second for llama 3 8b on 8 h100', 'tokens-per-second'],
    ['tokens per second per gpu for llama2-70b on 512 a100s', 'tokens-per-second-per-gpu'],
    ['tokens/s per gpu for llama2-70b on 512 a100s', 'tokens-per-second-per-gpu'],
    ['tokens/s/gpu for llama2-70b on 512 a100s', 'tokens-per-second-per-gpu'],
    ['per-gpu throughput of llama2-70b on 512 a100s', 'tokens-per-second-per-gpu'],
    ['tokens per gpu per second for llama2-70b on 512 a100s', 'tokens-per-second-per-gpu'],
    ['throughput of llama 3 8b on 8 h100', 'tokens-per-second'],
    ['tok/s for llama 3 8b on 8 h100', 'tokens-per-second'],
    ['hfu of gpt3 175b on 1024 a100', 'hfu'],
    ['tflops per gpu for gpt3 175b on 1024 a100', 'tflops'],
    ['what MFU does gpt3-175b get on 1024 A100s', 'step'],
    ['step time of llama 3 8b on 8 h100', 'step'],
  ])('"%s" asks for %s', (question, metric) => {
    expect(askedMetric(question)).toBe(metric);
  });

  it('"tokens per second for llama 3 8b on 8 h100" heads with the best plan\'s tokens/s, then its step time and MFU', () => {
    const a = ask('tokens per second for llama 3 8b on 8 h100', { publicUrl: null });
    const e = estimateOf(a.data);
    expect(a.headline).toMatch(new RegExp(`^Llama 3 8B on H100 SXM5 80GB × 8 GPUs: ${compactCount(e.tokensPerSecond).replace('.', '\\.')} tokens/s \\(`));
    expect(a.headline).toContain(`${formatPercent(e.mfu)} MFU`);
  });

  it('"hfu of gpt3 175b on 1024 a100" heads with the HFU, and says it among the figures after MFU', () => {
    const a = ask('hfu of gpt3 175b on 1024 a100', { publicUrl: null });
    const e = estimateOf(a.data);
    expect(a.headline).toMatch(new RegExp(`^GPT-3 175B on A100 SXM4 80GB × 1,024 GPUs: ${formatPercent(e.hfu).replace('.', '\\.')} HFU \\(`));
    const labels = a.figures.map((f) => f.label);
    expect(labels.indexOf('HFU')).toBe(labels.indexOf('MFU') + 1);
    expect(a.figures.find((f) => f.label === 'HFU')?.value).toBe(formatPercent(e.hfu));
  });

  it('with full recompute the HFU asked is above the MFU (the recomputed forward counts as hardware FLOPs)', () => {
    const a = ask('hfu of gpt3 175b on 1024 a100 with full recompute', { publicUrl: null });
    const e = estimateOf(a.data);
    expect(e.hfu).toBeGreaterThan(e.mfu);
    expect(a.headline).toContain(`${formatPercent(e.hfu)} HFU`);
  });

  it('"tflops per gpu" heads with the model TFLOP/s per GPU', () => {
    const a = ask('tflops per gpu for gpt3 175b on 1024 a100', { publicUrl: null });
    const e = estimateOf(a.data);
    expect(a.headline).toMatch(new RegExp(`^GPT-3 175B on A100 SXM4 80GB × 1,024 GPUs: ${formatNumber(e.modelTflopsPerGpu)} TFLOP/s per GPU`));
  });

  it('a stated layout leads with the tokens/s asked as well', () => {
    const a = ask('tokens per second for llama 3 8b on 8 h100 with tp 2 pp 1', { publicUrl: null });
    const e = estimateOf(a.data);
    expect(e.resolved.tensor).toBe(2);
    expect(a.headline).toMatch(new RegExp(`^Llama 3 8B on H100 SXM5 80GB: ${compactCount(e.tokensPerSecond).replace('.', '\\.')} tokens/s \\(`));
  });

  it.each([
    'tokens/s per gpu for llama2-70b on 512 a100s',
    'tokens per second per gpu for llama2-70b on 512 a100s with tp 2 pp 8',
  ])('"%s" heads with one GPU\'s tokens/s: the cluster\'s over its GPUs, both said, and a figure of it', (question) => {
    const a = ask(question, { publicUrl: null });
    const e = estimateOf(a.data);
    const perGpu = compactCount(e.tokensPerSecond / e.resolved.gpus);
    expect(a.headline).toContain(`: ${perGpu} tokens/s per GPU (${compactCount(e.tokensPerSecond)} tokens/s on the 512 GPUs; `);
    expect(a.figures.find((f) => f.label === 'Tokens/s per GPU')?.value).toBe(perGpu);
    // The throughput figure still says the cluster's.
    expect(a.figures.find((f) => f.label === 'Throughput')?.value.startsWith(`${compactCount(e.tokensPerSecond)} tokens/s`)).toBe(true);
  });
});
