/**
 * The fewest GPUs that serve an inference request, searched by asking runInference again on each count (a Retry): the one
 * search behind every surface that names that count (the CLI's and the API's remedy in inference-remedy.ts, and the chat
 * bot's "fewest GPUs" answers), so that they cannot name different counts for one request. It finds counts; the surfaces
 * word them.
 */
import type { InferencePointJson } from './inference-json.ts';
import { field, type Retry, type Served } from './inference-retry.ts';
import { rateFirstTokenBound } from './inference-messages.ts';

type Shape = Served['byShape'][number];
/** A shape that holds the model, with its largest batch's point. */
export type Holding = Extract<Shape, { ok: true }>;
/** An answer with a plan that meets the request's bounds. */
export type Planned = Served & { readonly best: InferencePointJson };

export const gpusOf = (s: { readonly tensor: number; readonly pipeline: number }): number => s.tensor * s.pipeline;

/**
 * The shapes that hold the model when the request is changed so, each tried at batch 1 alone: what fits at all,
 * and decode times that compare like for like (each shape's largest batch is another batch, and a larger batch
 * decodes slower). None when the change is refused or nothing holds it.
 */
export function holding(retry: Retry, change: { readonly set?: Record<string, unknown>; readonly drop?: readonly string[] }): Holding[] {
  const a = retry({ set: { ...change.set, batches: [1] }, drop: change.drop });
  return (a?.byShape ?? []).filter((s): s is Holding => s.ok);
}

/**
 * The shape of the fewest GPUs among those that hold it, or undefined when none does; of those of as many GPUs, the
 * one decoding a token soonest (TP 8 · PP 1 rather than TP 1 · PP 8: pipeline stages do not shorten a token's
 * path through the layers, tensor parallelism does), then the sooner first token.
 */
export function fewestShape(shapes: readonly Holding[]): Holding | undefined {
  const faster = (a: Holding, b: Holding) => a.largestBatch.decodeStepSeconds - b.largestBatch.decodeStepSeconds || a.largestBatch.prefillSeconds - b.largestBatch.prefillSeconds;
  return shapes.reduce<Holding | undefined>((m, s) => (m === undefined || gpusOf(s) - gpusOf(m) < 0 || (gpusOf(s) === gpusOf(m) && faster(s, m) < 0) ? s : m), undefined);
}

/**
 * The pipeline depths planInference tries on a GPU count (its MAX_DEFAULT_PIPELINE: every depth up to 16 that divides
 * the count). Without a count it tries 1, 2, 4 and 8 only, so a replica of 3 or 11 stages (405B on 6 H200s as
 * TP 2 · PP 3, on 22 A100s of 40 GB as TP 2 · PP 11) is asked for by name.
 */
const COUNT_DEPTHS = Array.from({ length: 16 }, (_, i) => i + 1);

/** How many other GPU counts that serve are found beside the fewest (a remedy names them). */
export const OTHER_COUNTS = 4;

/**
 * The most GPU counts asked again at a rate while looking for the fewest that serve it (each ask a few ms: 256 reach
 * 405B's 96 H200s at 5 requests/s and 50 ms a token in well under a second).
 */
const MAX_COUNTS_TRIED = 256;

/** The request bounds a plan's latency (or, with a rate, its GPUs): then holding the model is not enough to serve it. */
export const bounded = (request: Record<string, unknown>): boolean =>
  ['maxDecodeSecondsPerToken', 'maxPrefillSeconds', 'requestsPerSecond'].some((key) => field(request, key) !== undefined);

/**
 * How far a point is from meeting the bounds on `gpus` GPUs: its worst latency-to-bound ratio, and with a rate the GPUs it needs
 * over those given (planInference's closestMiss in packages/search/src/inference/frontier.ts, which picks the closest plan on one
 * count by it; here it picks the closest over the counts tried). The first-token bound is the one the plan applied: with a rate
 * and none given, the default (rateFirstTokenBound), as closestMiss sees it (QA: 50 requests/s of 65,536-token prompts on H100s
 * named 1 GPU nearest, its first token 3.66 s against the default 2 s, every count's miss scored 0 with the bound left out).
 */
function missRatio(p: InferencePointJson, request: Record<string, unknown>, gpus: number): number {
  const maxToken = field(request, 'maxDecodeSecondsPerToken');
  const maxFirst = rateFirstTokenBound({ maxPrefillSeconds: field(request, 'maxPrefillSeconds'), requestsPerSecond: field(request, 'requestsPerSecond') });
  return Math.max(
    maxToken === undefined ? 0 : p.decodeStepSeconds / maxToken,
    maxFirst === undefined ? 0 : p.prefillSeconds / maxFirst,
    field(request, 'requestsPerSecond') === undefined || p.load === undefined ? 0 : p.load.gpus / gpus,
  );
}

/** What the search found on GPU counts: the fewest that hold the model, the fewest that serve the request, or the nearest miss. */
export interface FewestGpus {
  /** The fewest GPUs whose replica holds the model (at one request), and its fastest shape of that many. */
  readonly holds: number;
  readonly shape: Holding;
  /**
   * The fewest GPUs whose plan serves the request as asked (within its bounds, at its rate and batches: the answer on them has a
   * best plan, as the CLI exits 0), that plan and the answer; absent where no count tried does.
   */
  readonly serves?: { readonly gpus: number; readonly best: InferencePointJson; readonly answer: Planned };
  /** With latency bounds or a rate, the counts from `holds` that hold it but whose plans miss them, ascending (none without). */
  readonly missed: readonly number[];
  /**
   * Where no count tried serves: the last count tried, and with bounds the closest plan over all of them with its count
   * (without bounds none: no count holds the batches asked).
   */
  readonly lastTried?: number;
  readonly nearest?: { readonly gpus: number; readonly why: string; readonly point: InferencePointJson };
  /**
   * The next counts below twice the first that serve, each checked by asking again: from `serves` (none where no count serves).
   */
  readonly others: readonly number[];
}

/**
 * The fewest GPUs that serve the request (as `gpus`), each count checked by asking again with it: the CLI exits 0 exactly when
 * the answer has a best plan. A count can serve only where a replica that holds the model divides it (planInference tries a shape
 * on `gpus` only as a whole number of replicas), so besides the fewest that hold it, n, and its multiples, any count some other
 * such replica divides: 405B on H200s is held by 6, 7, 8, … GPUs, on A100s of 40 GB by 22, 24, 26, … but not 23 or 25 (a prime
 * past 16 stages has no shape that holds it). Holding it is not always enough (405B on 6 H200s decodes a token in 125 ms as
 * TP 2 · PP 3; 8 as TP 8 decode in 50 ms; a batch asked may need more): the counts are asked in turn until one's plan serves.
 * Without a rate that stops at the largest replica (more GPUs add replicas, which shorten no token and hold no larger batch);
 * with one, after MAX_COUNTS_TRIED counts. The request's own `gpus` is not read.
 */
export function fewestGpus(request: Record<string, unknown>, retry: Retry): FewestGpus | undefined {
  // Every depth a count might be tried at, unless the request names its own or speculates (one stage only).
  const depths = request.pipeline === undefined && request.speculative === undefined ? { pipeline: COUNT_DEPTHS } : {};
  const sizes = [...new Set(holding(retry, { set: depths, drop: ['gpus'] }).map(gpusOf))].sort((a, b) => a - b);
  const held = (n: number): boolean => sizes.some((s) => n % s === 0);
  const servesOn = (n: number): boolean => retry({ set: { gpus: n } })?.best !== undefined;
  let holds: { gpus: number; shape: Holding } | undefined;
  for (const gpus of sizes) {
    const shape = fewestShape(holding(retry, { set: { gpus } }));
    if (shape !== undefined) { holds = { gpus, shape }; break; }
  }
  if (holds === undefined) return undefined;
  const nextServing = (from: number): number[] => {
    const found: number[] = [];
    for (let n = from + 1; n < 2 * from && found.length < OTHER_COUNTS; n++) if (held(n) && servesOn(n)) found.push(n);
    return found;
  };
  const last = field(request, 'requestsPerSecond') === undefined ? sizes.at(-1)! : Number.POSITIVE_INFINITY;
  const missed: number[] = [];
  let nearest: FewestGpus['nearest'];
  let serves: FewestGpus['serves'];
  for (let n = holds.gpus, tried = 0; n <= last && tried < MAX_COUNTS_TRIED; n++) {
    if (!held(n)) continue;
    tried++;
    const a = retry({ set: { gpus: n } });
    if (a?.best !== undefined) { serves = { gpus: n, best: a.best, answer: { ...a, best: a.best } }; break; }
    missed.push(n);
    const c = a?.closest;
    if (c !== undefined && (nearest === undefined || missRatio(c.point, request, n) < missRatio(nearest.point, request, nearest.gpus))) nearest = { gpus: n, ...c };
  }
  const found = { holds: holds.gpus, shape: holds.shape, ...(serves !== undefined && { serves }) };
  // The counts that serve beside it are counted from the fewest that serve (a remedy offers them with it): without bounds that is
  // the fewest that hold it unless batches asked for need more (Llama 3 70B on H100s at batch 256: 2 hold it, 5 serve).
  if (serves !== undefined) return { ...found, missed: bounded(request) ? missed : [], others: nextServing(serves.gpus) };
  // Without bounds no count up to the largest replica holds the batches asked (more replicas hold no larger batch).
  if (!bounded(request)) return { ...found, missed: [], lastTried: missed.at(-1), others: [] };
  return { ...found, missed, lastTried: missed.at(-1), nearest, others: [] };
}
