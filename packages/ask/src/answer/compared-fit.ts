import type { EstimateJson } from '@trainplan/protocol';
import { modelShapeOf } from '../model-of.ts';
import type { AskParameters, DefaultUsed, ParsedQuestion } from '../question.ts';
import { fittingHeadline, fittingLayout, fittingNote, type FittingLayout } from './fitting-layout.ts';

/**
 * A compared layout that runs out of memory, as the same layout asked alone is answered (estimate-answer.ts): the fewest
 * pipeline stages that fit at its TP (fitting-layout.ts). Where the question leaves its PP out, the PP is the bot's
 * choice, made for each layout on its own: the default, no pipeline (defaults.ts, as for one layout), unless that is out of
 * memory, then the fewest stages that fit on the same GPUs ("compare tp 4 vs tp 8 for llama3-70b on 64 h100": TP 4 at the
 * PP it fits with, TP 8 at its own), so a too-small PP the question never asked for does not fail every layout. Where the
 * question states the PP, the layout stays as asked and refused, and the fit is said after it, as alone.
 */

/** One layout's question: its facts, its parameters (defaults filled) and the defaults taken. */
export interface LayoutQuestion {
  stated: AskParameters;
  parameters: AskParameters;
  defaults: DefaultUsed[];
}

/** What comparing a layout plans: the layout at the fewest stages that fit, or the one asked with the fit said after its refusal. */
export type ComparedFit =
  | { kind: 'fitted'; question: LayoutQuestion; result: EstimateJson; note: string }
  | { kind: 'asked'; hint?: string };

/** "the fewest …" after a colon, of a sentence that opens "The fewest …". */
const lowerFirst = (text: string): string => `${text.charAt(0).toLowerCase()}${text.slice(1)}`;

/** Whether a fit keeps the comparison's cluster: the same GPUs as the other layouts (fitting-layout.ts' lever 'kept'). */
const onSameGpus = (fit: FittingLayout): boolean => fit.lever.cluster === 'kept';

export function fitCompared(q: ParsedQuestion, x: LayoutQuestion, result: EstimateJson): ComparedFit {
  if (result.ok || result.reason !== 'out-of-memory') return { kind: 'asked' };
  const search = fittingLayout({ ...q, stated: x.stated, parameters: x.parameters }, result);
  const fit = search !== undefined && 'fit' in search ? search.fit : undefined;
  if (fit === undefined) return { kind: 'asked' };
  const layers = modelShapeOf(x.parameters)?.layers;
  if (x.stated.pipeline !== undefined || !onSameGpus(fit) || layers === undefined) return { kind: 'asked', hint: fittingHeadline(fit, x.parameters) };
  // The default "no pipeline parallelism" is not what this layout runs: its note says the depth and why.
  const defaults = x.defaults.filter((d) => d.field !== 'pipeline' && !(d.field === 'recompute' && fit.parameters.recompute !== x.parameters.recompute));
  return {
    kind: 'fitted',
    question: { stated: x.stated, parameters: fit.parameters, defaults },
    result: fit.estimate,
    note: `no PP asked: ${lowerFirst(fittingNote(fit, x.parameters, layers))}`,
  };
}
