import { countOf as countText, formatSeconds } from '@trainplan/units';
import { runInference } from './inference.ts';
import { widestShape } from './inference-messages.ts';
import { inferenceRemedyText, remedyJson, slot, type Slots } from './inference-remedy-terms.ts';
import type { InferencePointJson, InferenceRemedyJson, InferenceResponseJson } from './inference-json.ts';

type Served = Extract<InferenceResponseJson, { ok: true }>;

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

/** The numeric field of a request as given (an `--input` request may carry anything). */
function field(request: Record<string, unknown>, key: string): number | undefined {
  const x = request[key];
  return typeof x === 'number' ? x : undefined;
}

/**
 * The same request changed (`set` merged over it, `drop` fields removed) and answered again; undefined
 * when the change is refused (FP8 on a GPU without FP8 tensor cores) or fails.
 */
export type Retry = (change: { readonly set?: Record<string, unknown>; readonly drop?: readonly string[] }) => Served | undefined;

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
 * With a rate and the GPUs given: the fewest GPUs that serve it within the bounds as they are, and the plan on them, or
 * undefined where none is found. planInference ranks the plans for a rate by the GPUs they take, so the request without
 * `gpus` answers with the plan that takes the fewest; its count is checked by asking again with it.
 */
function gpusWithinBounds(request: Record<string, unknown>, retry: Retry): { gpus: number; best: InferencePointJson } | undefined {
  if (field(request, 'requestsPerSecond') === undefined || field(request, 'gpus') === undefined) return undefined;
  const gpus = retry({ drop: ['gpus'] })?.best?.load?.gpus;
  const best = gpus === undefined ? undefined : retry({ set: { gpus } })?.best;
  return gpus === undefined || best === undefined ? undefined : { gpus, best };
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

type Shape = Served['byShape'][number];
type Holding = Extract<Shape, { ok: true }>;
const gpusOf = (s: Shape): number => s.tensor * s.pipeline;
const shapeText = (s: Shape): string => `TP ${s.tensor} · PP ${s.pipeline} (${countText(gpusOf(s), 'GPU')})`;
const grouped = (n: number): string => n.toLocaleString('en-US');

/**
 * The shapes that hold the model when the request is changed so, each tried at batch 1 alone: what fits at all,
 * and decode times that compare like for like (each shape's largest batch is another batch, and a larger batch
 * decodes slower). None when the change is refused or nothing holds it.
 */
function holding(retry: Retry, change: { readonly set?: Record<string, unknown>; readonly drop?: readonly string[] }): Holding[] {
  const a = retry({ set: { ...change.set, batches: [1] }, drop: change.drop });
  return (a?.byShape ?? []).filter((s): s is Holding => s.ok);
}

/**
 * The shape of the fewest GPUs among those that hold it, or undefined when none does; of those of as many GPUs, the
 * one decoding a token soonest (TP 8 · PP 1 rather than TP 1 · PP 8: pipeline stages do not shorten a token's
 * path through the layers, tensor parallelism does), then the sooner first token.
 */
function fewest(shapes: readonly Holding[]): Holding | undefined {
  const faster = (a: Holding, b: Holding) => a.largestBatch.decodeStepSeconds - b.largestBatch.decodeStepSeconds || a.largestBatch.prefillSeconds - b.largestBatch.prefillSeconds;
  return shapes.reduce<Holding | undefined>((m, s) => (m === undefined || gpusOf(s) - gpusOf(m) < 0 || (gpusOf(s) === gpusOf(m) && faster(s, m) < 0) ? s : m), undefined);
}

/**
 * The pipeline depths planInference tries on a GPU count (its MAX_DEFAULT_PIPELINE: every depth up to 16 that divides
 * the count). Without a count it tries 1, 2, 4 and 8 only, so a replica of 3 or 11 stages (405B on 6 H200s as
 * TP 2 · PP 3, on 22 A100s of 40 GB as TP 2 · PP 11) is asked for by name.
 */
const COUNT_DEPTHS = Array.from({ length: 16 }, (_, i) => i + 1);

/** How many other GPU counts a remedy names beside the fewest. */
const OTHER_COUNTS = 4;

/**
 * The most GPU counts asked again while looking for the fewest that meet the latency bounds (each ask a few ms: 256 reach
 * 405B's 96 H200s at 5 requests/s and 50 ms a token in well under a second).
 */
const MAX_COUNTS_TRIED = 256;

/** The request bounds a plan's latency (or, with a rate, its GPUs): then holding the model is not enough to serve it. */
const bounded = (request: Record<string, unknown>): boolean =>
  ['maxDecodeSecondsPerToken', 'maxPrefillSeconds', 'requestsPerSecond'].some((key) => field(request, key) !== undefined);

/**
 * How far a point is from meeting the bounds on `gpus` GPUs: its worst latency-to-bound ratio, and with a rate the GPUs it needs
 * over those given (planInference's closestMiss in packages/search/src/inference/frontier.ts, which picks the closest plan on one
 * count by it; here it picks the closest over the counts tried).
 */
function missRatio(p: InferencePointJson, request: Record<string, unknown>, gpus: number): number {
  const maxToken = field(request, 'maxDecodeSecondsPerToken');
  const maxFirst = field(request, 'maxPrefillSeconds');
  return Math.max(
    maxToken === undefined ? 0 : p.decodeStepSeconds / maxToken,
    maxFirst === undefined ? 0 : p.prefillSeconds / maxFirst,
    field(request, 'requestsPerSecond') === undefined || p.load === undefined ? 0 : p.load.gpus / gpus,
  );
}

/** What the remedy found on GPU counts: the fewest that hold the model, and (with bounds) the fewest that meet them, or the nearest miss. */
interface Counts {
  /** The fewest GPUs whose replica holds the model, and its fastest shape of that many. */
  readonly holds: number;
  readonly shape: Holding;
  /** With latency bounds or a rate, the fewest GPUs whose plan meets them, and that plan; absent where no count tried does. */
  readonly serves?: { readonly gpus: number; readonly best: InferencePointJson };
  /** Counts from `holds` that hold it but whose plans miss the bounds, ascending (none without bounds). */
  readonly missed: readonly number[];
  /** Where no count tried meets the bounds: the last count tried, and the closest plan over all of them with its count. */
  readonly lastTried?: number;
  readonly nearest?: { readonly gpus: number; readonly why: string; readonly point: InferencePointJson };
  /** The next counts below twice the fewest that serve (that meet the bounds, where given), each checked by asking again. */
  readonly others: readonly number[];
}

/**
 * The fewest GPUs that serve the request (as `gpus`), each count checked by asking again with it: the CLI exits 0 exactly when
 * the answer has a best plan. A count can serve only where a replica that holds the model divides it (planInference tries a shape
 * on `gpus` only as a whole number of replicas), so besides the fewest that hold it, n, and its multiples, any count some other
 * such replica divides: 405B on H200s is held by 6, 7, 8, … GPUs, on A100s of 40 GB by 22, 24, 26, … but not 23 or 25 (a prime
 * past 16 stages has no shape that holds it). With latency bounds holding is not enough (405B on 6 H200s decodes a token in
 * 125 ms as TP 2 · PP 3; 8 as TP 8 decode in 50 ms): the counts are asked in turn until one's plan meets them. Without a rate
 * that stops at the largest replica (more GPUs add replicas, which shorten no token); with one, after MAX_COUNTS_TRIED counts.
 */
function fewestGpus(request: Record<string, unknown>, retry: Retry): Counts | undefined {
  // Every depth a count might be tried at, unless the request names its own or speculates (one stage only).
  const depths = request.pipeline === undefined && request.speculative === undefined ? { pipeline: COUNT_DEPTHS } : {};
  const sizes = [...new Set(holding(retry, { set: depths, drop: ['gpus'] }).map(gpusOf))].sort((a, b) => a - b);
  const held = (n: number): boolean => sizes.some((s) => n % s === 0);
  const serves = (n: number): InferencePointJson | undefined => retry({ set: { gpus: n } })?.best;
  let holds: { gpus: number; shape: Holding } | undefined;
  for (const gpus of sizes) {
    const shape = fewest(holding(retry, { set: { gpus } }));
    if (shape !== undefined) { holds = { gpus, shape }; break; }
  }
  if (holds === undefined) return undefined;
  const nextServing = (from: number): number[] => {
    const found: number[] = [];
    for (let n = from + 1; n < 2 * from && found.length < OTHER_COUNTS; n++) if (held(n) && serves(n) !== undefined) found.push(n);
    return found;
  };
  if (!bounded(request)) return { holds: holds.gpus, shape: holds.shape, missed: [], others: nextServing(holds.gpus) };
  const last = field(request, 'requestsPerSecond') === undefined ? sizes.at(-1)! : Number.POSITIVE_INFINITY;
  const missed: number[] = [];
  let nearest: Counts['nearest'];
  for (let n = holds.gpus, tried = 0; n <= last && tried < MAX_COUNTS_TRIED; n++) {
    if (!held(n)) continue;
    tried++;
    const a = retry({ set: { gpus: n } });
    if (a?.best !== undefined) return { holds: holds.gpus, shape: holds.shape, serves: { gpus: n, best: a.best }, missed, others: nextServing(n) };
    missed.push(n);
    const c = a?.closest;
    if (c !== undefined && (nearest === undefined || missRatio(c.point, request, n) < missRatio(nearest.point, request, nearest.gpus))) nearest = { gpus: n, ...c };
  }
  return { holds: holds.gpus, shape: holds.shape, missed, lastTried: missed.at(-1), nearest, others: [] };
}

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

/** The GPUs that serve within the bounds, or the fewest that hold it and the bounds no count tried meets. */
function countsRemedy(needed: Counts, t: Slots, request: Record<string, unknown>): string {
  // "Or a multiple of it" only where no count between it and its double serves (none that another replica divides).
  const [or, alsoText] = needed.others.length === 0 ? [' or a multiple of it', '']
    : [', the fewest that serve', ` (${needed.others.map(grouped).join(', ')} … serve too`];
  if (!bounded(request)) {
    return `to serve it, give ${gpusField(t, needed.holds)}${or}: a replica of ${shapeText(needed.shape)} holds it`
      + `${alsoText === '' ? '' : `${alsoText}: any count that a replica holding it divides)`}`;
  }
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
 * Batches asked for (`batches`) that no shape holds, where some shape serves without them: the largest batch that
 * fits, and on which shape.
 */
function batchRemedy(request: Record<string, unknown>, retry: Retry): string | undefined {
  if (request.batches === undefined) return undefined;
  const shapes = (retry({ drop: ['batches'] })?.byShape ?? []).filter((s): s is Holding => s.ok);
  const most = shapes.reduce<Holding | undefined>((m, s) => (m === undefined || s.largestBatch.maxBatch > m.largestBatch.maxBatch ? s : m), undefined);
  return most === undefined ? undefined
    : `to serve it, ask for batches that fit in memory (batches): at most ${grouped(most.largestBatch.maxBatch)}, on ${shapeText(most)}; each shape's largest is given with it`;
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
 * it at batch 1, checked by asking again; undefined where the request already prefills in chunks that small or none helps.
 */
function chunkRemedy(request: Record<string, unknown>, t: Slots, retry: Retry): string | undefined {
  const asked = field(request, 'prefillChunkTokens');
  for (const chunk of PREFILL_CHUNKS.filter((c) => asked === undefined || c < asked)) {
    const shape = fewest(holding(retry, { set: { batching: 'continuous', prefillChunkTokens: chunk } }));
    if (shape === undefined) continue;
    const ask = slot(t, { field: 'batching', value: 'continuous' }, { field: 'prefillChunkTokens', value: chunk });
    return `to serve it, prefill the prompt in chunks (${ask}): ${shapeText(shape)} then holds it, one chunk's activations at a time`;
  }
  return undefined;
}

/**
 * What lets some shape hold the model when none does for memory, each checked by asking again: batches asked
 * for that fit; with `gpus` given, the fewest GPUs that serve; else, with memory held back, all of it; else FP8
 * weights where they make it fit; else (nothing checked helps) GPUs with more memory.
 */
function memoryRemedy(request: Record<string, unknown>, t: Slots, retry: Retry): string {
  const batches = batchRemedy(request, retry);
  if (batches !== undefined) return batches;
  const chunked = chunkRemedy(request, t, retry);
  if (chunked !== undefined) return chunked;
  const gpus = field(request, 'gpus');
  // FP8 weights where the GPU runs them and they fit the GPUs given: offered beside more GPUs, as they need none.
  const fp8 = request.precision === 'fp8' ? undefined : fewest(holding(retry, { set: { precision: 'fp8' } }));
  const fp8Text = fp8 === undefined ? undefined : `FP8 weights (${name(t, 'precision', 'fp8')}): ${shapeText(fp8)} holds them`;
  const needed = gpus === undefined ? undefined : fewestGpus(request, retry);
  if (needed !== undefined) return `${countsRemedy(needed, t, request)}${fp8Text === undefined ? '' : `; or try ${fp8Text}`}`;
  // Memory held back (vLLM's --gpu-memory-utilization): all of it may be enough.
  const held = field(request, 'gpuMemoryUtilization');
  const whole = held === undefined || held >= 1 ? undefined : fewest(holding(retry, { drop: ['gpuMemoryUtilization'] }));
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
 * The fewest GPUs that serve the request and the plan on them, as the remedy of an inference that holds no replica on the
 * GPUs given names them (memoryRemedy's countsRemedy): for another surface (the chat bot) to say the count the CLI's stderr
 * says. Undefined where that remedy names no count: the answer has a plan or fails for another reason than memory, no `gpus`
 * were given, batches asked for are the remedy, or (with latency bounds) no count tried meets them.
 */
export function fewestServingGpus(a: Served, request: Record<string, unknown>, retry: Retry): { gpus: number; best: InferencePointJson } | undefined {
  if (a.unservable === undefined || !outOfMemory(a) || field(request, 'gpus') === undefined || batchRemedy(request, retry) !== undefined) return undefined;
  const needed = fewestGpus(request, retry);
  if (needed === undefined) return undefined;
  if (needed.serves !== undefined) return needed.serves;
  if (bounded(request)) return undefined;
  // Without bounds the fewest that hold it serve: its plan at every batch, as `--gpus N` plans it.
  const best = retry({ set: { gpus: needed.holds } })?.best;
  return best === undefined ? undefined : { gpus: needed.holds, best };
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

/**
 * A Retry that asks runInference again with `request` changed: the remedies above check each thing they name so
 * (the CLI's stderr, and any surface that says what to change).
 */
export const retryInference = (request: Record<string, unknown>): Retry => ({ set = {}, drop = [] }) => {
  const again = runInference(Object.fromEntries(Object.entries({ ...request, ...set }).filter(([key]) => !drop.includes(key))));
  return again.ok ? again : undefined;
};
