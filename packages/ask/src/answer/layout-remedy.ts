import { pipelineSplit } from '@trainplan/model';
import type { FieldIssue } from '@trainplan/protocol';
import { countOf } from '@trainplan/units';
import { clusterGpusOf, gpusPerNodeOf } from '../defaults.ts';
import { modelShapeOf, splitsOver } from '../model-of.ts';
import type { AskParameters } from '../question.ts';

/**
 * A stated layout whose TP × PP × CP does not divide the cluster's GPUs (the protocol's rule 'gpus-indivisible': "8 GPUs
 * are not divisible by tensor × pipeline × context = 16"), with the fix, as other refusals give one ("give a multiple of 8"):
 * the size the question stated at most or dividing what the others leave, in its words ("with tp 8"), and the GPUs the
 * layout itself would fill. Every size suggested is one the model takes: a TP that splits its heads (model-of.ts'
 * splitsOver, the planner's rule), a PP of Megatron's split of its layers (@trainplan/model's pipelineSplit, so never more
 * stages than layers: GPT-3's 96 take no PP 128).
 */

/** The model-parallel sizes whose product must divide the GPUs, as answers name them and questions write them. */
const SIZES = [
  { field: 'tensor', name: 'TP', word: 'tp' },
  { field: 'pipeline', name: 'PP', word: 'pp' },
  { field: 'context', name: 'CP', word: 'cp' },
] as const;
type SizeField = (typeof SIZES)[number]['field'];

/** The divisors of `n` up to `most`, largest first. */
const divisorsUpTo = (n: number, most: number): number[] =>
  Array.from({ length: Math.min(n, most) }, (_, i) => Math.min(n, most) - i).filter((d) => n % d === 0);

/** Whether the model takes `size` for `field`: TP splitting its heads, PP a Megatron split of its layers; any where the model is unknown. */
function modelTakes(p: AskParameters, field: SizeField, size: number): boolean {
  const shape = modelShapeOf(p);
  if (shape === undefined) return true;
  if (field === 'tensor') return splitsOver(shape, size);
  if (field === 'pipeline') return pipelineSplit(shape.layers, size) !== undefined;
  return true;
}

/** What the model's limit on a size is, said where it, not the GPUs, decided the size suggested. */
function takesText(p: AskParameters, field: SizeField): string {
  const shape = modelShapeOf(p);
  if (field === 'tensor') return "splits the model's attention heads";
  if (field === 'pipeline') return `splits the model's ${shape === undefined ? 'layers' : countOf(shape.layers, 'layer')}`;
  return '';
}

/**
 * A layout the question can state instead, e.g. "tp 8 pp 8" for TP 8 · PP 7 on 1,024 GPUs: TP the largest within one
 * NVLink node (at most 8) that divides the GPUs and splits the heads; the CP stated where it divides what TP leaves; PP
 * the size nearest the one stated (by ratio; fewer stages on a tie) among those dividing what TP × CP leave that split
 * the layers. Every one divides the GPUs; PP 1 always qualifies.
 */
function dividingLayout(p: AskParameters, stated: AskParameters, gpus: number): string {
  const perNode = gpusPerNodeOf(p);
  const tensor = [8, 4, 2, 1].find((t) => t <= perNode && gpus % t === 0 && modelTakes(p, 'tensor', t)) ?? 1;
  const cp = stated.context;
  const context = cp !== undefined && cp > 1 && (gpus / tensor) % cp === 0 ? cp : 1;
  const room = gpus / (tensor * context);
  const aim = stated.pipeline ?? 1;
  const off = (pp: number): number => Math.abs(Math.log(pp / aim));
  const pipeline = divisorsUpTo(room, room).filter((pp) => modelTakes(p, 'pipeline', pp))
    .reduce((best, pp) => (off(pp) < off(best) || (off(pp) === off(best) && pp < best) ? pp : best), 1);
  return `tp ${tensor} pp ${pipeline}${context > 1 ? ` cp ${context}` : ''}`;
}

/**
 * "TP can be at most 8 on 8 GPUs ("with tp 8"), or ask on 16 GPUs"; undefined when the issues break no such rule or the
 * cluster is unknown. `p`: the parameters planned (defaults filled), `stated`: what the question gave. The other cluster
 * ("or ask on 16 GPUs") is offered only where the model takes the sizes stated: on more GPUs, Llama 3's 8 key/value
 * heads still refuse TP 16.
 */
export function indivisibleRemedy(issues: readonly FieldIssue[] | undefined, p: AskParameters, stated: AskParameters): string | undefined {
  if (!(issues ?? []).some((i) => i.rule === 'gpus-indivisible')) return undefined;
  const gpus = clusterGpusOf(p);
  if (gpus === undefined || !(gpus > 0)) return undefined;
  const sizeOf = (field: SizeField | 'data'): number => p[field] ?? 1;
  const product = SIZES.reduce((x, s) => x * sizeOf(s.field), 1);
  const taken = SIZES.every((s) => modelTakes(p, s.field, sizeOf(s.field)));
  const more = product > gpus && taken ? `, or ask on ${countOf(product, 'GPU')}` : '';
  // TP × PP × CP divides the GPUs but the DP stated does not fill them ("512 H100 with tp 8 pp 8 dp 16"): the DP is the fix,
  // the GPUs over the model-parallel ones (Megatron's rule: data = world size / (tensor × pipeline × context)), not the layout asked.
  if (stated.data !== undefined && gpus % product === 0 && product * sizeOf('data') !== gpus) {
    const data = gpus / product;
    const other = product * (stated.data ?? 1);
    const also = taken && Number.isInteger(other) && other > 0 ? `, or ask on ${countOf(other, 'GPU')}` : '';
    return `DP must be the ${countOf(gpus, 'GPU')} over TP × PP × CP = ${product}: DP ${data} ("with dp ${data}", or leave DP out)${also}`;
  }
  const asked = SIZES.filter((s) => stated[s.field] !== undefined);
  const [one] = asked;
  // One size stated: it alone must divide the GPUs, as the sizes taken by default fit round it (defaults.ts' TP divides what PP and CP leave).
  if (asked.length === 1 && one !== undefined) {
    const size = sizeOf(one.field);
    const dividing = divisorsUpTo(gpus, size);
    const fits = dividing.find((d) => modelTakes(p, one.field, d)) ?? 1;
    // Said where the model, not the GPUs, keeps the size below the largest that divides them.
    const model = fits === dividing[0] ? '' : ` and ${takesText(p, one.field)}`;
    if (size > gpus) {
      const most = fits === gpus ? '' : `; ${one.name} ${fits} is the most that divides them${model}`;
      return `${one.name} can be at most ${gpus} on ${countOf(gpus, 'GPU')}${most} ("with ${one.word} ${fits}")${more}`;
    }
    return `${one.name} must divide the ${countOf(gpus, 'GPU')}: ${one.name} ${fits} does${model} ("with ${one.word} ${fits}")${more}`;
  }
  return `give a TP × PP × CP that divides the ${countOf(gpus, 'GPU')} (e.g. "${dividingLayout(p, stated, gpus)}")${more}`;
}
