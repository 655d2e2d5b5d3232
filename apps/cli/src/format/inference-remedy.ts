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
/** The shape of the fewest GPUs that serves, or undefined when none does. */
const fewestServing = (a: Served | undefined): Shape | undefined => (a?.byShape ?? [])
  .filter((s) => s.ok)
  .reduce<Shape | undefined>((m, s) => (m === undefined || s.tensor * s.pipeline < m.tensor * m.pipeline ? s : m), undefined);
const shapeText = (s: Shape): string => `TP ${s.tensor} · PP ${s.pipeline} (${countText(s.tensor * s.pipeline, 'GPU')})`;

/**
 * What lets some shape hold the model when none does for memory, each checked by asking again: with
 * `gpus` given, the fewest GPUs a replica that holds it needs; else, with memory held back, all of
 * it; else FP8 weights where they make it fit; else (nothing checked helps) GPUs with more memory.
 */
function memoryRemedy(request: Record<string, unknown>, t: Terms, retry: Retry): string {
  const gpus = field(request, 'gpus');
  // FP8 weights where the GPU runs them and they fit the GPUs given: offered beside more GPUs, as they need none.
  const fp8 = fewestServing(fp8Works(request, retry));
  const fp8Text = fp8 === undefined ? undefined : `FP8 weights (${name(t, '--precision fp8', 'precision "fp8"')}): ${shapeText(fp8)} holds them`;
  const unbounded = gpus === undefined ? undefined : fewestServing(retry({ drop: ['gpus'] }));
  if (unbounded !== undefined) {
    const needed = unbounded.tensor * unbounded.pipeline;
    return `to serve it, give ${gpusField(t, needed)} or a multiple of it: a replica of ${shapeText(unbounded)} holds it${fp8Text === undefined ? '' : `; or try ${fp8Text}`}`;
  }
  // Memory held back (vLLM's --gpu-memory-utilization): all of it may be enough.
  const held = field(request, 'gpuMemoryUtilization');
  const whole = held === undefined || held >= 1 ? undefined : fewestServing(retry({ drop: ['gpuMemoryUtilization'] }));
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
