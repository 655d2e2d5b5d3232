import type { EstimateOk } from '@trainplan/protocol';
import { formatNumber, formatPercent, formatSeconds } from '@trainplan/units';
import { compactCount } from '../format.ts';
import type { AnswerFigure } from './answer-types.ts';

/** The figure an estimate question asks for: tokens/s, HFU, TFLOP/s per GPU, or (any other) the step time and MFU. */
export type AskedMetric = 'tokens-per-second' | 'hfu' | 'tflops' | 'step';

const METRICS: readonly [AskedMetric, RegExp][] = [
  ['hfu', /\bhfu\b|\bhardware flops? utili[sz]ation\b/],
  ['tokens-per-second', /\btokens?\s*(?:\/|per)\s*s(?:ec(?:ond)?)?\b|\btoks?\s*\/\s*s\b|\bthroughput\b/],
  ['tflops', /\btflop\/?s\b|\btflops\b/],
];

/** What a question's words ask an estimate for, first named wins in METRICS' order; 'step' when none ("mfu", "step time"). */
export function askedMetric(text: string): AskedMetric {
  const lower = text.toLowerCase();
  return METRICS.find(([, pattern]) => pattern.test(lower))?.[0] ?? 'step';
}

/**
 * An estimate said as the question asks it, what it asked first: "73.2k tokens/s (57.3 s per step, 53.5% MFU)",
 * "57.7% HFU (24.5 s per step, 57.7% MFU)", "180 TFLOP/s per GPU (…)"; "24.5 s per step, 57.7% MFU" otherwise.
 */
export function leadWithAsked(e: EstimateOk, metric: AskedMetric): string {
  const step = `${formatSeconds(e.stepTimeSeconds)} per step, ${formatPercent(e.mfu)} MFU`;
  switch (metric) {
    case 'tokens-per-second':
      return `${compactCount(e.tokensPerSecond)} tokens/s (${step})`;
    case 'hfu':
      return `${formatPercent(e.hfu)} HFU (${step})`;
    case 'tflops': {
      // Hardware TFLOP/s count the recomputed forward passes too: said when they differ from the model's.
      const hardware = e.hardwareTflopsPerGpu > e.modelTflopsPerGpu ? `, ${formatNumber(e.hardwareTflopsPerGpu)} counting recompute` : '';
      return `${formatNumber(e.modelTflopsPerGpu)} TFLOP/s per GPU${hardware} (${step})`;
    }
    case 'step':
      return step;
  }
}

/** The figures with the one asked for among them: HFU after MFU when asked (the figures show MFU alone otherwise). */
export function withAskedFigure(figures: AnswerFigure[], e: EstimateOk, metric: AskedMetric): AnswerFigure[] {
  if (metric !== 'hfu') return figures;
  const at = figures.findIndex((f) => f.label === 'MFU');
  const hfu = { label: 'HFU', value: formatPercent(e.hfu) };
  return at < 0 ? [...figures, hfu] : [...figures.slice(0, at + 1), hfu, ...figures.slice(at + 1)];
}
