import { countOf, days, toHours } from '@trainplan/units';
import { gpusPerNodeOf } from '../defaults.ts';
import { compactCount, moneyText, nodesGpus } from '../format.ts';
import { priceText } from '../lexicon/price.ts';
import type { ParsedQuestion } from '../question.ts';
import type { Answer, AnswerFigure } from './answer-types.ts';
import { gpuName } from './describe-estimate.ts';
import { answerHelp } from './help-answer.ts';
import { belowOneProblem } from './whole-counts.ts';

/**
 * "What does it cost per day to run 128 H100 nodes at $2/GPU-hour": a cluster's price with no model is
 * arithmetic, GPUs × hours × the price per GPU-hour, no plan. The answer says so and points to the
 * question that plans a run on it.
 */

/** The periods a cluster's cost is given for, in days. */
const PERIODS: readonly [label: string, days: number][] = [['Per hour', 1 / 24], ['Per day', 1], ['Per week', 7], ['Per 30 days', 30]];

export function answerRate(q: ParsedQuestion): Answer {
  const p = q.parameters;
  // No protocol is asked, so none refuses "0 nodes": said as it would be, not priced at $0 a day.
  const none = belowOneProblem('nodes', p.nodes) ?? belowOneProblem('gpus', p.gpus) ?? belowOneProblem('gpusPerNode', p.gpusPerNode);
  if (none !== undefined) return answerHelp(q, [none]);
  const price = p.pricePerGpuHour ?? 0;
  const perNode = gpusPerNodeOf(p);
  const gpus = p.gpus ?? (p.nodes ?? 0) * perNode;
  const cluster = p.nodes !== undefined ? nodesGpus({ nodes: p.nodes, gpus }) : countOf(gpus, 'GPU');
  const money = (gpuHours: number): string => moneyText(gpuHours * price, p.currency);
  const hoursIn = (d: number): number => toHours(days(d));
  const figures: AnswerFigure[] = PERIODS.map(([label, d]) => {
    const gpuHours = gpus * hoursIn(d);
    return { label, value: `${money(gpuHours)}: ${compactCount(gpuHours)} GPU-hours` };
  });
  const currency = p.currency === undefined ? ' (in the currency given)' : '';
  return {
    intent: 'rate',
    kind: 'answer',
    ok: true,
    question: q.text,
    headline: `${cluster} of ${gpuName(p.gpu ?? '')} at ${priceText(price, p.currency)}/GPU-hour: ${money(gpus * hoursIn(1))} a day, ${money(gpus)} an hour${currency}`,
    figures,
    assumptions: q.defaults.map((d) => d.text),
    notes: [
      'GPUs × hours × the price per GPU-hour, whatever runs on them.',
      'Name a model and tokens ("how long to train llama3-70b on 2T tokens on these nodes") for what a training run costs.',
    ],
    examples: [],
  };
}
