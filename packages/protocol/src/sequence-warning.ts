import type { ModelShape } from '@trainplan/model';
import { formatCount, formatGrouped } from '@trainplan/units';
import type { ResolvedScenarioInput } from './resolved.ts';

/**
 * A training sequence longer than the model states (its preset's published length, or the shape's own): the estimate
 * is given at the longer length, with a warning, as POST /v1/inference warns of a context longer than it. With learned
 * absolute positions (GPT-2/3) the position table grows to the new length, one row of h per token, and the parameter
 * count with it (model/parameters.ts); rotary and ALiBi models add nothing, but training beyond the published length
 * is a long-context stage (Llama 3.1's went from 8K to 128K tokens: Dubey et al. 2024, §3.4.2), not the published run.
 *
 * `input` is the scenario's model field: a preset's length is the published one; a shape's is its own, and a shape that
 * left positionEmbedding out took the contract's learned default (model/shape.ts), which a rotary model given by its
 * shape (a Llama) did not mean: the warning names the field that says so (QA: Llama 3 8B at 131,072 tokens counted
 * 503 M position parameters "more than published", naming no fix).
 */
export function sequenceWarnings(model: ModelShape, seqLength: number | undefined, input: ResolvedScenarioInput['model']): string[] {
  if (seqLength === undefined || seqLength <= model.seqLength) return [];
  const name = model.name === 'custom' ? 'the custom model' : model.name;
  const longer = `the sequence length (${formatGrouped(seqLength)} tokens) is longer than ${name}'s (${formatGrouped(model.seqLength)} tokens)`;
  // A shape's positions default to learned (model/shape.ts): said so, with the field a rotary model sets.
  const fix = typeof input === 'object' && input.positionEmbedding === undefined ? ' (learned by default: a rotary model sets model.positionEmbedding "rotary")' : '';
  return [model.positionEmbedding === 'learned'
    ? `${longer}: its learned position embedding is counted at ${formatGrouped(seqLength)} positions, ${formatCount((seqLength - model.seqLength) * model.hiddenSize)} parameters more${fix}`
    : `${longer}: estimated as a long-context training stage at that length`];
}
