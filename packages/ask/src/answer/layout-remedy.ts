import type { FieldIssue } from '@trainplan/protocol';
import { countOf } from '@trainplan/units';
import { clusterGpusOf } from '../defaults.ts';
import type { AskParameters } from '../question.ts';
import { layoutOf } from './stated-data-note.ts';

/**
 * A stated layout whose TP × PP × CP does not divide the cluster's GPUs (the protocol's rule 'gpus-indivisible': "8 GPUs
 * are not divisible by tensor × pipeline × context = 16"), with the fix, as other refusals give one ("give a multiple of 8"):
 * the size the question stated at most or dividing what the others leave, in its words ("with tp 8"), and the GPUs the
 * layout itself would fill.
 */

/** The model-parallel sizes whose product must divide the GPUs, as answers name them and questions write them. */
const SIZES = [
  { field: 'tensor', name: 'TP', word: 'tp' },
  { field: 'pipeline', name: 'PP', word: 'pp' },
  { field: 'context', name: 'CP', word: 'cp' },
] as const;

/** The divisors of `n` up to `most`, largest first. */
const divisorsUpTo = (n: number, most: number): number[] =>
  Array.from({ length: Math.min(n, most) }, (_, i) => Math.min(n, most) - i).filter((d) => n % d === 0);

/**
 * "TP can be at most 8 on 8 GPUs ("with tp 8"), or ask on 16 GPUs"; undefined when the issues break no such rule or the
 * cluster is unknown. `p`: the parameters planned (defaults filled), `stated`: what the question gave.
 */
export function indivisibleRemedy(issues: readonly FieldIssue[] | undefined, p: AskParameters, stated: AskParameters): string | undefined {
  if (!(issues ?? []).some((i) => i.rule === 'gpus-indivisible')) return undefined;
  const gpus = clusterGpusOf(p);
  if (gpus === undefined || !(gpus > 0)) return undefined;
  const sizeOf = (field: (typeof SIZES)[number]['field']): number => p[field] ?? 1;
  const product = SIZES.reduce((x, s) => x * sizeOf(s.field), 1);
  const more = product > gpus ? `, or ask on ${countOf(product, 'GPU')}` : '';
  const asked = SIZES.filter((s) => stated[s.field] !== undefined);
  const [one] = asked;
  // One size stated: it alone must divide the GPUs, as the sizes taken by default fit round it (defaults.ts' TP divides what PP and CP leave).
  if (asked.length === 1 && one !== undefined) {
    const size = sizeOf(one.field);
    if (size > gpus) return `${one.name} can be at most ${gpus} on ${countOf(gpus, 'GPU')} ("with ${one.word} ${gpus}")${more}`;
    const fits = divisorsUpTo(gpus, size)[0] ?? 1;
    return `${one.name} must divide the ${countOf(gpus, 'GPU')}: ${one.name} ${fits} does ("with ${one.word} ${fits}")${more}`;
  }
  return `give a TP × PP × CP that divides the ${countOf(gpus, 'GPU')} (e.g. "${layoutOf(gpus)}")${more}`;
}
