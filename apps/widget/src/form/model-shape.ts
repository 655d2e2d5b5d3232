import type { ModelObjectInput } from '@trainplan/protocol';
import type { FieldSpec, FieldValues } from './fields.ts';

/**
 * A custom model shape as form fields, shared by both elements: `model="custom"` and the fields below
 * (each shown only then: `customOnly`) give the protocol's model object (scenario-schema.ts, `modelSchema`),
 * and the protocol's issues about it (`model.hiddenSize`, …) come back beside these fields.
 */
export const CUSTOM_MODEL = 'custom';
/** The model select's last option. */
export const CUSTOM_OPTION = [CUSTOM_MODEL, 'custom shape…'] as const;

export const SHAPE_FIELDS: readonly FieldSpec[] = [
  { name: 'layers', label: 'Layers', kind: 'integer', min: 1, max: 1000, group: 'model', customOnly: true },
  { name: 'hidden-size', label: 'Hidden size', kind: 'integer', min: 1, max: 1_000_000, group: 'model', customOnly: true },
  { name: 'heads', label: 'Attention heads', kind: 'integer', min: 1, max: 100_000, group: 'model', customOnly: true },
  { name: 'kv-heads', label: 'KV heads', kind: 'integer', min: 1, max: 100_000, optional: true, group: 'model', customOnly: true, hint: '= heads' },
  { name: 'ffn', label: 'FFN size', kind: 'integer', min: 1, max: 10_000_000, optional: true, group: 'model', customOnly: true, hint: '4 × hidden' },
  { name: 'vocab', label: 'Vocabulary', kind: 'integer', min: 1, max: 10_000_000, group: 'model', customOnly: true },
  { name: 'gated', label: 'Gated MLP (SwiGLU)', kind: 'checkbox', group: 'model', customOnly: true },
];

/**
 * The sequence length in tokens. The estimator shows it for every model (a preset's is overridden by the
 * training's); an element that has no such override shows it with the custom shape only.
 */
export const SEQ_FIELD: FieldSpec = {
  name: 'seq', label: 'Sequence length', kind: 'length', min: 1, max: 10_000_000, optional: true, group: 'model', hint: "the model's",
};

/** The shape a form opens with when the reader picks "custom shape…" (a 24-layer, 2,048-wide GPT, 1.3 B parameters). */
export const SHAPE_DEFAULTS: FieldValues = {
  layers: '24', 'hidden-size': '2048', heads: '16', 'kv-heads': '', ffn: '', vocab: '51200', gated: 'false',
};

/**
 * The parsed shape fields → the protocol's model object, with `seqLength` as the element decides it. A blank
 * KV heads or FFN size is left out, so the protocol's defaults apply (attentionHeads, 4 × hiddenSize).
 */
export function modelShape(v: Readonly<Record<string, number | string | boolean | undefined>>, seqLength: number): ModelObjectInput {
  const num = (name: string) => v[name] as number;
  return {
    layers: num('layers'), hiddenSize: num('hidden-size'), attentionHeads: num('heads'), vocabSize: num('vocab'),
    seqLength, gatedMlp: v.gated === true, name: CUSTOM_MODEL,
    ...(v['kv-heads'] !== undefined ? { kvHeads: num('kv-heads') } : {}),
    ...(v.ffn !== undefined ? { ffnHiddenSize: num('ffn') } : {}),
  };
}

/** A value as a field shows it: blank for none. */
export const str = (x: unknown): string => (x === undefined || x === null ? '' : String(x));

/** A model object → the shape fields showing it (the sequence length is the element's to place). */
export function shapeValues(m: ModelObjectInput): FieldValues {
  return {
    model: CUSTOM_MODEL, layers: str(m.layers), 'hidden-size': str(m.hiddenSize), heads: str(m.attentionHeads),
    'kv-heads': str(m.kvHeads), ffn: str(m.ffnHiddenSize), vocab: str(m.vocabSize), gated: str(m.gatedMlp ?? false),
  };
}

/** The protocol's issue paths about a model (scenario `model`, inference request `model`) → the field showing each. */
export const SHAPE_PATH_TO_FIELD: Readonly<Record<string, string>> = {
  model: 'model', 'model.layers': 'layers', 'model.hiddenSize': 'hidden-size', 'model.attentionHeads': 'heads',
  'model.kvHeads': 'kv-heads', 'model.ffnHiddenSize': 'ffn', 'model.vocabSize': 'vocab', 'model.seqLength': 'seq',
};
