import { GPU_IDS, MODEL_IDS } from '@trainplan/presets';
import { MAX_DRAFT_TOKENS } from '@trainplan/protocol';
import { hours, million, thousand, toMs } from '@trainplan/units';
import { ids, type FieldSpec, type FieldValues } from '../form/fields.ts';
import { CUSTOM_OPTION, SEQ_FIELD, SHAPE_DEFAULTS, SHAPE_FIELDS } from '../form/model-shape.ts';

/**
 * `<trainplan-serving>`'s inputs as data: each name is also its attribute (`model="llama3-70b"
 * max-token-ms="50"`). The bounds are the inference request schema's (@trainplan/protocol, inference.ts:
 * prompt and output up to 10 M tokens, latency bounds up to an hour, up to 65,536 GPUs and a million requests/s, a price up to 100,000,
 * 1 to 16 draft tokens), checked here in the field's own unit, so "at most 3,600,000" is said beside a field in ms
 * rather than 3600 (seconds). test/serving-request.test.ts holds them to the schema. A custom shape (`model="custom" layers="80"
 * hidden-size="8192" …`) takes the estimator's attributes, form/model-shape.ts.
 */
const MAX_TOKENS = million(10);
const MAX_BOUND_SECONDS = hours(1);
const MAX_GPUS = 65_536;
const MAX_REQUESTS_PER_SECOND = million(1);
const MAX_PRICE_PER_GPU_HOUR = thousand(100);

// Speculative decoding has a fieldset of its own: in Requests' grid (dense flow), γ filled the gap before its draft
// model's full-width row.
export const SERVING_GROUPS = [
  ['model', 'Model and GPU'], ['requests', 'Requests'], ['speculation', 'Speculative decoding'], ['limits', 'GPUs and latency bounds'],
] as const;

export const SERVING_FIELDS: readonly FieldSpec[] = [
  { name: 'model', label: 'Model', kind: 'select', group: 'model', wide: true, options: [...ids(MODEL_IDS), CUSTOM_OPTION] },
  // The estimator's custom shape fields, shown only with model "custom". The request has no sequence length of
  // its own (a preset's is the model's), so it is the shape's here. Blank: the context, prompt + output tokens
  // ("prompt + output" is cut off in a 106 px text box, test/serving.browser.test.ts), so the protocol warns of
  // a longer context only for a length the reader states. It is not only a check: a custom shape's learned
  // positions are seq × hidden parameters (GPT-style, @trainplan/model's defaults).
  ...SHAPE_FIELDS,
  { ...SEQ_FIELD, customOnly: true, hint: 'the context' },
  { name: 'gpu', label: 'GPU', kind: 'select', group: 'model', wide: true, options: ids(GPU_IDS) },
  // Blank: the protocol's default for the GPU (bf16, or fp16 on a V100, which has no BF16 tensor cores).
  { name: 'precision', label: 'Precision', kind: 'select', group: 'model', options: [['', 'GPU default'], ...ids(['bf16', 'fp16', 'fp8'])] },
  // The KV cache's own format (vLLM's kv_cache_dtype): blank, the weights' precision; fp8 holds twice the sequences.
  { name: 'kv-cache', label: 'KV cache', kind: 'select', group: 'model', options: [['', 'as weights'], ...ids(['fp8', 'bf16', 'fp16'])] },
  { name: 'prompt', label: 'Prompt (tokens)', kind: 'length', min: 1, max: MAX_TOKENS, group: 'requests' },
  { name: 'output', label: 'Output (tokens)', kind: 'length', min: 1, max: MAX_TOKENS, group: 'requests' },
  { name: 'batching', label: 'Batching', kind: 'select', group: 'requests', options: [['continuous', 'continuous'], ['static', 'static']] },
  // Continuous batching only (the protocol says so beside this field otherwise): blank prefills each prompt whole.
  { name: 'prefill-chunk', label: 'Prefill chunk (tokens)', kind: 'length', min: 1, max: MAX_TOKENS, optional: true, group: 'requests', hint: 'whole prompt' },
  // Continuous batching only, as the chunk: a system prompt every request opens with, cached once (prefix caching).
  { name: 'shared-prefix', label: 'Shared prefix (tokens)', kind: 'length', min: 1, max: MAX_TOKENS, optional: true, group: 'requests', hint: 'none' },
  // Speculative decoding (Leviathan et al. 2023): a preset draft model proposes γ tokens a step, the target checks
  // them in one pass and keeps each with chance α. Blank: none, and γ and α are hidden and not sent.
  { name: 'draft-model', label: 'Draft model', kind: 'select', group: 'speculation', wide: true, options: [['', 'none'], ...ids(MODEL_IDS)] },
  { name: 'draft-tokens', label: 'Draft tokens (γ)', kind: 'integer', min: 1, max: MAX_DRAFT_TOKENS, group: 'speculation', shownWith: 'draft-model' },
  { name: 'acceptance', label: 'Acceptance (α, 0–1)', kind: 'number', above: 0, max: 1, group: 'speculation', shownWith: 'draft-model' },
  { name: 'gpus', label: 'GPUs', kind: 'integer', min: 1, max: MAX_GPUS, optional: true, group: 'limits', hint: 'one replica' },
  // Continuous batching only, as the chunk: requests per second to serve; the plan shown is then the one needing the fewest GPUs.
  { name: 'rate', label: 'Requests/s', kind: 'number', above: 0, max: MAX_REQUESTS_PER_SECOND, optional: true, group: 'limits', hint: 'none' },
  { name: 'max-token-ms', label: 'Per token ≤ (ms)', kind: 'number', above: 0, max: toMs(MAX_BOUND_SECONDS), optional: true, group: 'limits', hint: 'no bound' },
  { name: 'max-ttft', label: 'First token ≤ (s)', kind: 'number', above: 0, max: MAX_BOUND_SECONDS, optional: true, group: 'limits', hint: 'no bound' },
  // A price per GPU-hour, any currency: each plan then says what a million generated tokens cost at it, in that currency
  // (the label says so: "1.90 per million output tokens" had no unit, QA; the CLI says "in --price's currency").
  { name: 'price', label: 'Price per GPU-hour (any currency)', kind: 'number', above: 0, max: MAX_PRICE_PER_GPU_HOUR, optional: true, group: 'limits', hint: 'no cost' },
  // vLLM's gpu_memory_utilization: the fraction of each GPU's memory the server may fill.
  { name: 'gpu-memory', label: 'GPU memory used (0–1)', kind: 'number', above: 0, max: 1, optional: true, group: 'limits', hint: 'all' },
];

export const SERVING_FIELD_NAMES: readonly string[] = SERVING_FIELDS.map((f) => f.name);

/**
 * What a bare `<trainplan-serving>` shows: the API's own inference example (Llama 3 70B on H100, 2,048
 * prompt and 512 output tokens). Batching is continuous here, not the protocol's static default: it is how
 * vLLM, TensorRT-LLM and TGI serve, so it is what a docs reader deploys (the chat bot assumes it too).
 */
export const SERVING_DEFAULTS: FieldValues = {
  model: 'llama3-70b', ...SHAPE_DEFAULTS, seq: '', gpu: 'h100-sxm', precision: '', 'kv-cache': '', prompt: '2048', output: '512', batching: 'continuous', 'prefill-chunk': '', 'shared-prefix': '', 'gpu-memory': '',
  gpus: '', rate: '', price: '', 'max-token-ms': '', 'max-ttft': '',
  // No draft model, so no speculation; choosing one starts from the protocol's worked example, 4 drafted tokens
  // accepted with chance 0.7 (mid-range of the 0.5–0.9 Leviathan et al. 2023 report). Values, not placeholders:
  // they are what is sent.
  'draft-model': '', 'draft-tokens': '4', acceptance: '0.7',
};
