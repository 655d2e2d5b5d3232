import { attendLimit } from '@trainplan/model';
import { formatGrouped, formatSeconds } from '@trainplan/units';
import type { InferenceAnswer, InferenceEstimate } from './inference-estimate.ts';
import type { InferenceBase, InferenceShape } from './inference-shape.ts';
import { estimateInference } from './inference-plan.ts';
import { servingCost } from './serving-cost.ts';
import { servingLoad } from './serving-load.ts';
import { idleFleet, loadedPoint, type IdleFleet } from './idle-fleet.ts';
import { planAcrossNodes, tensorsAcrossNodes } from './tensor-across-nodes.ts';
import { boundBatches } from './bound-batch.ts';
import { chunkBatchLimit, chunkLimitWarnings, type ChunkBound } from './chunk-batch-limit.ts';
import { powersOfTwoUpTo } from '../search-space.ts';

/**
 * What every shape tried shares: the lengths, the batching and its options, the KV cache's format and
 * speculation, each as InferenceShape says (none of them left out means the same as there).
 */
type PerShape = Pick<InferenceShape, 'promptTokens' | 'outputTokens' | 'batching' | 'prefillChunkTokens'
  | 'gpuMemoryUtilization' | 'sharedPrefixTokens' | 'kvCachePrecision' | 'speculative'>;

export interface InferenceSearch extends PerShape {
  /**
   * Tensor-parallel degrees tried (default powers of two up to the NVLink domain, and up to `gpus` when given; where within
   * the domain the first-token bound holds every plan idle at a rate, twice the domain too: tensor-across-nodes.ts).
   */
  readonly tensor?: readonly number[];
  /** Pipeline depths tried (default 1, 2, 4, 8 up to the layers; with `gpus`, every depth up to 16 that divides it; speculating, 1). */
  readonly pipeline?: readonly number[];
  /**
   * GPUs available to serve: only the TP × PP shapes whose GPU count t·p divides it are tried (and
   * listed in byShape), each as gpus / (t·p) replicas. Without it, every shape tried is one replica.
   */
  readonly gpus?: number;
  /**
   * Batches tried. Default: the powers of two up to each shape's largest batch that fits and that batch, and
   * besides them the batches at which the bounds bind (any whole batch, as vLLM's max_num_seqs or
   * TensorRT-LLM's max_batch_size: the largest that meets the latency bounds, and with a rate the one that
   * needs the fewest GPUs; boundBatches). Given, exactly these: one a shape cannot hold is left out of its points
   * with a warning, and a shape that holds none of them is refused for the smallest (out of memory, naming the
   * largest batch that fits).
   */
  readonly batches?: readonly number[];
  /** Keep plans whose per-token decode latency is at most this (with one output token, none is decoded: not applied). */
  readonly maxDecodeSecondsPerToken?: number;
  /** Keep plans whose time to first token is at most this (with a request rate, the wait for a slot included). */
  readonly maxPrefillSeconds?: number;
  /**
   * Continuous batching: a request rate to serve. Each point then carries its `load` (servingLoad: the
   * replicas, GPUs and slot wait for it) and the best plan is the one needing the fewest GPUs (on `gpus`,
   * at most those), ties to the higher tokens/s per GPU.
   */
  readonly requestsPerSecond?: number;
  /** A price per GPU-hour: every point then carries its cost (servingCost), in that price's currency. */
  readonly pricePerGpuHour?: number;
  /**
   * The longest context the model is specified to serve, where longer than the sequence length it was pre-trained at
   * (a preset's contextWindowTokens: Llama 3.1's 128K): a longer prompt and output are warned about against it.
   */
  readonly contextWindowTokens?: number;
}

export interface InferencePlanResult {
  /** Every runnable (TP, PP, batch) point tried. */
  readonly points: readonly InferenceEstimate[];
  /** The throughput-versus-latency frontier: no other point is both faster per token and higher in tokens/s/GPU. */
  readonly frontier: readonly InferenceEstimate[];
  /** The highest tokens/s per GPU that meets the latency bounds. */
  readonly best?: InferenceEstimate;
  /** Per (TP, PP): the largest batch and its figures, or why it cannot serve. */
  readonly byShape: readonly { readonly tensor: number; readonly pipeline: number; readonly answer: InferenceAnswer }[];
  /**
   * When no point meets the bounds: the one nearest to meeting them (the least worst ratio of its
   * latency to a bound), and the figures by which it misses, e.g. "the closest plan (TP 8, PP 1,
   * batch 1) decodes a token in 18.6 ms against the 1 µs bound; its first token comes after 120 ms".
   */
  readonly closest?: { readonly point: InferenceEstimate; readonly why: string };
  /**
   * With a rate and a first-token bound: where the best plan meets the bound only with its replicas kept under LOAD_FLOOR busy
   * (idle-fleet.ts), the prompt's prefill leaving too little of it for the wait for a slot, with tensor parallelism across nodes
   * tried too (tensor-across-nodes.ts): why, and the tightest bound a point tried meets at that load.
   */
  readonly idleFleet?: IdleFleet;
  /** Caveats about the request, e.g. a context longer than the model's sequence length. */
  readonly warnings: readonly string[];
}

/** The deepest pipeline tried by default on a GPU count (a replica of 16 stages already pays 15 sends a token). */
const MAX_DEFAULT_PIPELINE = 16;

/** Pareto frontier over (decode latency ↓, tokens/s/GPU ↑), sorted by latency. */
export function latencyThroughputFrontier(points: readonly InferenceEstimate[]): InferenceEstimate[] {
  const sorted = [...points].sort((a, b) => a.decodeStepSeconds - b.decodeStepSeconds || b.tokensPerSecondPerGpu - a.tokensPerSecondPerGpu);
  const out: InferenceEstimate[] = [];
  let bestThroughput = -Infinity;
  for (const p of sorted) {
    if (p.tokensPerSecondPerGpu > bestThroughput) {
      out.push(p);
      bestThroughput = p.tokensPerSecondPerGpu;
    }
  }
  return out;
}

/**
 * Inference planning: for each TP × PP shape of one replica, the batches that fit, their prefill and
 * decode latency and tokens/s per GPU; the frontier; and the best plan under the latency bounds.
 *
 * Unless the request lists its batches, each shape is tried at the powers of two up to its largest batch
 * (the frontier's points) and at the batches where the bounds bind: a larger batch never decodes a token
 * faster nor gives its first token sooner but serves more tokens/s per GPU, and an engine's batch limit
 * (vLLM's max_num_seqs, TensorRT-LLM's max_batch_size) is any whole number, so the best batch under a
 * latency bound is the largest that meets it, which a bisection over 1 … maxBatch finds in about
 * log₂ maxBatch estimates; with a request rate, also the batch that needs the fewest GPUs for it
 * (boundBatches). A plan between two powers of two is then found rather than rounded down to one.
 *
 * With a rate, a first-token bound the prompt's prefill nearly fills leaves so little for the wait for a slot that only replicas
 * kept all but idle meet it (idleFleet). Tensor parallelism across nodes, which shortens that prefill, is then tried as well
 * (planAcrossNodes), and its plan taken where it needs fewer GPUs; where the plan is still an idle fleet, the answer says so (`idleFleet`).
 */
export function planInference(base: InferenceBase, asked: InferenceSearch): InferencePlanResult {
  const search = withoutDecodeBound(asked);
  const gpus = search.gpus ?? Number.POSITIVE_INFINITY;
  const tensors = search.tensor ?? powersOfTwoUpTo(Math.min(base.nvlinkDomainGpus, gpus));
  const within = planShapes(base, search, tensors);
  // Where within one NVLink domain the first-token bound holds every plan idle, tensor parallelism across nodes is tried too.
  const idle = idleFleet(within.points, within.best, search);
  // With a rate on the GPUs given and no plan on them, the same: that idle fleet does not fit them (planAcrossNodes).
  const noneOnGpus = within.best === undefined && search.requestsPerSecond !== undefined && search.gpus !== undefined;
  const across = idle === undefined && !noneOnGpus ? undefined
    : planAcrossNodes(idle, search.gpus, tensors, tensorsAcrossNodes(base.nvlinkDomainGpus, search), base.nvlinkDomainGpus, (t) => planShapes(base, search, t));
  const { leftOut, chunkBound, ...plan } = across?.plan ?? within;
  // Across nodes the plan may be under half loaded still: said as the idle fleet within was.
  const stillIdle = across === undefined ? idle : idleFleet(plan.points, plan.best, search);
  return {
    ...plan,
    ...(stillIdle !== undefined && { idleFleet: stillIdle }),
    warnings: [...contextWarnings(base, search), ...singleTokenWarnings(asked), ...(across === undefined ? [] : [across.warning]), ...leftOutWarnings(leftOut), ...chunkLimitWarnings(chunkBound)],
  };
}

/** planInference over some tensor-parallel degrees: its plan, and the batches left out and chunk limits its warnings say. */
interface ShapesPlan extends Omit<InferencePlanResult, 'warnings' | 'idleFleet'> {
  readonly leftOut: readonly LeftOut[];
  readonly chunkBound: readonly ChunkBound[];
}

/** The search's shapes (each of `tensors` by each pipeline depth tried), their points, the frontier and the best plan. */
function planShapes(base: InferenceBase, search: InferenceSearch, tensors: readonly number[]): ShapesPlan {
  const gpus = search.gpus ?? Number.POSITIVE_INFINITY;
  // With the GPUs given, every depth up to MAX_DEFAULT_PIPELINE that divides them (24 GPUs serve 405B as TP 8 · PP 3).
  const depths = search.gpus === undefined ? [1, 2, 4, 8] : Array.from({ length: MAX_DEFAULT_PIPELINE }, (_, i) => i + 1).filter((p) => gpus % p === 0);
  // Speculative decoding is modelled on one stage (estimateInference): deeper pipelines are not tried unless asked.
  const pipelines = search.pipeline ?? (search.speculative === undefined ? depths.filter((p) => p <= base.model.layers && p <= gpus) : [1]);
  // With the GPUs given, a shape is a whole number of replicas on them or it is not tried.
  const divides = (tensor: number, pipeline: number) => search.gpus === undefined || search.gpus % (tensor * pipeline) === 0;
  const points: InferenceEstimate[] = [];
  const byShape: { tensor: number; pipeline: number; answer: InferenceAnswer }[] = [];
  const leftOut: LeftOut[] = [];
  const chunkBound: ChunkBound[] = [];
  for (const tensor of tensors) {
    for (const pipeline of pipelines.filter((p) => divides(tensor, p))) {
      const { promptTokens, outputTokens, batching, prefillChunkTokens, gpuMemoryUtilization, sharedPrefixTokens, kvCachePrecision, speculative } = search;
      const shape = { tensor, pipeline, promptTokens, outputTokens, batching, prefillChunkTokens, gpuMemoryUtilization, sharedPrefixTokens, kvCachePrecision, speculative };
      const memo = {};
      const estimates = new Map<number, InferenceAnswer>();
      const at = (batch: number): InferenceAnswer => {
        const known = estimates.get(batch);
        if (known !== undefined) return known;
        const e = estimateInference(base, { ...shape, batch }, memo);
        estimates.set(batch, e);
        return e;
      };
      const probe = at(1);
      if (!probe.ok) { byShape.push({ tensor, pipeline, answer: probe }); continue; }
      // With chunked prefill, no batch past what its chunks keep running (chunkBatchLimit) is tried: it cannot be kept full.
      const chunkLimit = chunkBatchLimit(shape);
      const most = Math.min(probe.maxBatch, chunkLimit?.sequences ?? probe.maxBatch);
      // Batches asked for are each tried (in their order), and any that does not fit is said rather than dropped unseen.
      const batches = search.batches ?? defaultBatches(most, at, search);
      let largest: InferenceEstimate | undefined;
      const unfit: Unfit[] = [];
      for (const batch of batches) {
        const e = at(batch);
        if (!e.ok) { unfit.push(e); continue; }
        const loaded = search.requestsPerSecond === undefined ? e : withLoad(e, search.requestsPerSecond, search.maxPrefillSeconds);
        const point = search.pricePerGpuHour === undefined ? loaded : { ...loaded, cost: servingCost(loaded, search.pricePerGpuHour) };
        points.push(point);
        if (largest === undefined || point.shape.batch > largest.shape.batch) largest = point;
      }
      const [overChunk, overMemory] = [unfit.filter((u) => u.reason === 'prefill-chunk'), unfit.filter((u) => u.reason !== 'prefill-chunk')];
      if (largest !== undefined && overMemory.length > 0) leftOut.push({ tensor, pipeline, batches: overMemory.map((u) => u.shape.batch), maxBatch: probe.maxBatch });
      if (chunkLimit !== undefined && (overChunk.length > 0 || (search.batches === undefined && chunkLimit.sequences < probe.maxBatch))) {
        chunkBound.push({ tensor, pipeline, limit: chunkLimit, leftOut: overChunk.map((u) => u.shape.batch) });
      }
      // No batch asked fits: the shape's answer is why the smallest of them does not (never the probe at batch 1, which was not asked).
      byShape.push({ tensor, pipeline, answer: largest ?? (unfit.length > 0 ? tooLarge(unfit, probe.maxBatch) : probe) });
    }
  }
  const rated = search.requestsPerSecond !== undefined;
  // With a rate the first-token bound is the load's (the wait for a slot included), and the GPUs it needs must be there.
  const meetsLoad = (p: InferenceEstimate) => p.load !== undefined && (search.gpus === undefined || p.load.gpus <= search.gpus);
  const meets = (p: InferenceEstimate) => (search.maxDecodeSecondsPerToken === undefined || p.decodeStepSeconds <= search.maxDecodeSecondsPerToken)
    && (rated ? meetsLoad(p) : search.maxPrefillSeconds === undefined || p.prefillSeconds <= search.maxPrefillSeconds);
  const better = (a: InferenceEstimate, b: InferenceEstimate) => (rated && a.load!.gpus !== b.load!.gpus
    ? b.load!.gpus < a.load!.gpus
    : b.tokensPerSecondPerGpu > a.tokensPerSecondPerGpu);
  const best = points.filter(meets).reduce<InferenceEstimate | undefined>((a, b) => (!a || better(a, b) ? b : a), undefined);
  const closest = !best && points.length > 0 ? closestMiss(points, search) : undefined;
  return { points, frontier: latencyThroughputFrontier(points), best, byShape, closest, leftOut, chunkBound };
}

/** A shape on which some batches asked for fit and others do not: those left out, and the largest that fits. */
interface LeftOut { readonly tensor: number; readonly pipeline: number; readonly batches: readonly number[]; readonly maxBatch: number }

/** A batch's answer where it does not fit. */
type Unfit = Extract<InferenceAnswer, { ok: false }>;

const grouped = (n: number): string => n.toLocaleString('en-US');

/**
 * A shape none of whose batches asked for fits in memory: the smallest of them refused, its message saying so
 * and naming the largest batch that fits ("batch 100,000 does not fit (the largest that fits is 6,617): needs …").
 * One that fits but is past what its prefill chunks keep running is refused as the estimate says (its message names the limit).
 */
function tooLarge(unfit: readonly Unfit[], maxBatch: number): Unfit {
  const smallest = unfit.reduce((a, b) => (b.shape.batch < a.shape.batch ? b : a));
  if (smallest.reason === 'prefill-chunk') return smallest;
  const which = unfit.length > 1 ? `batch ${grouped(smallest.shape.batch)}, the smallest asked,` : `batch ${grouped(smallest.shape.batch)}`;
  return { ...smallest, message: `${which} does not fit (the largest that fits is ${grouped(maxBatch)}): ${smallest.message}` };
}

/**
 * Batches asked for that some shapes cannot hold, where others of the list fit them: left out of those shapes'
 * points, said in one warning ("batches asked for that do not fit in memory were left out: 20,000, 100,000 on TP 8 · PP 1
 * (at most 6,617 fit); 100,000 on TP 8 · PP 4 (at most 31,744 fit)").
 */
function leftOutWarnings(leftOut: readonly LeftOut[]): string[] {
  if (leftOut.length === 0) return [];
  const each = leftOut.map((l) => `${[...l.batches].sort((a, b) => a - b).map(grouped).join(', ')} on TP ${l.tensor} · PP ${l.pipeline} (at most ${grouped(l.maxBatch)} fit)`);
  return [`batches asked for that do not fit in memory were left out: ${each.join('; ')}`];
}

/**
 * The search as its bounds apply: with one output token no decode step runs (the prompt's prefill yields the
 * token, static or continuous), so a bound per generated token has nothing to bound and is dropped; the time to
 * first token is then the request's whole latency.
 */
function withoutDecodeBound(search: InferenceSearch): InferenceSearch {
  return search.outputTokens > 1 || search.maxDecodeSecondsPerToken === undefined ? search : { ...search, maxDecodeSecondsPerToken: undefined };
}

/** Why a per-token bound given with one output token is not applied (withoutDecodeBound). */
function singleTokenWarnings(search: InferenceSearch): string[] {
  if (search.outputTokens > 1 || search.maxDecodeSecondsPerToken === undefined) return [];
  return ['with one output token no token is decoded (the prompt\'s prefill yields it), so maxDecodeSecondsPerToken is not applied: '
    + 'the time to first token is the whole request; bound it with maxPrefillSeconds'];
}

/**
 * The batches a shape is tried at when the request names none: the powers of two up to its largest batch
 * that fits, and that batch (the throughput-versus-latency frontier drawn through them), and the batches at
 * which the bounds bind (boundBatches: the largest meeting the latency bounds, found by bisection, as an
 * engine's max_num_seqs or max_batch_size may be any whole number; with a rate, the one needing the fewest
 * GPUs), smallest first, so the last is the largest that fits.
 */
function defaultBatches(maxBatch: number, at: (batch: number) => InferenceAnswer, search: InferenceSearch): number[] {
  const { maxDecodeSecondsPerToken, maxPrefillSeconds, requestsPerSecond } = search;
  const bound = boundBatches({ maxBatch, at, maxDecodeSecondsPerToken, maxPrefillSeconds, requestsPerSecond });
  return [...new Set([...powersOfTwoUpTo(maxBatch), maxBatch, ...bound])].filter((b) => b >= 1).sort((a, b) => a - b);
}

/** The point with the replicas `requestsPerSecond` needs of it (servingLoad), or as it was when no count meets the first-token bound. */
function withLoad(e: InferenceEstimate, requestsPerSecond: number, maxFirstTokenSeconds: number | undefined): InferenceEstimate {
  const load = servingLoad(loadedPoint(e), requestsPerSecond, maxFirstTokenSeconds);
  return load === undefined ? e : { ...e, load };
}

/** The point nearest to meeting the bounds (the smallest of its worst latency-to-bound ratio), and by how much it misses. */
function closestMiss(points: readonly InferenceEstimate[], search: InferenceSearch): NonNullable<InferencePlanResult['closest']> {
  const decodeBound = search.maxDecodeSecondsPerToken;
  const prefillBound = search.maxPrefillSeconds;
  const gpus = search.requestsPerSecond === undefined ? undefined : search.gpus;
  const worst = (p: InferenceEstimate) => Math.max(
    decodeBound === undefined ? 0 : p.decodeStepSeconds / decodeBound,
    prefillBound === undefined ? 0 : p.prefillSeconds / prefillBound,
    gpus === undefined || p.load === undefined ? 0 : p.load.gpus / gpus,
  );
  const point = points.reduce((a, b) => (worst(b) < worst(a) ? b : a));
  const against = (bound: number | undefined, value: number) => (bound !== undefined && value > bound ? ` against the ${formatSeconds(bound)} bound` : '');
  const load = point.load;
  const needs = load === undefined || gpus === undefined || load.gpus <= gpus ? ''
    : `; ${formatGrouped(load.requestsPerSecond)} requests/s need ${load.replicas.toLocaleString('en-US')} replicas of it (${load.gpus.toLocaleString('en-US')} GPUs), ${gpus.toLocaleString('en-US')} given`;
  return {
    point,
    // With one output token none is decoded: no time per token is said.
    why: `the closest plan (TP ${point.shape.tensor}, PP ${point.shape.pipeline}, batch ${point.shape.batch})`
      + `${search.outputTokens > 1 ? ` decodes a token in ${formatSeconds(point.decodeStepSeconds)}${against(decodeBound, point.decodeStepSeconds)};` : ':'} `
      + `its first token comes after ${formatSeconds(point.prefillSeconds)}${against(prefillBound, point.prefillSeconds)}${needs}`,
  };
}

/**
 * A context (prompt + output) longer than the model can attend over: its context window where one is stated (Llama
 * 3.1's 128K), else the sequence length it was trained at (a custom shape: what it is given). The estimate is given
 * with a warning rather than refused (a long-context variant may serve more), as training at a longer sequence is
 * (protocol's sequenceWarnings). Learned absolute positions (GPT-2/3: Radford et al. 2019, Brown et al. 2020) are a
 * table of one embedding per position, none past its last: as published such a model cannot attend beyond it at all
 * (QA: GPT-3 175B's 2,048 + 512 tokens warned only of "a long-context variant"), so that is said, and that the estimate
 * is of a variant whose table is grown to the context, as training at a longer sequence grows it.
 */
function contextWarnings(base: InferenceBase, search: InferenceSearch): string[] {
  const context = search.promptTokens + search.outputTokens;
  const limit = attendLimit(base.model, search.contextWindowTokens);
  if (context <= limit.tokens) return [];
  const n = (x: number) => x.toLocaleString('en-US');
  // A shape given without a name is @trainplan/model's 'custom': "the custom model's", not "custom's".
  const model = base.model.name === 'custom' ? 'the custom model' : base.model.name;
  const learned = limit.kind === 'learned';
  return [`the context (${n(search.promptTokens)} prompt + ${n(search.outputTokens)} output = ${n(context)} tokens) is longer than ${model}'s `
    + `${learned ? `${n(limit.tokens)} learned positions` : `${limit.kind === 'trained' ? 'sequence length' : 'context window'} (${n(limit.tokens)} tokens)`}: `
    + (learned ? 'as published it has none past them, so cannot attend further; the estimate assumes a variant trained at this length'
      : 'the estimate assumes the model can attend over all of it (a long-context variant), which the length stated does not say')];
}
