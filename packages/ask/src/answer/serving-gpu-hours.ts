import type { InferencePointJson } from '@trainplan/protocol';
import { countOf, HOURS_PER_DAY } from '@trainplan/units';
import { GPU_HOURS_WORD } from '../lexicon/user-load.ts';
import { normalize } from '../parse.ts';
import type { AskParameters } from '../question.ts';
import type { AnswerFigure } from './answer-types.ts';
import { spanServed } from './serving-cost.ts';

const grouped = (n: number): string => Math.round(n).toLocaleString('en-US');

/**
 * The GPU-hours a service takes, where the question asks them ("how many GPU-hours to host llama3-70b for a month"): the
 * GPUs it holds (with a load, the GPUs the load takes; on GPUs named, all of them; else one replica's) × the hours it is up,
 * every GPU held counted busy or not, as a cloud bills it. Over the span served where one is given (serving-cost.ts
 * spanServed: "for a month" is 30 days, 720 hours), else an hour's and a day's. None for a budget in GPU-hours (`gpuHours`),
 * which serving-budget.ts weighs. QA: the GPU-hours asked were answered with tokens/s alone.
 */
export function gpuHoursFigure(x: InferencePointJson, p: AskParameters, gpus: number | undefined, text: string, spanSeconds?: number): AnswerFigure[] {
  if (p.gpuHours !== undefined || !GPU_HOURS_WORD.test(normalize(text))) return [];
  const held = x.load?.gpus ?? gpus ?? x.gpus;
  const whose = x.load !== undefined ? `the ${countOf(held, 'GPU')} the load takes` : gpus !== undefined ? `the ${countOf(held, 'GPU')} named` : `one replica's ${countOf(held, 'GPU')}`;
  const span = spanServed(spanSeconds);
  const value = span === undefined
    ? `${grouped(held)} an hour, ${grouped(held * HOURS_PER_DAY)} a day: ${whose}, busy or not (give a span, e.g. "for a month", for its total)`
    : `${grouped(held * span.hours)} for ${span.words}: ${whose} × ${grouped(span.hours)} hours, busy or not`;
  return [{ label: 'GPU-hours', value }];
}
