import { formatSeconds } from '@trainplan/units';
import { inferenceReading } from '../classify.ts';
import { CHINCHILLA_TOKENS_PER_PARAMETER } from '../defaults.ts';
import { nearPresetNote } from '../lexicon/preset-size-readings.ts';
import { percentileReading, unnamedLatencyReading } from '../lexicon/percentile.ts';
import { unitWord } from '../lexicon/serving.ts';
import { usersReading } from '../lexicon/user-load.ts';
import { compactCount } from '../format.ts';
import type { DefaultUsed } from '../question.ts';
import { asTyped } from './as-typed.ts';
import type { Plan, Reads } from './reads.ts';
import type { ParseState } from './state.ts';

/** How "Chinchilla-optimal" is read, said back. */
export const CHINCHILLA_READING = `Chinchilla-optimal read as ${CHINCHILLA_TOKENS_PER_PARAMETER} training tokens per parameter (Hoffmann et al. 2022, arXiv:2203.15556: compute-optimal models trained on about ${CHINCHILLA_TOKENS_PER_PARAMETER} tokens a parameter)`;

/**
 * How the question's words of the model, its budget and its serving were read: Chinchilla, the serving cue, the cost's
 * unit, the model assumed, users, active parameters, a vision-language model, a custom model, a bare token count, the
 * draft, a weight format, the KV cache, latency bounds. A price of input tokens, or a cost per token of training, is said not read.
 */
export function modelReadings(st: ParseState, read: Reads, plan: Plan): DefaultUsed[] {
  const { text, normal, notRead } = st;
  const { models: { served, model, vision }, budget: { chinchilla, bareTokens }, resolved: { customReading, draft } } = read;
  const { serving: { perMillion, users, kvCache, percentiles, unnamedLatency }, precision: { weightFormat } } = read;
  const { intent, facts, quantized } = plan;
  const readings: DefaultUsed[] = [];
  if (chinchilla) readings.push({ field: 'tokensPerParameter', value: CHINCHILLA_TOKENS_PER_PARAMETER, text: CHINCHILLA_READING });
  const asServing = intent === 'serving' ? inferenceReading(normal, facts) : undefined;
  // The cue as typed ("per 1M output tokens", not the normalised "per 1m output tokens").
  if (asServing !== undefined) readings.push({ field: 'model', value: facts.model ?? 'custom', text: asServing.replace(/"([^"]+)"/, (_m, cue: string) => `"${asTyped(text, cue)}"`) });
  // The serving answer prices output tokens (the GPUs' time over the tokens they generate, prefill included): "per million
  // tokens" and "per million input tokens" said as read so.
  // A price of input tokens is declined, never answered with output's (QA: "price per million input tokens" was the output
  // price, an assumption admitting it): the protocol's inference point gives the prompt's prefill time of a request under
  // continuous batching (prefillSeconds, with decode steps sharing the GPUs), no prefill throughput of its own to price.
  if (perMillion !== undefined && intent === 'serving' && /^(?:input|prompt)$/.test(perMillion.of ?? '')) {
    notRead.push({
      phrase: `"${asTyped(text, perMillion.written)}"`, heading: 'Not answered',
      why: `a price per ${perMillion.of} token is not computed: the serving cost is per ${unitWord(perMillion.tokens)} output tokens, the GPUs' time over the tokens they generate with the prompts' prefill in it, and the model gives no prefill throughput apart to price prompt tokens alone`,
    });
  } else if (perMillion !== undefined && intent === 'serving' && perMillion.of === undefined) {
    readings.push({ field: 'pricePerGpuHour', value: perMillion.written, text: `"${asTyped(text, perMillion.written)}" read as per ${unitWord(perMillion.tokens)} output tokens, the serving cost given (the GPUs' time over the tokens they generate, the prompts' prefill included)` });
  }
  // Asked of training ("training cost per million tokens"): the run's whole cost is what a plan gives, said.
  if (perMillion !== undefined && intent !== 'serving' && intent !== 'help') {
    notRead.push({ phrase: `"${asTyped(text, perMillion.written)}"`, why: 'a cost per million tokens is a serving price; a training plan gives the whole run\'s cost: divide it by the tokens in millions, or ask "serve …" for serving\'s' });
  }
  if (model?.assumed !== undefined && model.model !== undefined) readings.push({ field: 'model', value: model.model, text: model.assumed });
  if (users.written !== undefined && users.concurrency !== undefined && facts.concurrency === users.concurrency) {
    readings.push({ field: 'concurrency', value: users.concurrency, text: usersReading(asTyped(text, users.written), users.concurrency) });
  }
  const dense = served.model?.active?.reading;
  if (dense !== undefined && model === served.model && (facts.model !== undefined || facts.customModel !== undefined)) {
    const typed = dense.replace(/^"([^"]+)"/, (_m, phrase: string) => `"${asTyped(text, phrase)}"`);
    readings.push({ field: facts.model !== undefined ? 'model' : 'customModel', value: facts.model ?? facts.customModel?.shape.name ?? 'custom', text: typed });
  }
  if (vision !== undefined && facts.model !== undefined && facts.model === served.model?.model) readings.push({ field: 'model', value: facts.model, text: vision.reading });
  if (customReading !== undefined && facts.customModel !== undefined) {
    // "codellama 34b": the family named is no preset, said before the shape the size was planned as.
    const reading = `${customReading}${nearPresetNote(model?.family, model?.nearPreset)}`;
    const text = model?.namedAs === undefined ? reading : `${model.namedAs}: ${reading}`;
    readings.push({ field: 'customModel', value: facts.customModel.shape.name ?? 'custom', text });
  }
  if (bareTokens !== undefined && facts.tokens === bareTokens.tokens) {
    readings.push({ field: 'tokens', value: bareTokens.tokens, text: `"${asTyped(text, bareTokens.written)}" read as ${compactCount(bareTokens.tokens)} training tokens (a second size after the model's, with no word of what it counts)` });
  }
  if (draft?.ok === true && draft.reading !== undefined) readings.push({ field: 'draftModel', value: draft.id, text: draft.reading });
  for (const format of [weightFormat, quantized]) if (format !== undefined && 'reading' in format) readings.push({ field: 'precision', value: format.precision, text: format.reading });
  if (kvCache?.reading !== undefined && facts.kvCachePrecision !== undefined) readings.push({ field: 'kvCachePrecision', value: facts.kvCachePrecision, text: kvCache.reading });
  if (percentiles.firstToken !== undefined && facts.maxFirstTokenSeconds !== undefined) {
    readings.push({ field: 'maxFirstTokenSeconds', value: facts.maxFirstTokenSeconds, text: percentileReading(percentiles.firstToken, 'time to first token', formatSeconds(facts.maxFirstTokenSeconds)) });
  }
  if (percentiles.perToken !== undefined && facts.maxTokenSeconds !== undefined) {
    readings.push({ field: 'maxTokenSeconds', value: facts.maxTokenSeconds, text: percentileReading(percentiles.perToken, 'time per output token', formatSeconds(facts.maxTokenSeconds)) });
  }
  if (unnamedLatency !== undefined && intent === 'serving') readings.push({ field: 'maxFirstTokenSeconds', value: unnamedLatency.trim(), text: unnamedLatencyReading(unnamedLatency) });
  return readings;
}
