import { parameterCount, withShapeDefaults, type ModelShape } from '@trainplan/model';
import { MODEL_SOURCES, type ModelId, type ModelPreset } from '@trainplan/presets';
import type { ModelObjectInput } from '@trainplan/protocol';
import { rows, widthFor, type Width } from './custom-width.ts';
import { compactCount } from './format.ts';

/**
 * A decoder of about a size no preset has ("a 30B model", "llama 30b"), so a size is planned rather than
 * declined, in the style of a family of published rows: GPT-style for a bare size (the GPT-3, Brown et al.
 * 2020, Table 2.1, and Megatron weak-scaling, Narayanan et al. SC'21, Table 1, rows), Llama-style for a Llama
 * size (the Llama 2 and 3 rows, Touvron et al. 2023 and Dubey et al. 2024), all read from the presets.
 * GPT-style takes the width and heads of the family's row nearest in size. Llama-style interpolates the
 * width between the rows either side of the size (custom-width.ts), so 30B is shaped as Meta shaped Llama 1
 * 33B rather than as 94 layers of Llama 2 13B; the key/value heads, vocabulary and architecture (gated MLP,
 * untied embeddings, RMSNorm, rotary positions) are the nearer row's. The layer count is the one whose
 * parameter count (packages/model's parameterCount, SC'21 eq. 2 with the final norm) lands nearest the
 * size asked.
 */

/** A family of published rows a custom model is shaped from, and what of a row it takes besides the width and heads. */
export interface ShapeFamily {
  /** The model's name before its size: "GPT-style" → "GPT-style 30B". */
  style: string;
  /** The family as "the widest published … shape" names it ("GPT", "Llama 2"). */
  label: string;
  /** Preset ids the rows are read from, in the order ties prefer them. */
  prefixes: readonly string[];
  /**
   * Fields of the row's shape the model takes besides layers, width, heads, vocabulary and sequence length (an
   * interpolated width brings its own key/value heads and FFN width, which take the place of the row's).
   */
  fields: readonly Exclude<keyof ModelShape, 'name' | 'layers' | 'hiddenSize' | 'attentionHeads' | 'vocabSize' | 'seqLength'>[];
  /**
   * How the width is chosen: the nearest row's (`nearest`: GPT-3's and Megatron's widths follow no one rule,
   * 5140 for 13B), or interpolated between the rows either side of the size (`interpolated`: Llama's heads are
   * 128 wide and its FFN follows one formula, so a width between two rows is one Meta could have chosen).
   */
  width: 'nearest' | 'interpolated';
}

/**
 * The bare size's family: the GPT-3 and Megatron rows (mt-nlg-530b repeats a megatron row). The GPT conventions
 * (f = 4h, learned positions, biases, LayerNorm, tied embeddings) are the contract's defaults, so nothing more is taken.
 */
export const GPT_STYLE: ShapeFamily = { style: 'GPT-style', label: 'GPT', prefixes: ['gpt3-', 'megatron-'], fields: [], width: 'nearest' };

/** A Llama family's rows (`prefixes`: one version's, or all of them): the width interpolated, the nearer row's GQA and architecture kept. */
export const llamaStyle = (label: string, prefixes: readonly string[]): ShapeFamily => ({
  style: `${label}-style`,
  label,
  prefixes,
  fields: ['kvHeads', 'ffnHiddenSize', 'gatedMlp', 'tiedEmbeddings', 'positionEmbedding', 'linearBias', 'normalization'],
  width: 'interpolated',
});

/**
 * The fields of a decoder's shape as the request's model object takes them (the wire's ModelObjectInput,
 * packages/protocol/src/wire.ts): the five it requires, then the ones a Llama-like shape sets. Typed against it, so a
 * field renamed there fails to compile here rather than point a user at a field that is not read.
 */
const REQUIRED_SHAPE_FIELDS = ['layers', 'hiddenSize', 'attentionHeads', 'vocabSize', 'seqLength'] as const satisfies readonly (keyof ModelObjectInput)[];
const OPTIONAL_SHAPE_FIELDS = ['kvHeads', 'ffnHiddenSize', 'gatedMlp'] as const satisfies readonly (keyof ModelObjectInput)[];

/**
 * Where a model is refused as no preset and no size the chat plans (a family whose shape no preset has, a name not known):
 * the planner takes any decoder's shape as the request's model object, and `trainplan estimate --input` reads a scenario
 * with one. Said in the refusal so that a decoder the chat cannot name can still be planned (QA: refusals named only preset
 * ids and sizes). The fields in double quotes, as JSON writes them: an answer says them so (answer/plain-words.ts).
 */
export const SHAPE_AS_MODEL_OBJECT = `or give the decoder's shape as a scenario's model object to \`trainplan estimate --input\` `
  + `("model": {${REQUIRED_SHAPE_FIELDS.map((f) => `"${f}"`).join(', ')}}, optional ${OPTIONAL_SHAPE_FIELDS.map((f) => `"${f}"`).join(', ')})`;

/** What the planner models, said where another architecture is refused (lexicon/unmodelled-architectures.ts). */
export const DECODERS_PLANNED = `trainplan plans decoder-only transformers: name a preset (llama3-70b) or a size, planned as a GPT-style decoder ("a 7B model"), ${SHAPE_AS_MODEL_OBJECT}`;

/** What to ask for in place of a model no preset has, at the size asked ("30B"): a GPT-style decoder of that size, or its own shape. */
export const sizeOrShape = (asked: string): string => `ask for "a ${asked} model" to plan a GPT-style decoder of that size, ${SHAPE_AS_MODEL_OBJECT}`;

/** A model the question sized but no preset has: the shape planned and how it was chosen. */
export interface CustomModel {
  /** The contract's model object (scenario `model`), with a name for humans ("GPT-style 30B"). */
  shape: ModelObjectInput;
  /** The size the question asked, which budgets such as 20 tokens per parameter are taken from. */
  askedParameters: number;
  /** The shape's own parameter count. */
  parameters: number;
  /**
   * Dropout as the family's rows were trained (presets' trainedWithDropout: off for every Llama, on for GPT-3): the
   * contract gives a model object Megatron's default, on (protocol resolve.ts defaultDropout), which no Llama-style
   * decoder trained with (QA: a Llama 3-style 80B was planned with dropout's masks and their traffic).
   */
  trainedWithDropout: boolean;
}

export type CustomModelResult = { ok: true; model: CustomModel; reading: string } | { ok: false; problem: string };

/** The scenario contract's model object takes at most this many layers (protocol's scenario schema). */
export const MAX_CUSTOM_LAYERS = 1000;

/** How far the nearest layer count may leave the asked size; beyond it the size is declined, not misplanned. */
const CUSTOM_SIZE_TOLERANCE = 0.1;

/**
 * "Narayanan et al. 2021, Table 1": the citation's authors and year, and the table its note names when the note's
 * first sentence says that table gives the shape (Llama 2's Table 1 gives context and tokens; its widths are Llama 1's).
 */
function citation(row: ModelPreset): string {
  // A row is a preset (custom-width.ts reads them by MODEL_IDS), so its id is a ModelId.
  const source = MODEL_SOURCES[row.id as ModelId];
  const authors = /^[^,]+ et al\. \d{4}/.exec(source.title)?.[0] ?? source.title;
  const first = (source.note ?? '').split('. ')[0] ?? '';
  const table = /layers/.test(first) ? /^Table [\d.]+/.exec(first)?.[0] : undefined;
  return table === undefined ? authors : `${authors}, ${table}`;
}

/** The contract's model object of `layers` layers at `width`, with what the family takes of the width's row. */
function shapeWith(family: ShapeFamily, width: Width, layers: number, name: string, seqLength?: number): ModelObjectInput {
  const { row } = width;
  const shape: ModelObjectInput = {
    name,
    layers,
    hiddenSize: width.hiddenSize,
    attentionHeads: width.attentionHeads,
    vocabSize: row.shape.vocabSize,
    seqLength: seqLength ?? row.shape.seqLength,
  };
  return Object.assign(shape, Object.fromEntries(family.fields.map((field) => [field, row.shape[field]])), {
    ...(width.kvHeads !== undefined && { kvHeads: width.kvHeads }),
    ...(width.ffnHiddenSize !== undefined && { ffnHiddenSize: width.ffnHiddenSize }),
  });
}

/** What a Llama-style shape takes of its row besides the width and heads, as the reading says it. */
function architectureOf(shape: ModelObjectInput): string {
  if (shape.gatedMlp !== true) return '';
  const kv = shape.kvHeads !== undefined && shape.kvHeads !== shape.attentionHeads ? ` (${shape.kvHeads} key/value)` : '';
  return `${kv}, gated FFN ${shape.ffnHiddenSize ?? 4 * shape.hiddenSize} (SwiGLU)${shape.tiedEmbeddings === false ? ', untied embeddings' : ''}`
    + `${shape.normalization === 'rmsnorm' ? ', RMSNorm' : ''}${shape.positionEmbedding === 'rotary' ? ', rotary positions' : ''}`;
}

/** The parameter count of a model object, by packages/model's counter (GPT conventions for the unstated fields). */
const parametersOf = (shape: ModelObjectInput): number => parameterCount(withShapeDefaults(shape));

/**
 * A decoder of about `parameters` in the family's style (`asked` is how the question wrote the size, "30B"), or
 * why none is planned: smaller than one layer and the embeddings of the family's smallest row, or needing more
 * layers than the contract takes. A `seqLength` the question states is the model's (learned position
 * embeddings count it); without one, the row's.
 */
export function customModelOfSize(parameters: number, asked: string, family: ShapeFamily = GPT_STYLE, seqLength?: number): CustomModelResult {
  const width = widthFor(family, parameters);
  if (width === undefined) return { ok: false, problem: `no ${family.label} preset has a published shape to take a ${asked} model's from` };
  const { row } = width;
  const name = `${family.style} ${asked}`;
  const one = parametersOf(shapeWith(family, width, 1, name, seqLength));
  const perLayer = parametersOf(shapeWith(family, width, 2, name, seqLength)) - one;
  // The count is linear in L: the nearest whole L to the exact solution, at least one.
  const layers = Math.max(1, Math.round((parameters - one) / perLayer + 1));
  if (layers > MAX_CUSTOM_LAYERS) {
    return { ok: false, problem: `${asked} parameters is too large to plan: at the width of ${row.shape.name}, the widest published ${family.label} shape, it needs ${layers} layers, more than the ${MAX_CUSTOM_LAYERS} a model takes` };
  }
  const shape = shapeWith(family, width, layers, name, seqLength);
  const count = parametersOf(shape);
  if (Math.abs(count - parameters) / parameters > CUSTOM_SIZE_TOLERANCE) {
    return { ok: false, problem: `${asked} parameters is smaller than any ${family.style} decoder planned here: one layer at the width of ${row.shape.name} has ${compactCount(count)} parameters, most of them the ${row.shape.vocabSize}-token embedding` };
  }
  const sizes = rows(family).map((r) => r.publishedParameters);
  const outside = parameters > Math.max(...sizes) || parameters < Math.min(...sizes)
    ? `; outside the published sizes (${compactCount(Math.min(...sizes))} to ${compactCount(Math.max(...sizes))}), so the depth is extrapolated (${row.shape.name} has ${row.shape.layers} layers)`
    : '';
  const gpt = family.fields.length === 0;
  const described = `${asked} taken as a ${family.style} decoder (no ${gpt ? '' : `${family.label} `}preset has that size): ${layers} layers, hidden ${shape.hiddenSize}, `
    + `${shape.attentionHeads} heads${architectureOf(shape)}, vocabulary ${shape.vocabSize}, ${shape.seqLength}-token sequences (~${compactCount(count)} parameters); `;
  const layered = `with the layer count that lands nearest ${asked}${outside}`;
  const reading = width.between === undefined
    ? `${described}${gpt ? 'width and heads' : 'width, heads and FFN'} of ${row.shape.name} (${citation(row)}), the published ${gpt ? '' : `${family.label} `}shape nearest in size, ${layered}`
    : `${described}${interpolationReading(width, width.between, layered)}`;
  return { ok: true, model: { shape, askedParameters: parameters, parameters: count, trainedWithDropout: row.trainedWithDropout }, reading };
}

/** How an interpolated width was chosen, as the reading says it. */
function interpolationReading({ row, hiddenSize, attentionHeads }: Width, [lo, hi]: readonly [ModelPreset, ModelPreset], layered: string): string {
  return `width interpolated on a log scale of size between ${lo.shape.name} (${citation(lo)}) and ${hi.shape.name} (${citation(hi)}), `
    + `in heads of ${hiddenSize / attentionHeads}, ${layered}; key/value heads, FFN multiplier, vocabulary and architecture of ${row.shape.name}, the nearer in size`;
}
