import { countOf as countText, formatSeconds } from '@trainplan/units';
import { runInference } from './inference.ts';
import { widestShape } from './inference-messages.ts';
import { inferenceRemedyText, remedyJson, slot, type Slots } from './inference-remedy-terms.ts';
import type { InferencePointJson, InferenceRemedyJson, InferenceResponseJson } from './inference-json.ts';
import { field, retryInference, type Retry, type Served } from './inference-retry.ts';
// Where the Retry the remedies take was defined before fewest-gpus.ts shared it: importers of this file keep it.
export { retryInference } from './inference-retry.ts';
import { bounded, fewestGpus, fewestShape, gpusOf, holding, OTHER_COUNTS, type FewestGpus, type Holding } from './fewest-gpus.ts';

/** Significant figures a loosened bound is written to, rounded up so that the closest plan meets it. */
const FIGURES = 3;

/** x rounded up to three significant figures (12.23 → 12.3, 109.3 → 110): never below x, so the plan it comes from meets it. */
export function ceilFigures(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return x;
  const step = 10 ** (Math.floor(Math.log10(x)) - (FIGURES - 1));
  const up = Number((Math.ceil(x / step) * step).toPrecision(FIGURES));
  // toPrecision may land a hair below x (1.005 → "1.00"); one more step then.
  return up >= x ? up : Number(((Math.ceil(x / step) + 1) * step).toPrecision(FIGURES));
}

/** How a remedy names a request field: by its flag (in the flag's unit) for a request built from flags, else by its JSON path. */
interface Terms {
  readonly fromFlags: boolean;
}

// The fields a remedy names, as slots its surface writes (inference-remedy-terms.ts); a bound loosened is rounded up to
// three figures in the field's unit, seconds, which a flag in ms shows as the same figures.
const tokenBound = (s: Slots, seconds: number): string => slot(s, { field: 'maxDecodeSecondsPerToken', value: ceilFigures(seconds) });
const firstTokenBound = (s: Slots, seconds: number): string => slot(s, { field: 'maxPrefillSeconds', value: ceilFigures(seconds) });
const gpusField = (s: Slots, gpus: number): string => slot(s, { field: 'gpus', value: gpus });
const name = (s: Slots, field: string, value?: string): string => slot(s, { field, ...(value !== undefined && { value }) });

/** FP8 weights, offered only where the GPU runs FP8 (the request asked again with it is valid) and not already asked for. */
const fp8Works = (request: Record<string, unknown>, retry: Retry): Served | undefined =>
  (request.precision === 'fp8' ? undefined : retry({ set: { precision: 'fp8' } }));

/** The bounds (and, with a rate, the GPUs) loosened to what `closest` needs, which it then meets. */
function loosened(closest: InferencePointJson, request: Record<string, unknown>, t: Slots): string[] {
  const maxToken = field(request, 'maxDecodeSecondsPerToken');
  const maxFirst = field(request, 'maxPrefillSeconds');
  const gpus = field(request, 'gpus');
  return [
    ...(maxToken !== undefined && closest.decodeStepSeconds > maxToken ? [tokenBound(t, closest.decodeStepSeconds)] : []),
    ...(maxFirst !== undefined && closest.prefillSeconds > maxFirst ? [firstTokenBound(t, closest.prefillSeconds)] : []),
    ...(gpus !== undefined && closest.load !== undefined && closest.load.gpus > gpus ? [gpusField(t, closest.load.gpus)] : []),
  ];
}

/**
 * With a rate and the GPUs given: the fewest GPUs that serve it within the bounds as they are, and the plan on them (fewestGpus,
 * each count checked by asking again with it), or undefined where none is found. Not the plan the request without `gpus`
 * answers with: planInference then tries pipeline depths 1, 2, 4 and 8 only (QA: Llama 3 70B on A100s of 80 GB at 20
 * requests/s within 50 ms a token was told 80 GPUs, 10 replicas of TP 8 · PP 1, where 72 serve as 3 of TP 8 · PP 3).
 */
function gpusWithinBounds(request: Record<string, unknown>, retry: Retry): { gpus: number; best: InferencePointJson } | undefined {
  if (field(request, 'requestsPerSecond') === undefined || field(request, 'gpus') === undefined) return undefined;
  return fewestGpus(request, retry)?.serves;
}

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
  const closestNeeds = loosen.length === 0 ? '' : `give what the closest plan needs (${loosen.join(', ')}), or `;
  return `to get a plan, ${closestNeeds}try ${joinOr(faster)}`;
}

const joinOr = (items: readonly string[]): string =>
  (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`);

const shapeText = (s: Holding): string => `TP ${s.tensor} · PP ${s.pipeline} (${countText(gpusOf(s), 'GPU')})`;
const grouped = (n: number): string => n.toLocaleString('en-US');

/** Counts written as a reader scans them: "6 and 7", "6, 7 and 9", or "6 to 95" for more than four. */
function countsText(ns: readonly number[]): string {
  if (ns.length > OTHER_COUNTS) return `${grouped(ns[0]!)} to ${grouped(ns.at(-1)!)}`;
  return ns.length <= 1 ? ns.map(grouped).join('') : `${ns.slice(0, -1).map(grouped).join(', ')} and ${grouped(ns.at(-1)!)}`;
}

/** "a replica of TP 8 · PP 1 (8 GPUs)" or, on more GPUs than one replica, "6 replicas of TP 8 · PP 2 (96 GPUs)". */
function replicasText(p: InferencePointJson): string {
  const replicas = p.replicas ?? 1;
  const shape = `TP ${p.tensor} · PP ${p.pipeline}`;
  return replicas > 1 ? `${grouped(replicas)} replicas of ${shape} (${countText(replicas * p.gpus, 'GPU')})` : `a replica of ${shape} (${countText(p.gpus, 'GPU')})`;
}

/** "a replica of TP 2 · PP 1 (2 GPUs) holds it", or "3 replicas of … hold it": the verb agreeing with the replicas. */
const replicasDo = (p: InferencePointJson, one: string, many: string): string => `${replicasText(p)} ${(p.replicas ?? 1) > 1 ? many : one}`;

/**
 * Without bounds: the fewest GPUs that serve the batches asked (fewestGpus' `serves`, checked to have a plan). They are the
 * fewest that hold it at one request unless batches asked for need more, then named apart (QA: Llama 3 70B on one H100 at
 * batch 256 was told "give gpus 2", which hold no batch of 256; 5 do, as TP 1 · PP 5), or, where no count up to the largest
 * replica holds those batches, the fewest that hold it with that said.
 */
function unboundedCountsRemedy(needed: FewestGpus, t: Slots, or: string, alsoText: string): string {
  const serves = needed.serves;
  if (serves === undefined) {
    return `to serve it, give at least ${gpusField(t, needed.holds)}, the fewest that hold it (a replica of TP ${needed.shape.tensor} · PP ${needed.shape.pipeline}); `
      + `but no count from ${grouped(needed.holds)} to ${grouped(needed.lastTried ?? needed.holds)} GPUs holds the batches asked`;
  }
  if (serves.gpus === needed.holds) {
    return `to serve it, give ${gpusField(t, needed.holds)}${or}: a replica of ${shapeText(needed.shape)} holds it`
      + `${alsoText === '' ? '' : `${alsoText}: any count that a replica holding it divides)`}`;
  }
  return `to serve it, give ${gpusField(t, serves.gpus)}${or}: ${replicasDo(serves.best, 'serves', 'serve')} batch ${grouped(serves.best.batch)}, `
    + `where the fewest that hold it, ${grouped(needed.holds)}, hold none of the batches asked`
    + `${alsoText === '' ? '' : `${alsoText}: any count that a replica holding that batch divides)`}`;
}

/** The GPUs that serve (within the bounds, where there are bounds), or the fewest that hold it and the bounds no count tried meets. */
function countsRemedy(needed: FewestGpus, t: Slots, request: Record<string, unknown>): string {
  // "Or a multiple of it" only where no count between it and its double serves (none that another replica divides).
  const [or, alsoText] = needed.others.length === 0 ? [' or a multiple of it', '']
    : [', the fewest that serve', ` (${needed.others.map(grouped).join(', ')} … serve too`];
  if (!bounded(request)) return unboundedCountsRemedy(needed, t, or, alsoText);
  const missed = needed.missed.length === 0 ? '' : `; ${needed.missed.length > OTHER_COUNTS ? `the counts from ${countsText(needed.missed)} that hold it` : `${countsText(needed.missed)} hold it but`} miss them`;
  if (needed.serves !== undefined) {
    const { gpus, best } = needed.serves;
    const within = needed.others.length === 0 ? ' or a multiple of it' : ', the fewest that serve within the bounds';
    return `to serve it, give ${gpusField(t, gpus)}${within}: ${replicasText(best)} ${(best.replicas ?? 1) > 1 ? 'meet' : 'meets'} them, a token every ${formatSeconds(best.decodeStepSeconds)}`
      + `${alsoText === '' ? '' : `${alsoText} within them)`}${missed}`;
  }
  const hold = `to serve it, give at least ${gpusField(t, needed.holds)}, the fewest that hold it (a replica of TP ${needed.shape.tensor} · PP ${needed.shape.pipeline})`;
  const nearest = needed.nearest;
  if (nearest === undefined) return `${hold}; but no count from ${grouped(needed.holds)} to ${grouped(needed.lastTried ?? needed.holds)} GPUs meets the bounds`;
  // What the nearest plan needs, which it then meets: the bounds loosened, on its count or (a rate wanting more replicas) on more.
  const loosen = loosened(nearest.point, { ...request, gpus: nearest.gpus }, t);
  const moreGpus = nearest.point.load !== undefined && nearest.point.load.gpus > nearest.gpus;
  const needs = moreGpus ? loosen : [gpusField(t, nearest.gpus), ...loosen];
  return `${hold}; but no count from ${grouped(needed.holds)} to ${grouped(needed.lastTried ?? needed.holds)} GPUs meets the bounds: `
    + `the nearest is on ${countText(nearest.gpus, 'GPU')}: ${nearest.why}`
    + `${loosen.length === 0 ? '' : ` (${needs.join(' and ')} give a plan)`}`;
}

/**
 * Batches asked for (`batches`) that no shape holds, where some shape serves without them: the shape that holds the
 * largest batch.
 */
function mostBatches(request: Record<string, unknown>, retry: Retry): Holding | undefined {
  if (request.batches === undefined) return undefined;
  const shapes = (retry({ drop: ['batches'] })?.byShape ?? []).filter((s): s is Holding => s.ok);
  return shapes.reduce<Holding | undefined>((m, s) => (m === undefined || s.largestBatch.maxBatch > m.largestBatch.maxBatch ? s : m), undefined);
}

/**
 * Prompt chunks tried where a prompt's activations in one forward pass are what overflows: 8,192 tokens, then 2,048,
 * vLLM's default max_num_batched_tokens for its OpenAI server (vllm/engine/arg_utils.py: 8,192 on GPUs of 70 GB and
 * more other than the A100, 2,048 on the others).
 */
const PREFILL_CHUNKS = [8192, 2048];

/**
 * A prompt prefilled in chunks (Sarathi-Serve, OSDI 2024; vLLM's chunked prefill) where no shape holds it whole: an
 * iteration then holds one chunk's activations, not the whole prompt's (QA: Llama 3 8B with a 4M-token prompt needs
 * 106 GiB of activations on an H100 in one pass, 212 MiB in chunks of 8,192). The largest chunk that lets a shape hold
 * it at batch 1, and that shape, checked by asking again; undefined where the request already prefills in chunks that
 * small or none helps.
 */
function chunkThatHolds(request: Record<string, unknown>, retry: Retry): { chunk: number; shape: Holding } | undefined {
  const asked = field(request, 'prefillChunkTokens');
  for (const chunk of PREFILL_CHUNKS.filter((c) => asked === undefined || c < asked)) {
    const shape = fewestShape(holding(retry, { set: { batching: 'continuous', prefillChunkTokens: chunk } }));
    if (shape !== undefined) return { chunk, shape };
  }
  return undefined;
}

/** The change memoryRemedy names first where it is one of these three. */
type MemoryFix = { readonly batches: Holding } | { readonly chunk: number; readonly shape: Holding } | { readonly counts: FewestGpus };

/**
 * The first of these that serves where no shape holds the model for memory, each checked by asking again: batches asked
 * for that fit; a prompt prefilled in chunks; with `gpus` given, more GPUs (the fewest that serve, fewest-gpus.ts).
 * Undefined where none applies (memoryRemedy then offers memory held back, FP8 weights or another GPU).
 */
function memoryFix(request: Record<string, unknown>, retry: Retry): MemoryFix | undefined {
  const batches = mostBatches(request, retry);
  if (batches !== undefined) return { batches };
  const chunked = chunkThatHolds(request, retry);
  if (chunked !== undefined) return chunked;
  const counts = field(request, 'gpus') === undefined ? undefined : fewestGpus(request, retry);
  return counts === undefined ? undefined : { counts };
}

/**
 * What lets some shape hold the model when none does for memory, each checked by asking again: memoryFix's change (batches
 * that fit, chunked prefill, or the fewest GPUs that serve, with FP8 weights beside them); else, with memory held back, all
 * of it; else FP8 weights where they make it fit; else (nothing checked helps) GPUs with more memory.
 */
function memoryRemedy(request: Record<string, unknown>, t: Slots, retry: Retry): string {
  const fix = memoryFix(request, retry);
  if (fix !== undefined && 'batches' in fix) {
    return `to serve it, ask for batches that fit in memory (batches): at most ${grouped(fix.batches.largestBatch.maxBatch)}, on ${shapeText(fix.batches)}; each shape's largest is given with it`;
  }
  if (fix !== undefined && 'chunk' in fix) {
    const ask = slot(t, { field: 'batching', value: 'continuous' }, { field: 'prefillChunkTokens', value: fix.chunk });
    return `to serve it, prefill the prompt in chunks (${ask}): ${shapeText(fix.shape)} then holds it, one chunk's activations at a time`;
  }
  // FP8 weights where the GPU runs them and they fit the GPUs given: offered beside more GPUs, as they need none.
  const fp8 = request.precision === 'fp8' ? undefined : fewestShape(holding(retry, { set: { precision: 'fp8' } }));
  const fp8Text = fp8 === undefined ? undefined : `FP8 weights (${name(t, 'precision', 'fp8')}): ${shapeText(fp8)} holds them`;
  if (fix !== undefined) return `${countsRemedy(fix.counts, t, request)}${fp8Text === undefined ? '' : `; or try ${fp8Text}`}`;
  // Memory held back (vLLM's --gpu-memory-utilization): all of it may be enough.
  const held = field(request, 'gpuMemoryUtilization');
  const whole = held === undefined || held >= 1 ? undefined : fewestShape(holding(retry, { drop: ['gpuMemoryUtilization'] }));
  if (whole !== undefined) {
    return `to serve it, raise ${name(t, 'gpuMemoryUtilization')}: with all of each GPU's memory, ${shapeText(whole)} holds it`;
  }
  if (fp8Text !== undefined) return `to serve it, try ${fp8Text}`;
  return `to serve it, give GPUs with more memory (${name(t, 'cluster.gpu')})`;
}

/** The widest shape the GPUs given allow runs out of memory: the failures memoryRemedy answers. */
function outOfMemory(a: Served): boolean {
  const widest = widestShape(a.byShape);
  return widest !== undefined && !widest.ok && widest.reason === 'out-of-memory';
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
 * runInference's answer with, where it has no plan, its remedy (inferenceRemedy): what the API answers, the CLI prints
 * (its stderr writing the fields as flags) and the chat bot may say, computed once here. A remedy asks again a few to a
 * few hundred times (fewestGpus), so runInference alone, which the widget runs on every edit, leaves it out.
 */
export function runInferenceWithRemedy(request: unknown): InferenceResponseJson {
  const a = runInference(request);
  if (!a.ok || a.best !== undefined) return a;
  const asked = request as Record<string, unknown>;
  const remedy = inferenceRemedy(a, asked, retryInference(asked));
  return remedy === undefined ? a : { ...a, remedy };
}
