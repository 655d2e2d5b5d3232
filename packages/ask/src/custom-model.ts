import { parameterCount, withShapeDefaults } from '@trainplan/model';
import { MODEL_IDS, modelById, type ModelPreset } from '@trainplan/presets';
import type { ModelObjectInput } from '@trainplan/protocol';
import { compactCount } from './format.ts';

/**
 * A GPT-style dense decoder of about a size no preset has ("a 30B model"), so a bare size is planned
 * rather than declined. The width and heads are a published pair: those of the GPT-3 (Brown et al. 2020,
 * Table 2.1) or Megatron weak-scaling (Narayanan et al. SC'21, Table 1) model nearest in size, read from
 * the presets; the layer count is the one whose parameter count (packages/model's parameterCount,
 * SC'21 eq. 2 with the final norm) lands nearest the size asked.
 */

/** A model the question sized but no preset has: the shape planned and how it was chosen. */
export interface CustomModel {
  /** The contract's model object (scenario `model`), with a name for humans ("GPT-style 30B"). */
  shape: ModelObjectInput;
  /** The size the question asked, which budgets such as 20 tokens per parameter are taken from. */
  askedParameters: number;
  /** The shape's own parameter count. */
  parameters: number;
}

export type CustomModelResult = { ok: true; model: CustomModel; reading: string } | { ok: false; problem: string };

/** The preset families whose rows are published GPT shapes (gpt3-*, megatron-*; mt-nlg-530b repeats a megatron row). */
const SHAPE_FAMILIES = ['gpt3-', 'megatron-'] as const;

/** The scenario contract's model object takes at most this many layers (protocol's scenario schema). */
export const MAX_CUSTOM_LAYERS = 1000;

/** How far the nearest layer count may leave the asked size; beyond it the size is declined, not misplanned. */
export const CUSTOM_SIZE_TOLERANCE = 0.1;

const rows = (): readonly ModelPreset[] =>
  MODEL_IDS.filter((id) => SHAPE_FAMILIES.some((f) => id.startsWith(f))).flatMap((id) => modelById(id) ?? []);

/** The row nearest in size on a log scale, so that 30B is nearer 39.1B than 18.4B. */
function nearestRow(parameters: number): ModelPreset {
  const all = rows();
  const distance = (p: ModelPreset): number => Math.abs(Math.log(p.publishedParameters / parameters));
  return all.reduce((best, row) => (distance(row) < distance(best) ? row : best));
}

/** "Narayanan et al. 2021 … Table 1": the citation's authors and year, and the table its note names. */
function citation(row: ModelPreset): string {
  const authors = /^[^,]+ et al\. \d{4}/.exec(row.source.title)?.[0] ?? row.source.title;
  const table = /^Table [\d.]+/.exec(row.source.note ?? '')?.[0];
  return table === undefined ? authors : `${authors}, ${table}`;
}

const shapeWith = (row: ModelPreset, layers: number, name: string): ModelObjectInput => ({
  name,
  layers,
  hiddenSize: row.shape.hiddenSize,
  attentionHeads: row.shape.attentionHeads,
  vocabSize: row.shape.vocabSize,
  seqLength: row.shape.seqLength,
});

/** The parameter count of a model object, by packages/model's counter (GPT conventions for the unstated fields). */
const countOf = (shape: ModelObjectInput): number => parameterCount(withShapeDefaults(shape));

/**
 * A GPT-style decoder of about `parameters` (`asked` is how the question wrote the size, "30B"), or
 * why none is planned: smaller than one layer and the embeddings of GPT-3 Small, or needing more layers
 * than the contract takes.
 */
export function customModelOfSize(parameters: number, asked: string): CustomModelResult {
  const row = nearestRow(parameters);
  const name = `GPT-style ${asked}`;
  const one = countOf(shapeWith(row, 1, name));
  const perLayer = countOf(shapeWith(row, 2, name)) - one;
  // The count is linear in L: the nearest whole L to the exact solution, at least one.
  const layers = Math.max(1, Math.round((parameters - one) / perLayer + 1));
  if (layers > MAX_CUSTOM_LAYERS) {
    return { ok: false, problem: `${asked} parameters is too large to plan: at the width of ${row.shape.name}, the widest published GPT shape, it needs ${layers} layers, more than the ${MAX_CUSTOM_LAYERS} a model takes` };
  }
  const shape = shapeWith(row, layers, name);
  const count = countOf(shape);
  if (Math.abs(count - parameters) / parameters > CUSTOM_SIZE_TOLERANCE) {
    return { ok: false, problem: `${asked} parameters is smaller than any GPT-style decoder planned here: one layer at the width of ${row.shape.name} has ${compactCount(count)} parameters, most of them the ${row.shape.vocabSize}-token embedding` };
  }
  const sizes = rows().map((r) => r.publishedParameters);
  const outside = parameters > Math.max(...sizes) || parameters < Math.min(...sizes)
    ? `; outside the published sizes (${compactCount(Math.min(...sizes))} to ${compactCount(Math.max(...sizes))}), so the depth is extrapolated (${row.shape.name} has ${row.shape.layers} layers)`
    : '';
  const reading = `${asked} taken as a GPT-style decoder (no preset has that size): ${layers} layers, hidden ${shape.hiddenSize}, ${shape.attentionHeads} heads, `
    + `vocabulary ${shape.vocabSize}, ${shape.seqLength}-token sequences (~${compactCount(count)} parameters); width and heads of ${row.shape.name} `
    + `(${citation(row)}), the published shape nearest in size, with the layer count that lands nearest ${asked}${outside}`;
  return { ok: true, model: { shape, askedParameters: parameters, parameters: count }, reading };
}
