import type { InferencePointJson } from '@trainplan/protocol';

/**
 * "Serve llama3-70b to 500 concurrent users at 50 ms per token": N requests decoded at once by a service, spread over as
 * many replicas of one TP × PP shape as it takes (a load balancer spreads sessions over vLLM or TensorRT-LLM replicas), each
 * at ⌈N / replicas⌉ or fewer. QA: N was read as one replica's batch, TP 4 · PP 8 (32 GPUs) holding all 500, where 7
 * replicas of TP 4 · PP 1 (28 GPUs) at 72 each meet the same bound. The search is enumerate → evaluate → rank over the
 * shapes the protocol tries; the estimates are the protocol's (the caller's `at`), none reckoned here.
 */

/** A replica shape the protocol tries, with its GPUs and the largest batch that fits in its memory (its maxBatch). */
export interface ReplicaShape {
  readonly tensor: number;
  readonly pipeline: number;
  readonly gpus: number;
  readonly maxBatch: number;
}

/**
 * A shape's point at one batch (no more than its maxBatch), planned with the question's latency bounds, and whether it
 * keeps them (the protocol's own test: its best is that point); undefined where the protocol plans none.
 */
export type PointAt = (shape: ReplicaShape, batch: number) => { readonly point: InferencePointJson; readonly within: boolean } | undefined;

/** `users` requests held at once as `replicas` replicas of one shape, the fullest at `batch` (⌈users / replicas⌉): its point's figures. */
export interface SpreadPlan {
  readonly users: number;
  readonly replicas: number;
  readonly batch: number;
  readonly gpus: number;
  readonly point: InferencePointJson;
}

export interface SpreadSearch {
  /** The fewest GPUs that hold the users within the bounds (on the GPUs named, at most those); ties: the least time per token. */
  readonly fewest?: SpreadPlan;
  /** With GPUs named: the least time per token within the bounds on them, the users spread over as many replicas as they hold. */
  readonly fastest?: SpreadPlan;
  /** With none named: one replica holding all the users within the bounds, on the fewest GPUs (what reading N as one replica's batch gives). */
  readonly single?: SpreadPlan;
  /** Where none holds them within the bounds, on the GPUs named: the most users they hold within the bounds. */
  readonly mostWithin?: SpreadPlan;
  /** Where none holds them within the bounds: all the users on the plan nearest the bounds (the least worst ratio of a latency to its bound). */
  readonly nearest?: SpreadPlan;
}

/** The latency bounds a point is held to, for the nearest plan that misses them (undefined: not bounded). */
export interface Bounds {
  readonly maxTokenSeconds?: number;
  readonly maxFirstTokenSeconds?: number;
}

/**
 * More replicas tried past ⌈N / b⌉ where the batches they hold miss a bound that b keeps (a wiggle, below): each takes a
 * smaller batch. The wiggles span a few batches, so a few replicas more reach past them; a shape still missing is left out.
 */
const WIGGLE_REPLICAS = 4;

/**
 * The largest batch in 1 … `most` at which the shape keeps the bounds, or 0 where even one request misses them: a
 * bisection (about log₂ most estimates). It is valid because a larger batch decodes each token no faster and gives its
 * first token no sooner (each decode step reads every sequence's KV cache and computes its tokens, and the prefill admits
 * more prompts), so keeping the bounds holds up to some batch and fails past it, as the protocol's own search takes it
 * (@trainplan/search's boundBatches). The estimates wiggle a little (an all-reduce of an odd number of tokens costs
 * slightly more than of the next even one; with PP p each micro-batch is ⌈b/p⌉): the bisection may then stop a few
 * batches short of the true largest, which can cost a replica but never gives a plan that misses, as the batches a plan
 * serves are estimated again and must keep the bounds (spreadOver).
 */
function largestWithin(shape: ReplicaShape, most: number, at: PointAt): number {
  const keeps = (batch: number) => at(shape, batch)?.within === true;
  if (most < 1 || !keeps(1)) return 0;
  if (keeps(most)) return most;
  let [yes, no] = [1, most];
  while (no - yes > 1) {
    const mid = Math.floor((yes + no) / 2);
    if (keeps(mid)) yes = mid; else no = mid;
  }
  return yes;
}

/**
 * `users` over `replicas` of a shape: ⌈users / replicas⌉ on the fullest and ⌊users / replicas⌋ on the others, both
 * estimated, so every replica keeps the bounds (a wiggle can make the smaller batch the slower); undefined where one misses
 * or the fullest does not fit in memory. The plan's figures are the fullest replica's.
 */
function spreadAs(shape: ReplicaShape, users: number, replicas: number, at: PointAt): SpreadPlan | undefined {
  const batch = Math.ceil(users / replicas);
  const fewer = Math.floor(users / replicas);
  if (batch > shape.maxBatch) return undefined;
  const fullest = at(shape, batch);
  if (fullest === undefined || !fullest.within) return undefined;
  if (fewer !== batch && fewer >= 1 && at(shape, fewer)?.within !== true) return undefined;
  return { users, replicas, batch, gpus: replicas * shape.gpus, point: fullest.point };
}

/**
 * The fewest replicas of a shape that hold `users` within the bounds, on at most `cap` GPUs: ⌈users / b⌉ for the largest
 * batch b that keeps them, or a few more where a wiggle makes the batches they hold miss (WIGGLE_REPLICAS).
 */
function spreadOver(shape: ReplicaShape, users: number, at: PointAt, cap: number): SpreadPlan | undefined {
  const largest = largestWithin(shape, Math.min(shape.maxBatch, users), at);
  if (largest === 0) return undefined;
  const fewest = Math.ceil(users / largest);
  for (let replicas = fewest; replicas <= Math.min(users, fewest + WIGGLE_REPLICAS) && replicas * shape.gpus <= cap; replicas++) {
    const plan = spreadAs(shape, users, replicas, at);
    if (plan !== undefined) return plan;
  }
  return undefined;
}

/** Whether a plan is one replica holding all its users: the plan reading them as one replica's batch gives. */
const oneReplica = (x: SpreadPlan): number => (x.replicas === 1 ? 0 : 1);

/**
 * Fewer GPUs first; on as many, one replica holding them all (a single replica stays the answer where it is among the
 * fewest: one engine, no load balancer), then the least time per token, then the sooner first token.
 */
const fewerGpus = (a: SpreadPlan, b: SpreadPlan): number =>
  a.gpus - b.gpus || oneReplica(a) - oneReplica(b) || a.point.decodeStepSeconds - b.point.decodeStepSeconds || a.point.prefillSeconds - b.point.prefillSeconds;

/** The least time per token first; at the same, fewer GPUs. */
const fasterPerToken = (a: SpreadPlan, b: SpreadPlan): number => a.point.decodeStepSeconds - b.point.decodeStepSeconds || a.gpus - b.gpus;

const firstOf = (plans: readonly (SpreadPlan | undefined)[], order: (a: SpreadPlan, b: SpreadPlan) => number): SpreadPlan | undefined =>
  plans.filter((x): x is SpreadPlan => x !== undefined).sort(order)[0];

/**
 * The fewest GPUs: the shapes in order of the fewest GPUs they could take (⌈N / maxBatch⌉ replicas, memory's bound on any
 * batch), each searched until that bound passes the best plan found (a branch and bound: a shape whose every plan takes
 * more GPUs is not estimated).
 */
function fewestOf(shapes: readonly ReplicaShape[], users: number, at: PointAt, cap: number): SpreadPlan | undefined {
  const atLeast = (s: ReplicaShape) => s.gpus * Math.ceil(users / Math.min(s.maxBatch, users));
  let best: SpreadPlan | undefined;
  for (const shape of [...shapes].sort((a, b) => atLeast(a) - atLeast(b))) {
    if (atLeast(shape) > cap || (best !== undefined && atLeast(shape) > best.gpus)) break;
    best = firstOf([best, spreadOver(shape, users, at, cap)], fewerGpus);
  }
  return best;
}

/** The most replicas of a shape `cap` GPUs hold, and no more than one for each user: the users spread as widely as they can be. */
const widestReplicas = (shape: ReplicaShape, users: number, cap: number): number => Math.min(users, Math.floor(cap / shape.gpus));

/** The users over the widest spread of each shape on `cap` GPUs, within the bounds or not (none where its fullest does not fit). */
const widestOf = (shapes: readonly ReplicaShape[], users: number, cap: number, at: PointAt): SpreadPlan[] =>
  shapes.flatMap((shape) => {
    const replicas = widestReplicas(shape, users, cap);
    const batch = replicas < 1 ? 0 : Math.ceil(users / replicas);
    const x = batch < 1 || batch > shape.maxBatch ? undefined : at(shape, batch);
    return x === undefined ? [] : [{ users, replicas, batch, gpus: replicas * shape.gpus, point: x.point }];
  });

/** A plan's worst ratio of a latency to its bound (the protocol's closest plan is the least of it). */
function worstRatio(x: SpreadPlan, bounds: Bounds): number {
  const token = bounds.maxTokenSeconds === undefined ? 0 : x.point.decodeStepSeconds / bounds.maxTokenSeconds;
  const first = bounds.maxFirstTokenSeconds === undefined ? 0 : x.point.prefillSeconds / bounds.maxFirstTokenSeconds;
  return Math.max(token, first);
}

/**
 * Where nothing holds the users within the bounds: on the GPUs named, the most users each shape holds within them (as many
 * replicas as they hold, each at its largest batch within them), and all the users on the plan nearest the bounds, spread
 * as widely as the GPUs allow (with none named, one request per replica: the least time per token there is).
 */
function missed(shapes: readonly ReplicaShape[], users: number, at: PointAt, gpus: number | undefined, bounds: Bounds): Pick<SpreadSearch, 'mostWithin' | 'nearest'> {
  const nearest = widestOf(shapes, users, gpus ?? Number.POSITIVE_INFINITY, at)
    .reduce<SpreadPlan | undefined>((a, b) => (a === undefined || worstRatio(b, bounds) < worstRatio(a, bounds) ? b : a), undefined);
  if (gpus === undefined) return { nearest };
  const mostWithin = shapes.flatMap((shape) => {
    const replicas = Math.floor(gpus / shape.gpus);
    const batch = largestWithin(shape, shape.maxBatch, at);
    const x = batch === 0 ? undefined : at(shape, batch);
    return x === undefined || replicas < 1 ? [] : [{ users: replicas * batch, replicas, batch, gpus: replicas * shape.gpus, point: x.point }];
  }).reduce<SpreadPlan | undefined>((a, b) => (a === undefined || b.users > a.users || (b.users === a.users && b.gpus < a.gpus) ? b : a), undefined);
  return { mostWithin, nearest };
}

/** `at` asked once for each shape and batch: the searches below ask the same points again (a bisection's ends, a plan's batches). */
function memoized(at: PointAt): PointAt {
  const known = new Map<string, ReturnType<PointAt>>();
  return (shape, batch) => {
    const key = `${shape.tensor}·${shape.pipeline}·${batch}`;
    if (!known.has(key)) known.set(key, at(shape, batch));
    return known.get(key);
  };
}

/**
 * `users` requests held at once, within the bounds, over the `shapes` tried (on `gpus` when named: a plan takes at most
 * those): the plan on the fewest GPUs; with GPUs named, the one of least time per token on them; with none named, the
 * fewest GPUs one replica holding them all takes; where none holds them, what comes closest (SpreadSearch).
 */
export function spreadUsers(users: number, shapes: readonly ReplicaShape[], estimate: PointAt, gpus: number | undefined, bounds: Bounds): SpreadSearch {
  const at = memoized(estimate);
  const cap = gpus ?? Number.POSITIVE_INFINITY;
  const fewest = fewestOf(shapes, users, at, cap);
  if (fewest === undefined) return shapes.length === 0 ? {} : missed(shapes, users, at, gpus, bounds);
  if (gpus !== undefined) {
    const widest = shapes.map((s) => (widestReplicas(s, users, gpus) < 1 ? undefined : spreadAs(s, users, widestReplicas(s, users, gpus), at)));
    return { fewest, fastest: firstOf(widest, fasterPerToken) };
  }
  if (fewest.replicas === 1) return { fewest, single: fewest };
  const single = firstOf(shapes.filter((s) => s.maxBatch >= users).map((s) => spreadAs(s, users, 1, at)), fewerGpus);
  return { fewest, single };
}

