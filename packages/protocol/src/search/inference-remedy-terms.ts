/**
 * How an inference remedy names the request fields it changes: as numbered slots in its words, which each surface
 * writes in its own terms (the API by the request's JSON paths, the CLI by its flags, in their units).
 */
import type { InferenceRemedyJson, RemedyFieldJson } from './inference-json.ts';

/** A slot in a remedy's words: `{i}`, or `{i+j}` for fields given together. */
const SLOT = /\{(\d+(?:\+\d+)*)\}/g;

/** The fields a remedy names, in order, as it builds its words (each `{i}` in them is fields[i]). */
export interface Slots {
  readonly fields: RemedyFieldJson[];
}

/**
 * Names fields in the remedy's words: one slot `{i}`, or several given together as one (`{i+j}`: "batching "continuous",
 * prefillChunkTokens 8192", or "--batching continuous --prefill-chunk 8192").
 */
export function slot(s: Slots, ...fields: RemedyFieldJson[]): string {
  const at = fields.map((f) => s.fields.push(f) - 1);
  return `{${at.join('+')}}`;
}

/**
 * The flag that sets each field a remedy names (apps/cli's inference command), and its unit where the flag's is not the
 * field's: --max-token-ms takes milliseconds where maxDecodeSecondsPerToken is in seconds.
 */
const FLAGS: Readonly<Record<string, { readonly flag: string; readonly perFieldUnit?: number }>> = {
  maxDecodeSecondsPerToken: { flag: '--max-token-ms', perFieldUnit: 1000 },
  maxPrefillSeconds: { flag: '--max-ttft-s' },
  gpus: { flag: '--gpus' },
  requestsPerSecond: { flag: '--rate' },
  precision: { flag: '--precision' },
  speculative: { flag: '--draft-model' },
  'cluster.gpu': { flag: '--gpu' },
  gpuMemoryUtilization: { flag: '--gpu-memory-utilization' },
  batching: { flag: '--batching' },
  prefillChunkTokens: { flag: '--prefill-chunk' },
  sharedPrefixTokens: { flag: '--shared-prefix' },
  promptTokens: { flag: '--prompt' },
};

/** Digits that clear a unit change's float noise (0.0154 × 1000 = 15.400000000000002 → 15.4) and keep every figure a remedy gives. */
const CLEAN_DIGITS = 12;

/** One field as a flag ("--max-token-ms 15.4", "--precision fp8", "--gpu"), or by its path ("maxDecodeSecondsPerToken 0.0154", 'precision "fp8"'). */
function fieldText(f: RemedyFieldJson, fromFlags: boolean): string {
  const flag = FLAGS[f.field];
  if (!fromFlags || flag === undefined) return f.value === undefined ? f.field : `${f.field} ${typeof f.value === 'string' ? `"${f.value}"` : f.value}`;
  if (f.value === undefined) return flag.flag;
  const value = typeof f.value === 'number' && flag.perFieldUnit !== undefined ? Number((f.value * flag.perFieldUnit).toPrecision(CLEAN_DIGITS)) : f.value;
  return `${flag.flag} ${value}`;
}

/**
 * A remedy on the wire from its words with slots: the fields numbered in the order the words name them (slots taken but
 * not used in the words are left out), and the words in the request's field names as `message`.
 */
export function remedyJson(s: Slots, words: string): InferenceRemedyJson {
  const fields: RemedyFieldJson[] = [];
  const template = words.replace(SLOT, (_m, at: string) =>
    `{${at.split('+').map((i) => fields.push(s.fields[Number(i)]!) - 1).join('+')}}`);
  return { message: inferenceRemedyText({ template, fields }, false), fields, template };
}

/** A remedy's words with its fields written as flags (`fromFlags`, a request built from the CLI's flags) or by their JSON paths. */
export function inferenceRemedyText(remedy: Pick<InferenceRemedyJson, 'template' | 'fields'>, fromFlags: boolean): string {
  return remedy.template.replace(SLOT, (_m, at: string) =>
    at.split('+').map((i) => fieldText(remedy.fields[Number(i)]!, fromFlags)).join(fromFlags ? ' ' : ', '));
}
