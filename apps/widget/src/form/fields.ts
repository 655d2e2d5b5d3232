import { GPU_IDS, MODEL_IDS, NETWORK_IDS } from '@trainplan/presets';
import { MAX_CLUSTER_NODES, MAX_GPUS_PER_NODE } from '@trainplan/protocol';
import { CUSTOM_MODEL, CUSTOM_OPTION, SEQ_FIELD, SHAPE_DEFAULTS, SHAPE_FIELDS } from './model-shape.ts';

/**
 * The widget's inputs as data: each field's name is also the attribute a docs author sets on
 * `<trainplan-estimator>` to pin an example (`model="gpt3-175b" tp="8" pp="8"`). Values are kept as
 * the strings a reader typed; `scenarioFromFields` turns them into a contract scenario. A `count` takes decimal
 * suffixes (300B tokens), a `length` in tokens binary ones (8k = 8,192, parse-field.ts), as the CLI reads each. No name is one of
 * HTML's global attributes: `hidden="4096"` would hide the whole element (the hidden size is `hidden-size`).
 */
export type FieldKind = 'select' | 'integer' | 'count' | 'length' | 'number' | 'checkbox';

export interface FieldSpec {
  readonly name: string;
  readonly label: string;
  readonly kind: FieldKind;
  /** For selects: [value, label]. */
  readonly options?: readonly (readonly [string, string])[];
  /** A bound the value must exceed (a latency bound of 0 means nothing); `min` is one it may equal. */
  readonly above?: number;
  readonly min?: number;
  readonly max?: number;
  /** Empty allowed (the contract's default applies). */
  readonly optional?: boolean;
  /** Which fieldset it is drawn in (each element names its own: template.ts, serving-template.ts). */
  readonly group: string;
  /** Shown only when the model is "custom". */
  readonly customOnly?: boolean;
  /**
   * Shown, and read, only while the field it names is not blank: speculative decoding's draft tokens and
   * acceptance rate only with a draft model. Hidden, it is left out of the request, its issue with it.
   */
  readonly shownWith?: string;
  /** Drawn across its fieldset's whole row: a select whose options are ids as long as `megatron-529.6b`. */
  readonly wide?: boolean;
  /**
   * An empty text input's placeholder: what a blank means. Short, since a text box is 106 px wide at its
   * narrowest (test/layout.browser.test.ts); "blank:" goes without saying, as a placeholder shows only then.
   * A checkbox's is a line under it, in words for the reader (it has no placeholder).
   */
  readonly hint?: string;
}

/**
 * Whether `spec` is hidden, and left unparsed, for `values`: a custom shape's field while the model is a preset
 * (`customOnly`), or a field whose `shownWith` field is blank. The one rule for both: the form hides
 * (shadow-form.ts, `showFields`) exactly what the request leaves out (`parseFields`' skip).
 */
export const hiddenFor = (values: Readonly<Record<string, string>>) => (spec: FieldSpec): boolean =>
  (spec.customOnly === true && values.model !== CUSTOM_MODEL)
  || (spec.shownWith !== undefined && (values[spec.shownWith] ?? '').trim() === '');

/** Select options whose labels are their ids (the presets' ids are what a docs author writes). */
export const ids = (list: readonly string[]) => list.map((id) => [id, id] as const);

/**
 * The Precision option for FP8 weights: precision fp8 with training.fp8Params, Megatron's --fp8-param-gather (NeMo's
 * fp8_params), which keeps no 16-bit copy of the weights and runs with the distributed optimizer (the protocol refuses it
 * without). Wide: its label is longer than a 106 px select holds (test/layout.browser.test.ts).
 */
export const FP8_PARAMS = 'fp8-params';

export const FIELDS: readonly FieldSpec[] = [
  { name: 'model', label: 'Model', kind: 'select', group: 'model', wide: true, options: [...ids(MODEL_IDS), CUSTOM_OPTION] },
  ...SHAPE_FIELDS,
  SEQ_FIELD,
  { name: 'gpu', label: 'GPU', kind: 'select', group: 'cluster', wide: true, options: ids(GPU_IDS) },
  { name: 'network', label: 'Network', kind: 'select', group: 'cluster', wide: true, options: [['', 'default for the GPU'], ...ids(NETWORK_IDS)] },
  { name: 'nodes', label: 'Nodes', kind: 'integer', min: 1, max: MAX_CLUSTER_NODES, group: 'cluster' },
  { name: 'gpus-per-node', label: 'GPUs per node', kind: 'integer', min: 1, max: MAX_GPUS_PER_NODE, optional: true, group: 'cluster', hint: "the system's" },
  { name: 'gbs', label: 'Global batch (sequences)', kind: 'integer', min: 1, max: 1_000_000_000, group: 'batch' },
  { name: 'mbs', label: 'Micro-batch', kind: 'integer', min: 1, max: 1_000_000, group: 'batch' },
  { name: 'precision', label: 'Precision', kind: 'select', group: 'batch', wide: true, options: [...ids(['bf16', 'fp16', 'fp8']), [FP8_PARAMS, 'fp8, FP8 weights']] },
  { name: 'recompute', label: 'Recompute', kind: 'select', group: 'batch', options: ids(['none', 'selective', 'full']) },
  { name: 'tp', label: 'Tensor (t)', kind: 'integer', min: 1, max: 64_000, group: 'parallelism' },
  { name: 'pp', label: 'Pipeline (p)', kind: 'integer', min: 1, max: 64_000, group: 'parallelism' },
  { name: 'vp', label: 'Virtual stages (v)', kind: 'integer', min: 1, max: 1000, group: 'parallelism' },
  { name: 'cp', label: 'Context (c)', kind: 'integer', min: 1, max: 64_000, group: 'parallelism' },
  { name: 'sp', label: 'Sequence parallel', kind: 'checkbox', group: 'parallelism' },
  { name: 'distopt', label: 'Distributed optimizer', kind: 'checkbox', group: 'parallelism' },
  { name: 'auto', label: 'Auto: search the fastest', kind: 'checkbox', group: 'parallelism', wide: true, hint: 'Tries t, p, v, c, micro-batch and recompute, and fills in the fastest plan that fits.' },
  { name: 'tokens', label: 'Token budget', kind: 'count', min: 1, max: 1e15, optional: true, group: 'budget', hint: 'e.g. 300B, 2T' },
  { name: 'days', label: 'Deadline (days)', kind: 'number', min: 0.01, max: 36_500, optional: true, group: 'budget' },
];

export const FIELD_NAMES: readonly string[] = FIELDS.map((f) => f.name);

export type FieldValues = Record<string, string>;

/** The example a bare `<trainplan-estimator>` shows: the contract's GPT-3 175B on 128 DGX A100. */
export const DEFAULT_VALUES: FieldValues = {
  model: 'gpt3-175b', ...SHAPE_DEFAULTS, seq: '',
  gpu: 'a100-80gb', network: '', nodes: '128', 'gpus-per-node': '',
  gbs: '1536', mbs: '1', precision: 'bf16', recompute: 'full',
  tp: '8', pp: '8', vp: '1', cp: '1', sp: 'false', distopt: 'false', auto: 'false',
  tokens: '300B', days: '30',
};
