import type { EstimateOk } from '@trainplan/protocol';
import { countOf, formatGrouped, formatPercent, formatSeconds } from '@trainplan/units';
import { compactCount } from '../format.ts';
import type { AnswerFigure } from './answer-types.ts';
import { mfuText } from './describe-estimate.ts';

/** The figure an estimate question asks for: tokens/s (the cluster's, or one GPU's), HFU, TFLOP/s per GPU, or (any other) the step time and MFU. */
export type AskedMetric = 'tokens-per-second' | 'tokens-per-second-per-gpu' | 'hfu' | 'tflops' | 'step';

/** "per GPU", "/gpu", "each GPU", "per device": a figure asked of one GPU, not of the cluster. */
export const PER_GPU = /(?:\bper|\/|\beach|\bfor each)[\s-]*(?:gpu|device|chip|accelerator)s?\b/;
const TOKEN_RATE = String.raw`\btokens?\s*(?:\/|per)\s*s(?:ec(?:ond)?)?\b|\btoks?\s*\/\s*s\b|\bthroughput\b`;

const METRICS: readonly [AskedMetric, RegExp][] = [
  ['hfu', /\bhfu\b|\bhardware flops? utili[sz]ation\b/],
  // "tokens per second per gpu", "tokens/s/gpu", "per-gpu throughput", "tokens per gpu per second": before the cluster's.
  ['tokens-per-second-per-gpu', new RegExp(String.raw`(?:${TOKEN_RATE})\s*${PER_GPU.source}|${PER_GPU.source}\s*(?:${TOKEN_RATE})|\btokens?\s*${PER_GPU.source}\s*(?:\/|per|a)\s*s(?:ec(?:ond)?)?\b`)],
  ['tokens-per-second', new RegExp(TOKEN_RATE)],
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
  const step = `${formatSeconds(e.stepTimeSeconds)} per step, ${mfuText(e, ' MFU')}`;
  switch (metric) {
    case 'tokens-per-second':
      return `${compactCount(e.tokensPerSecond)} tokens/s (${step})`;
    case 'tokens-per-second-per-gpu':
      return `${compactCount(tokensPerSecondPerGpu(e))} tokens/s per GPU (${compactCount(e.tokensPerSecond)} tokens/s on the ${countOf(e.resolved.gpus, 'GPU')}; ${step})`;
    case 'hfu':
      return `${formatPercent(e.hfu)} HFU (${step})`;
    case 'tflops': {
      // Hardware TFLOP/s count the recomputed forward passes too: said when they differ from the model's.
      const hardware = e.hardwareTflopsPerGpu > e.modelTflopsPerGpu ? `, ${formatGrouped(e.hardwareTflopsPerGpu)} counting recompute` : '';
      return `${formatGrouped(e.modelTflopsPerGpu)} TFLOP/s per GPU${hardware} (${step})`;
    }
    case 'step':
      return step;
  }
}

/** One GPU's share of the tokens a step trains a second: the estimate's tokens/s over its GPUs (every GPU trains the same share). */
export const tokensPerSecondPerGpu = (e: EstimateOk): number => e.tokensPerSecond / e.resolved.gpus;

/** `figure` after the one labelled `label`, or at the end where none is. */
function after(figures: AnswerFigure[], label: string, figure: AnswerFigure): AnswerFigure[] {
  const at = figures.findIndex((f) => f.label === label);
  return at < 0 ? [...figures, figure] : [...figures.slice(0, at + 1), figure, ...figures.slice(at + 1)];
}

/**
 * The figures with the one asked for among them: HFU after MFU, tokens/s per GPU after the throughput, when asked (the
 * figures show MFU and the cluster's tokens/s alone otherwise).
 */
export function withAskedFigure(figures: AnswerFigure[], e: EstimateOk, metric: AskedMetric): AnswerFigure[] {
  if (metric === 'hfu') return after(figures, 'MFU', { label: 'HFU', value: formatPercent(e.hfu) });
  if (metric === 'tokens-per-second-per-gpu') return after(figures, 'Throughput', { label: 'Tokens/s per GPU', value: compactCount(tokensPerSecondPerGpu(e)) });
  return figures;
}
