import { formatSeconds } from '@trainplan/units';
import { runInference } from './inference.ts';
import { inferenceRemedyText, remedyJson, type Slots } from './inference-remedy-terms.ts';
import type { InferencePointJson, InferenceRemedyJson, InferenceResponseJson } from './inference-json.ts';
import { field, retryInference, type Retry, type Served } from './inference-retry.ts';
import { fewestGpus, type FewestGpus } from './fewest-gpus.ts';
import { memoryFix, memoryRemedy, outOfMemory } from './inference-memory-remedy.ts';
import { idleFleetRemedy } from './inference-idle-fleet-remedy.ts';
import { fieldSlots, firstTokenBoundIsDefault, gpusField, joinOr, loosened, loosenedFields, name, replicasText } from './inference-remedy-words.ts';
import { rateRemedy, servedLoosening } from './inference-rate-remedy.ts';
import { LOOSEST_BOUND_SECONDS } from './loosest-bound.ts';
import { INTERACTIVE_TTFT_SECONDS } from './inference-messages.ts';

/** How a remedy names a request field: by its flag (in the flag's unit) for a request built from flags, else by its JSON path. */
interface Terms {
  readonly fromFlags: boolean;
}

/** FP8 weights, offered only where the GPU runs FP8 (the request asked again with it is valid) and not already asked for. */
const fp8Works = (request: Record<string, unknown>, retry: Retry): Served | undefined =>
  (request.precision === 'fp8' ? undefined : retry({ set: { precision: 'fp8' } }));

/**
 * With a rate and the GPUs given: the fewest GPUs that serve it within the bounds as they are, and the plan on them (fewestGpus,
 * each count checked by asking again with it), or undefined where none is found. Not the plan the request without `gpus`
 * answers with: planInference then tries pipeline depths 1, 2, 4 and 8 only (QA: Llama 3 70B on A100s of 80 GB at 20
 * requests/s within 50 ms a token was told 80 GPUs, 10 replicas of TP 8 · PP 1, where 72 serve as 3 of TP 8 · PP 3).
 */
function gpusWithinBounds(request: Record<string, unknown>, retry: Retry): { gpus: number; best: InferencePointJson } | undefined {
  return rateOnGpus(request) ? fewestGpus(request, retry)?.serves : undefined;
}

/** The request gives a rate and the GPUs to serve it on. */
const rateOnGpus = (request: Record<string, unknown>): boolean =>
  field(request, 'requestsPerSecond') !== undefined && field(request, 'gpus') !== undefined;

/**
 * What would give a plan when the latency bounds (or, with a rate, the GPUs) rule every plan out:
 * the bounds loosened to what the closest plan needs (which it then meets), and what serves faster. Where the closest
 * plan needs two limits changed (a looser bound and more GPUs for a rate), a change of one, the GPU count alone with the
 * bounds kept, comes first when some count serves (QA: 100 requests/s of Llama 3 8B on 4 H100s within 30 ms a token
 * needed "--max-token-ms 64.1, --gpus 8", where --gpus 10 alone serves, 5 replicas of TP 2 within 30 ms).
 */
function boundsRemedy(closest: InferencePointJson, request: Record<string, unknown>, t: Slots, retry: Retry): string {
  const maxToken = field(request, 'maxDecodeSecondsPerToken');
  const tokenMissed = maxToken !== undefined && closest.decodeStepSeconds > maxToken;
  const loosen = loosened(closest, request, t);
  const more = loosen.length > 1 ? gpusWithinBounds(request, retry) : undefined;
  const fp8 = fp8Works(request, retry);
  const faster = [
    ...(fp8 === undefined ? [] : [`FP8 weights (${name(t, 'precision', 'fp8')}${fp8.best === undefined ? '' : ', which meets them'})`]),
    ...(tokenMissed && request.speculative === undefined ? [`speculative decoding (${name(t, 'speculative')})`] : []),
    `a faster GPU (${name(t, 'cluster.gpu')})`,
  ];
  if (more !== undefined) {
    const { gpus, best } = more;
    return `to get a plan, give ${gpusField(t, gpus)}, the fewest that serve within the bounds as they are: ${replicasText(best)} `
      + `${(best.replicas ?? 1) > 1 ? 'meet' : 'meets'} them, a token every ${formatSeconds(best.decodeStepSeconds)}; or try ${joinOr(faster)}`;
  }
  // With a rate on the GPUs given, the bounds the closest plan needs are asked again: the wait for a slot, which its time to
  // first token leaves out, may need more GPUs than are given at any bound (inference-rate-remedy.ts).
  if (loosen.length > 0 && rateOnGpus(request) && retry({ set: loosenedFields(closest, request) })?.best === undefined) {
    return rateRemedy(request, fewestGpus(request, retry), joinOr(faster), t, retry);
  }
  return `to get a plan, ${closestNeeds(closest, request, t, retry)}try ${joinOr(faster)}`;
}

/**
 * "give what the closest plan needs (…), or ": the bounds loosened, for a rate on the GPUs the plan takes checked by asking
 * again (servedLoosening), and the first-token bound named as taking the default's place where the request gives none.
 */
function closestNeeds(closest: InferencePointJson, request: Record<string, unknown>, t: Slots, retry: Retry): string {
  const { fields, searched } = rateOnGpus(request) ? { fields: loosenedFields(closest, request) } : servedLoosening(loosenedFields(closest, request), request, retry);
  const byDefault = firstTokenBoundIsDefault(request);
  const ofDefault = `the default first-token bound, ${INTERACTIVE_TTFT_SECONDS} s,`;
  const loosen = fieldSlots(fields, t).join(', ');
  const missed = byDefault && fields.maxPrefillSeconds !== undefined ? `${ofDefault} is missed` : undefined;
  // Loosening the others does not serve the rate either (asked again with them): none is offered.
  if (searched === 'none') return `${byDefault ? ofDefault : 'the first-token bound'} loosened to any a request may give (up to ${formatSeconds(LOOSEST_BOUND_SECONDS)}), serves no plan at this rate; `;
  if (searched === 'found') return `give ${loosen}, within which the rate is served, the wait for a slot included${missed === undefined ? '' : ` (${missed})`}, or `;
  return loosen === '' ? '' : `give what the closest plan needs (${loosen}${missed === undefined ? '' : `: ${missed}`}), or `;
}

/**
 * The count countsRemedy names first: "give gpus N", the fewest that serve (within the bounds, where there are bounds; without,
 * at the batches asked, which may need more than the fewest that hold it at one request), or "give at least gpus N", the
 * fewest that hold it, where no count serves.
 */
const namedCount = (counts: FewestGpus): number => counts.serves?.gpus ?? counts.holds;

/** The fewest GPUs for a request, and the count the remedy of its answer on the GPUs it gives names first, where it names one. */
export interface FewestServing extends FewestGpus {
  readonly named?: number;
}

/**
 * The fewest GPUs that serve `request` (fewestGpus, the bounds as the plan applies them), for another surface (the chat bot) to
 * say from the search the remedy makes. Where `failed`, the answer on the GPUs the request gives, holds no replica for memory and
 * its remedy (the CLI's stderr, the API's `remedy`) names GPU counts, they are that remedy's own, and `named` the count it names
 * first. It names none where batches that fit or a prompt prefilled in chunks come first, the failure is not memory, or the
 * request gives no `gpus`.
 */
export function fewestServingGpus(request: Record<string, unknown>, retry: Retry, failed?: Served): FewestServing | undefined {
  const applied = appliedBounds(request);
  const fix = failed !== undefined && failed.best === undefined && failed.unservable !== undefined && outOfMemory(failed) ? memoryFix(applied, retry) : undefined;
  if (fix !== undefined && 'counts' in fix) return { ...fix.counts, named: namedCount(fix.counts) };
  return fewestGpus(applied, retry);
}

/**
 * The request as the plan applies its bounds, for a remedy to loosen: a per-token bound with one output token is dropped, as
 * planInference drops it (no token is decoded), so that no remedy offers to loosen it.
 */
function appliedBounds(request: Record<string, unknown>): Record<string, unknown> {
  if (request.outputTokens !== 1) return request;
  const { maxDecodeSecondsPerToken: _dropped, ...rest } = request;
  return rest;
}

/**
 * What to change for a plan where the answer has none, or undefined where it has one or no remedy applies (no shape
 * divides the GPUs given; no closest plan): for memory (`unservable`), what lets a shape hold the model; for the bounds
 * (`closest`), the bounds the closest plan meets, or GPUs, and what serves faster. Each change it names is checked where
 * it can be by asking again (`retry`).
 */
export function inferenceRemedy(a: Served, request: Record<string, unknown>, retry: Retry): InferenceRemedyJson | undefined {
  if (a.best !== undefined) return undefined;
  const applied = appliedBounds(request);
  const s: Slots = { fields: [] };
  // unservable quotes the widest shape's reason: memory has a remedy here; a shape dividing none of the GPUs given says its own.
  if (a.unservable !== undefined) return outOfMemory(a) ? remedyJson(s, memoryRemedy(applied, s, retry)) : undefined;
  return a.closest === undefined ? undefined : remedyJson(s, boundsRemedy(a.closest.point, applied, s, retry));
}

/**
 * Why there is no plan and how to get one, for the one stderr line of an inference that exits 1: the reason the answer
 * gives (`unservable`, or the closest plan's miss), then its remedy (the answer's own, as runInferenceWithRemedy gives it,
 * else inferenceRemedy's), its fields written as flags for a request built from them (`fromFlags`).
 */
export function inferenceFailureText(
  a: Served, request: Record<string, unknown>, terms: Terms & { readonly unservable?: string; readonly bounds?: string }, retry: Retry,
): string {
  const remedy = a.remedy ?? inferenceRemedy(a, request, retry);
  const then = remedy === undefined ? '' : `; ${inferenceRemedyText(remedy, terms.fromFlags)}`;
  if (terms.unservable !== undefined) return `${terms.unservable}${then}`;
  const head = `no plan meets the latency bounds${terms.bounds === undefined ? '' : ` (${terms.bounds})`}`;
  return a.closest === undefined ? head : `${head}: ${a.closest.why}${then}`;
}

/**
 * runInference's answer with, where it has no plan, its remedy (inferenceRemedy), and where its plan is an idle fleet, what serves
 * the rate at a real load (idleFleet.remedy, idleFleetRemedy): what the API answers, the CLI prints
 * (its stderr writing the fields as flags) and the chat bot may say, computed once here. A remedy asks again a few to a
 * few hundred times (fewestGpus), so runInference alone, which the widget runs on every edit, leaves it out.
 */
export function runInferenceWithRemedy(request: unknown): InferenceResponseJson {
  const a = runInference(request);
  if (!a.ok) return a;
  const asked = request as Record<string, unknown>;
  // A plan whose fleet the first-token bound holds idle: what serves the rate at a real load, beside it (idleFleet.remedy).
  if (a.best !== undefined) {
    const remedy = idleFleetRemedy(a, asked, retryInference(asked));
    return a.idleFleet === undefined || remedy === undefined ? a : { ...a, idleFleet: { ...a.idleFleet, remedy } };
  }
  const remedy = inferenceRemedy(a, asked, retryInference(asked));
  return remedy === undefined ? a : { ...a, remedy };
}
