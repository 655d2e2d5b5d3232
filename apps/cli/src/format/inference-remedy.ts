import { widestShape, type InferencePointJson, type InferenceResponseJson } from '@trainplan/protocol';
import { countText } from './count-text.ts';

type Served = Extract<InferenceResponseJson, { ok: true }>;

/** Significant figures a loosened bound is written to, rounded up so that the closest plan meets it. */
const FIGURES = 3;
const MS_PER_SECOND = 1000;

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

const tokenBound = (t: Terms, seconds: number): string =>
  (t.fromFlags ? `--max-token-ms ${ceilFigures(seconds * MS_PER_SECOND)}` : `maxDecodeSecondsPerToken ${ceilFigures(seconds)}`);
const firstTokenBound = (t: Terms, seconds: number): string =>
  (t.fromFlags ? `--max-ttft-s ${ceilFigures(seconds)}` : `maxPrefillSeconds ${ceilFigures(seconds)}`);
const gpusField = (t: Terms, gpus: number): string => (t.fromFlags ? `--gpus ${gpus}` : `gpus ${gpus}`);
const name = (t: Terms, flag: string, field: string): string => (t.fromFlags ? flag : field);

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

/**
 * What would give a plan when the latency bounds (or, with a rate, the GPUs) rule every plan out:
 * the bounds loosened to what the closest plan needs (which it then meets), and what serves faster.
 */
function boundsRemedy(closest: InferencePointJson, request: Record<string, unknown>, t: Terms, retry: Retry): string {
  const maxToken = field(request, 'maxDecodeSecondsPerToken');
  const maxFirst = field(request, 'maxPrefillSeconds');
  const gpus = field(request, 'gpus');
  const tokenMissed = maxToken !== undefined && closest.decodeStepSeconds > maxToken;
  const loosen = [
    ...(tokenMissed ? [tokenBound(t, closest.decodeStepSeconds)] : []),
    ...(maxFirst !== undefined && closest.prefillSeconds > maxFirst ? [firstTokenBound(t, closest.prefillSeconds)] : []),
    ...(gpus !== undefined && closest.load !== undefined && closest.load.gpus > gpus ? [gpusField(t, closest.load.gpus)] : []),
  ];
  const fp8 = fp8Works(request, retry);
  const faster = [
    ...(fp8 === undefined ? [] : [`FP8 weights (${name(t, '--precision fp8', 'precision "fp8"')}${fp8.best === undefined ? '' : ', which meets them'})`]),
    ...(tokenMissed && request.speculative === undefined ? [`speculative decoding (${name(t, '--draft-model', 'speculative')})`] : []),
    `a faster GPU (${name(t, '--gpu', 'cluster.gpu')})`,
  ];
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
 * The fewest GPUs that serve the request (as `gpus`), checked by asking again with them; the shape that holds it
 * there; and the next counts below twice as many that serve too. A count serves when a replica that holds the model
 * divides it (planInference tries a shape on `gpus` only as a whole number of replicas), so besides the fewest, n,
 * and its multiples, any count some other such replica divides: 405B on H200s is held by 6, 7, 8, … GPUs, on A100s
 * of 40 GB by 22, 24, 26, … but not 23 or 25 (a prime past 16 stages has no shape that holds it).
 */
function fewestGpus(request: Record<string, unknown>, retry: Retry): { readonly gpus: number; readonly shape: Holding; readonly others: readonly number[] } | undefined {
  // Every depth a count might be tried at, unless the request names its own or speculates (one stage only).
  const depths = request.pipeline === undefined && request.speculative === undefined ? { pipeline: COUNT_DEPTHS } : {};
  const sizes = [...new Set(holding(retry, { set: depths, drop: ['gpus'] }).map(gpusOf))].sort((a, b) => a - b);
  for (const gpus of sizes) {
    const shape = fewest(holding(retry, { set: { gpus } }));
    if (shape === undefined) continue;
    const others = Array.from({ length: gpus - 1 }, (_, i) => gpus + 1 + i).filter((n) => sizes.some((s) => n % s === 0)).slice(0, OTHER_COUNTS);
    return { gpus, shape, others };
  }
  return undefined;
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
 * What lets some shape hold the model when none does for memory, each checked by asking again: batches asked
 * for that fit; with `gpus` given, the fewest GPUs that serve; else, with memory held back, all of it; else FP8
 * weights where they make it fit; else (nothing checked helps) GPUs with more memory.
 */
function memoryRemedy(request: Record<string, unknown>, t: Terms, retry: Retry): string {
  const batches = batchRemedy(request, retry);
  if (batches !== undefined) return batches;
  const gpus = field(request, 'gpus');
  // FP8 weights where the GPU runs them and they fit the GPUs given: offered beside more GPUs, as they need none.
  const fp8 = request.precision === 'fp8' ? undefined : fewest(holding(retry, { set: { precision: 'fp8' } }));
  const fp8Text = fp8 === undefined ? undefined : `FP8 weights (${name(t, '--precision fp8', 'precision "fp8"')}): ${shapeText(fp8)} holds them`;
  const needed = gpus === undefined ? undefined : fewestGpus(request, retry);
  if (needed !== undefined) {
    // "Or a multiple of it" only where no count between it and its double serves (none that another replica divides).
    const [or, also] = needed.others.length === 0 ? [' or a multiple of it', '']
      : [', the fewest that serve', ` (${needed.others.map(grouped).join(', ')} … serve too: any count that a replica holding it divides)`];
    return `to serve it, give ${gpusField(t, needed.gpus)}${or}: a replica of ${shapeText(needed.shape)} holds it${also}${fp8Text === undefined ? '' : `; or try ${fp8Text}`}`;
  }
  // Memory held back (vLLM's --gpu-memory-utilization): all of it may be enough.
  const held = field(request, 'gpuMemoryUtilization');
  const whole = held === undefined || held >= 1 ? undefined : fewest(holding(retry, { drop: ['gpuMemoryUtilization'] }));
  if (whole !== undefined) {
    return `to serve it, raise ${name(t, '--gpu-memory-utilization', 'gpuMemoryUtilization')}: with all of each GPU's memory, ${shapeText(whole)} holds it`;
  }
  if (fp8Text !== undefined) return `to serve it, try ${fp8Text}`;
  return `to serve it, give GPUs with more memory (${name(t, '--gpu', 'cluster.gpu')})`;
}

/**
 * Why there is no plan and how to get one, for the one stderr line of an inference that exits 1:
 * the reason the answer gives (`unservable`, or the closest plan's miss), then a remedy built from
 * the request (bounds the closest plan meets, the GPUs a replica needs, what serves faster), checked
 * where it can be by asking again (`retry`).
 */
export function inferenceFailureText(
  a: Served, request: Record<string, unknown>, terms: Terms & { readonly unservable?: string; readonly bounds?: string }, retry: Retry,
): string {
  if (terms.unservable !== undefined) {
    // unservable quotes the widest shape's reason: memory has a remedy here; a shape dividing none of the GPUs given says its own.
    const widest = widestShape(a.byShape);
    const memory = widest !== undefined && !widest.ok && widest.reason === 'out-of-memory';
    return memory ? `${terms.unservable}; ${memoryRemedy(request, terms, retry)}` : terms.unservable;
  }
  const head = `no plan meets the latency bounds${terms.bounds === undefined ? '' : ` (${terms.bounds})`}`;
  if (a.closest === undefined) return head;
  return `${head}: ${a.closest.why}; ${boundsRemedy(a.closest.point, request, terms, retry)}`;
}
