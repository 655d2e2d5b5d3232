import {
  fewestServingGpus, inferenceBoundsText, KV_BLOCK_TOKENS, retryInference, runInference, widestShape, type InferencePointJson, type InferenceResponseJson,
} from '@trainplan/protocol';
import { countOf, formatDuration, formatNumber, formatSeconds, formatShare } from '@trainplan/units';
import { clusterGpusOf, DEFAULT_GPU } from '../defaults.ts';
import { compactCount } from '../format.ts';
import { modelInputOf, modelNameOf } from '../model-of.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import type { Answer, AnswerFigure } from './answer-types.ts';
import { gpuName } from './describe-estimate.ts';
import { answerHelp } from './help-answer.ts';
import { assumedBoundNote } from './assumed-bound.ts';
import { refusalWords } from './issue-words.ts';
import { servingParallelNotes, servingParallelProblems } from './serving-parallel-notes.ts';
import { contextNote, contextProblem } from '../serving-context.ts';
import { firstTokenText, isLoaded, loadFigure, loadHeadline, takesText } from './serving-load.ts';
import {
  draftName, SPECULATION_TRADE, speculationAssumption, speculationConfiguration, speculationFigure, speculativeOf,
} from './serving-speculation.ts';
import { costFigure, costHeadline, noPriceNote } from './serving-cost.ts';
import { gpuHoursFigure } from './serving-gpu-hours.ts';
import { servingBudget } from './serving-budget.ts';
import { ASKS_MEMORY, memoryLead, memoryText } from './serving-memory.ts';
import { ASKS_KV_SIZE, kvCacheSizeText, withoutAssumedBounds } from './kv-cache-size.ts';
import { kvCacheAssumption, precisionConfiguration } from './serving-precision.ts';
import { latencyText, perSecond, replicaRequestsPerSecond, requestsPerSecondText, shapeText } from './serving-text.ts';
import { asksMostConcurrent, mostConcurrentLead, otherReplicaNote } from './serving-capacity.ts';
import { lowestLatencyAsked, lowestLatencyLead } from './serving-latency.ts';
import { asksFewestServing, fewestGpusToServe, fewestLead } from './serving-fewest.ts';
import { spreadUsers, type ReplicaShape, type SpreadPlan } from './spread-users.ts';
import {
  concurrentValue, rateConcurrencyText, usersAssumption, usersFigure, usersHeadline, usersInAll, usersMissedText, usersNotes, usersWithoutSpeculation,
} from './serving-users.ts';

/**
 * "Can I serve 70B on one H100 node?", "how many GPUs to serve llama 3 8b at 1000 QPS": the protocol's
 * runInference with continuous batching (requests join and leave the batch at every decode step, as
 * vLLM and TensorRT-LLM serve), on the GPUs the question names (each replica's TP × PP divides them).
 * The answer is the replica with the most tokens/s per GPU within the latency bounds; with a request
 * rate (sent as the protocol's requestsPerSecond), the plan needing the fewest GPUs for it, the wait for a
 * slot counted against the first-token bound, worded from the protocol's load (serving-load.ts). With speculative
 * decoding (the protocol's `speculative`) its figures are worded (serving-speculation.ts) and the plan without it
 * is said beside, from a second run: speculation wins at small batches and loses at large ones. With a number of
 * concurrent requests, the service's in all (serving-users.ts), the plan on the fewest GPUs that holds them spread over
 * replicas of one shape (spread-users.ts), each shape's batches asked of runInference one at a time (answerUsers); speculating,
 * each replica is one pipeline stage with its draft, and the users' spread without a draft is said beside.
 */

const CONTINUOUS = 'continuous batching (requests join and leave the batch at every decode step, as vLLM and TensorRT-LLM in-flight batching serve)';
const STATIC = 'static batching, as asked (a batch of requests starts and finishes together)';
/** Words of a question that asks for static batching ("with static batching", "statically batched"); continuous otherwise. */
const ASKS_STATIC = /\bstatic(?:ally)?[\s-]+batch(?:ing|ed|es)?\b/i;

/**
 * How a shared prefix is served, said when the question gives one: "a 1,024-token prefix shared and cached: …".
 * The protocol holds it in whole KV blocks of KV_BLOCK_TOKENS, whose size the answer names (the part of a last block
 * is each request's own), and always prefills a prompt's last token, whose logits give the first output token: the
 * tokens it caches are its points' cachedPrefixTokens (992 of a 1,000-token prefix), undefined where no point was planned.
 */
function prefixCaching(p: AskParameters, cached: number | undefined): string[] {
  const prefix = p.sharedPrefixTokens;
  if (prefix === undefined) return [];
  const n = (x: number) => x.toLocaleString('en-US');
  const prompt = p.promptTokens ?? prefix;
  const opens = `every ${n(prompt)}-token prompt opens with the same ${n(prefix)} tokens (a system prompt)`;
  const blocks = `whole ${KV_BLOCK_TOKENS}-token blocks`;
  if (cached === 0) return [`a ${n(prefix)}-token prefix shared: ${opens}, but it is shorter than one ${KV_BLOCK_TOKENS}-token KV block and only whole blocks are cached, so each request prefills and holds all of its prompt`];
  const how = `held once in the KV cache in ${blocks} and not prefilled again (prefix caching, as vLLM's automatic prefix caching and SGLang's RadixAttention serve)`;
  const own = cached === undefined ? 'the rest of its prompt' : `only the ${n(prompt - cached)} tokens after ${cached === prefix ? 'it' : 'them'}`;
  const part = cached === undefined || cached === prefix ? ''
    : cached === prompt - 1 ? `; ${n(cached)} of them are cached, as the prompt's last token is always prefilled (its logits give the first output token)`
      : `; ${n(cached)} of them are cached, in ${blocks} (the part of a last block is each request's own)`;
  return [`a ${n(prefix)}-token prefix shared and cached: ${opens}, ${how}${part}; each request prefills and holds ${own}, attending over all of them`];
}

/** The tokens of a shared prefix the protocol caches, from any point of its answer (the same for all). */
function cachedPrefixOf(a: Served): number | undefined {
  const points = [a.best, a.closest?.point, ...a.frontier, ...a.byShape.map((s) => (s.ok ? s.largestBatch : undefined))];
  return points.find((x) => x?.cachedPrefixTokens !== undefined)?.cachedPrefixTokens;
}

/** "2,048 prompt tokens (the first 1,024 shared and cached) + 512 output tokens": the lengths of the configuration, grouped as its batch is. */
const lengthsText = (p: AskParameters): string => `${countOf(p.promptTokens ?? 0, 'prompt token')}`
  + `${p.sharedPrefixTokens === undefined ? '' : ` (the first ${p.sharedPrefixTokens.toLocaleString('en-US')} shared and cached)`} + ${countOf(p.outputTokens ?? 0, 'output token')}`;

type Batching = 'static' | 'continuous';

/** The share of memory a server was held to, where the question stated one (requestOf's gpuMemoryUtilization). */
const memoryShareNote = (p: AskParameters): string[] => (p.memoryFraction === undefined ? []
  : [`Each GPU's memory filled to at most ${formatShare(p.memoryFraction)}, as asked (vLLM's gpu_memory_utilization; without it the plans may fill all of it).`]);

/** How a memory answer labels its configuration, which is not the headline's smallest replica (memoryLead). */
const FASTEST_WITHIN_BOUNDS = 'fastest plan within the bounds, not the smallest replica above';

function requestOf(p: AskParameters, gpus: number | undefined, batching: Batching): Record<string, unknown> {
  return {
    model: modelInputOf(p),
    cluster: { gpu: p.system ?? p.gpu ?? DEFAULT_GPU, ...(p.gpusPerNode !== undefined && { gpusPerNode: p.gpusPerNode }), ...(p.network !== undefined && { network: p.network }) },
    ...(p.precision !== undefined && { precision: p.precision }),
    ...(p.kvCachePrecision !== undefined && { kvCachePrecision: p.kvCachePrecision }),
    // "with 90% memory", "vllm gpu_memory_utilization 0.9": the share the server may fill (protocol inference-request.ts).
    ...(p.memoryFraction !== undefined && { gpuMemoryUtilization: p.memoryFraction }),
    promptTokens: p.promptTokens, outputTokens: p.outputTokens,
    ...(p.sharedPrefixTokens !== undefined && { sharedPrefixTokens: p.sharedPrefixTokens }),
    ...(p.maxTokenSeconds !== undefined && { maxDecodeSecondsPerToken: p.maxTokenSeconds }),
    ...(p.maxFirstTokenSeconds !== undefined && { maxPrefillSeconds: p.maxFirstTokenSeconds }),
    ...(p.tensor !== undefined && { tensor: [p.tensor] }),
    ...(p.pipeline !== undefined && { pipeline: [p.pipeline] }),
    ...(p.concurrency !== undefined && { batches: [p.concurrency] }),
    ...(gpus !== undefined && { gpus }),
    ...(p.requestsPerSecond !== undefined && { requestsPerSecond: p.requestsPerSecond }),
    ...(speculativeOf(p) !== undefined && { speculative: speculativeOf(p) }),
    ...(p.pricePerGpuHour !== undefined && { pricePerGpuHour: p.pricePerGpuHour }),
    batching,
  };
}

/** "≤ 2.00 s to the first token, ≤ 200 ms per token": the bounds the plan was held to. */
const boundsText = (p: AskParameters): string | undefined =>
  inferenceBoundsText({ maxDecodeSecondsPerToken: p.maxTokenSeconds, maxPrefillSeconds: p.maxFirstTokenSeconds });

/** Words of a question that asks whether the model fits ("can I fit 70B on one node", "enough memory"). */
const ASKS_FIT = /\b(?:fits?|memory|vram|hbm|oom)\b/i;
/** Words of a question that asks for a count of GPUs or nodes. */
const ASKS_COUNT = /\bhow many\b|\bnumber of\b/i;

/**
 * The figures of one serving point, labelled "(closest)" when it answers another question. With a rate the
 * replicas are the load's (loadFigure), not as many as the GPUs named hold, and the first token waits for a slot.
 * With concurrent requests spread over replicas (`spread`), the point is the fullest replica's, its total said apart.
 */
function pointFigures(x: InferencePointJson, p: AskParameters, gpus: number | undefined, text = '', spanSeconds?: number, spread?: SpreadPlan): AnswerFigure[] {
  const outputTokens = p.outputTokens ?? 1;
  const spec = speculativeOf(p);
  const replicas = gpus === undefined || gpus === x.gpus || isLoaded(x) ? '' : ` · ${countOf(Math.floor(gpus / x.gpus), 'replica')} on the ${countOf(gpus, 'GPU')}`;
  return [
    { label: 'Replica', value: `${shapeText(x)}: ${countOf(x.gpus, 'GPU')}${replicas}` },
    { label: 'Concurrent requests', value: concurrentValue(x, spread) },
    { label: 'Time to first token', value: isLoaded(x) ? firstTokenText(x) : formatSeconds(x.prefillSeconds) },
    { label: 'Time per output token', value: `${formatSeconds(x.decodeStepSeconds)} (${perSecond(1 / x.decodeStepSeconds)} tokens/s per user)` },
    { label: 'Throughput', value: `${perSecond(x.tokensPerSecondPerGpu)} tokens/s per GPU · ${requestsPerSecondText(replicaRequestsPerSecond(x, outputTokens))} per replica` },
    ...(spec === undefined ? [] : speculationFigure(x, spec)),
    { label: 'Memory per GPU', value: memoryText(x) },
    ...costFigure(x, p, text, spanSeconds),
    ...gpuHoursFigure(x, p, gpus, text, spanSeconds),
  ];
}

/**
 * "Generate 1T tokens of synthetic data with llama3-70b on 64 H100": the tokens over the plan's generated tokens a
 * second on the GPUs named (every replica they hold at its batch), or on one replica when none are named.
 */
function generationFigure(x: InferencePointJson, p: AskParameters, gpus: number | undefined): AnswerFigure[] {
  if (p.tokens === undefined) return [];
  const onGpus = isLoaded(x) ? x.load.gpus : gpus === undefined ? x.gpus : Math.floor(gpus / x.gpus) * x.gpus;
  const perSecondAll = x.tokensPerSecondPerGpu * onGpus;
  const seconds = p.tokens / perSecondAll;
  return [{ label: 'Time to generate', value: `${seconds >= 86400 ? formatDuration(seconds) : formatSeconds(seconds)} for ${compactCount(p.tokens)} generated tokens at ${perSecond(perSecondAll)} tokens/s on ${countOf(onGpus, 'GPU')} (${compactCount(seconds / 3600 * onGpus)} GPU-hours)` }];
}

type Served = Extract<InferenceResponseJson, { ok: true }>;

/** The lowest-latency point (the frontier's first): what one request alone sees. */
function fastestNote(a: Served): string[] {
  const first = a.frontier[0];
  if (first === undefined) return [];
  return [`Fastest per token: ${shapeText(first)} with ${countOf(first.batch, 'request')} at a time, ${latencyText(first)}.`];
}

/** Where the count the closest plan is on comes from, said with it. */
const CLI_COUNT = "the count the CLI's inference names";

/** What works where the GPUs named hold no replica: a plan, the GPUs it is said on, and the fewest GPUs it is said beside. */
interface Working {
  /** The plan said (on `on` GPUs): the one on the fewest that serve, or where none serves the nearest to the bounds. */
  readonly point: InferencePointJson;
  readonly on: number;
  /** The fewest GPUs that serve (`serves`), or where none does the fewest that hold it; `named` where the CLI's remedy names that count. */
  readonly fewest: number;
  readonly serves: boolean;
  readonly named: boolean;
}

/**
 * What works where the GPUs named hold no replica, from the protocol's fewestServingGpus, the search the CLI's remedy (`trainplan
 * inference … --gpus N` on stderr) names its counts from: the plan on the fewest GPUs that serve (each count from the fewest that
 * hold the model asked in turn, any pipeline depth up to 16, so 12 H100s as TP 4 · PP 3 for Llama 3.1 405B, not only powers of
 * two). Where no count meets the latency bounds, the plan nearest to them over the counts tried, said beside the fewest that
 * hold it, as the remedy says both ("give at least --gpus 6, the fewest that hold it; … the nearest is on 8 GPUs"). Undefined
 * where no count holds it.
 */
function working(result: Served, request: Record<string, unknown>): Working | undefined {
  const found = fewestServingGpus(request, retryInference(request), result);
  if (found === undefined) return undefined;
  if (found.serves !== undefined) {
    const { gpus, best } = found.serves;
    return { point: best, on: gpus, fewest: gpus, serves: true, named: found.named === gpus };
  }
  const near = found.nearest;
  return { point: near?.point ?? found.shape.largestBatch, on: near?.gpus ?? found.holds, fewest: found.holds, serves: false, named: found.named === found.holds };
}

/**
 * "Closest that works: 12 GPUs (TP 4 · PP 3), the fewest that serve within the bounds (the count the CLI's inference names), hold
 * it, with up to 147 requests at a time; …": the plan that works, its batch against the bounds, and the fewest GPUs beside it.
 */
function workingNote(w: Working, p: AskParameters, batching: Batching, bounds: string | undefined): string {
  const x = w.point;
  const fewest = `${w.serves ? `the fewest that serve${bounds === undefined ? '' : ' within the bounds'}` : 'the fewest that hold it'}${w.named ? ` (${CLI_COUNT})` : ''}`;
  const beside = w.fewest === x.gpus;
  return `Closest that works: ${countOf(x.gpus, 'GPU')} (${shapeText(x)})${beside ? `, ${fewest},` : ''} hold it, with up to ${countOf(x.maxBatch, 'request')} at a time`
    + `${withinBounds(x, p) ? (x.batch < x.maxBatch ? `; ${countOf(x.batch, 'request')} at a time keep ${bounds ?? 'the latency bounds'}` : '')
      : `; even one at a time misses ${bounds ?? 'the latency bounds'} (${oneAtATimeText(x, p, batching)})`}`
    + `${beside ? '' : `; ${countOf(w.fewest, 'GPU')} ${w.fewest === 1 ? 'is' : 'are'} ${fewest}`}`
    + `${isLoaded(x) ? `; ${takesText(x)}` : ''}.`;
}

/**
 * Where the weights asked for do not fit on the GPUs named, whether FP8 weights (1 byte a layer parameter, about half of BF16's: how
 * Meta released Llama 3.1 405B for one 8-GPU node, and how TensorRT-LLM and vLLM serve FP8 checkpoints) would, as the CLI's
 * inference names in its remedy ("or try FP8 weights (--precision fp8): TP 1 · PP 1 (1 GPU) holds them"). The same request
 * is asked again in FP8 through the protocol's retryInference, the Retry that remedy checks FP8 with: it refuses FP8 on a GPU
 * without FP8 tensor cores (an A100), so none is offered there, and none where FP8 was asked. Said in the headline as the
 * plan an "in fp8" question gets (QA: a "single H100 for inference" answer said only the 2 GPUs of BF16, the FP8 fit left
 * to a last note); undefined where FP8 holds no replica on those GPUs either.
 */
function fp8Remedy(p: AskParameters, request: Record<string, unknown>, gpus: number | undefined, bounds: string | undefined): string | undefined {
  if (request.precision === 'fp8') return undefined;
  const fp8 = retryInference(request)({ set: { precision: 'fp8' } });
  if (fp8 === undefined || fp8.unservable !== undefined) return undefined;
  const on = gpus === undefined ? '' : ` on ${gpus} × ${gpuName(p.gpu ?? '')}`;
  const ask = '; ask again "in fp8" for its plan';
  if (fp8.best !== undefined) return `in FP8 weights it fits${on}: ${planHeadline(fp8.best, gpus)}${ask}`;
  // A replica holds FP8 weights but no plan keeps the latency bounds: the one closest to them, said as missing them.
  const closest = fp8.closest?.point;
  return closest === undefined ? undefined
    : `in FP8 weights it fits${on} (${shapeText(closest)} holds up to ${countOf(closest.maxBatch, 'request')} at a time), but ${missedText(bounds, p, gpus)}${ask}`;
}

/**
 * "51.6 ms per token, first token in 523 ms": what one request alone sees on a replica's shape and GPUs, from
 * runInference again at batch 1 (as the CLI's remedy finds its closest plan), not the replica's largest batch, whose
 * step decodes hundreds of requests at once (Llama 3.1 405B as TP 8 · PP 2 on 16 H100: 287 ms at 434, 51.6 ms at 1).
 * The bounds and rate are dropped so the point is planned even though it misses them; the replica's own figures are
 * said where that run plans nothing.
 */
function oneAtATimeText(x: InferencePointJson, p: AskParameters, batching: Batching): string {
  const single = { ...p, tensor: x.tensor, pipeline: x.pipeline, concurrency: 1, maxTokenSeconds: undefined, maxFirstTokenSeconds: undefined, requestsPerSecond: undefined };
  const again = runInference(requestOf(single, x.gpus, batching));
  const one = again.ok && again.best?.batch === 1 ? again.best : x;
  return `${latencyText(one)}${one === x ? ` at ${countOf(x.batch, 'request')}` : ''}`;
}

/** A replica's shape at one batch with no latency bound or rate (serving-capacity.ts asks which bound a larger batch misses); undefined where it plans none. */
function pointAt(p: AskParameters, x: InferencePointJson, batch: number, batching: Batching): InferencePointJson | undefined {
  const at = { ...p, tensor: x.tensor, pipeline: x.pipeline, concurrency: batch, maxTokenSeconds: undefined, maxFirstTokenSeconds: undefined, requestsPerSecond: undefined };
  const again = runInference(requestOf(at, x.gpus, batching));
  return again.ok && again.best?.batch === batch ? again.best : undefined;
}

/** Whether a point keeps the question's latency bounds (a bound not asked is kept). */
const withinBounds = (x: InferencePointJson, p: AskParameters): boolean =>
  (p.maxTokenSeconds === undefined || x.decodeStepSeconds <= p.maxTokenSeconds)
  && (p.maxFirstTokenSeconds === undefined || x.prefillSeconds <= p.maxFirstTokenSeconds);

/**
 * The plan in the headline. Without a rate: "TP 2 · PP 1 (4 replicas) serves 5,582 tokens/s per GPU at 497
 * concurrent requests, 44.5 ms per token, first token in 89.2 ms". With one: the protocol's load (loadHeadline).
 */
function planHeadline(best: InferencePointJson, gpus: number | undefined): string {
  if (isLoaded(best)) return loadHeadline(best, gpus);
  const replicas = gpus === undefined || gpus === best.gpus ? '' : ` (${countOf(gpus / best.gpus, 'replica')})`;
  return `${shapeText(best)}${replicas} serves ${perSecond(best.tokensPerSecondPerGpu)} tokens/s per GPU at ${countOf(best.batch, 'concurrent request')}, `
    + latencyText(best);
}

/**
 * The bounds the plan was held to, or with none what it was chosen for: the most throughput, or the fewest GPUs (at a
 * rate, or for a number of concurrent requests in all: `fewestGpus`).
 */
const boundsNote = (bounds: string | undefined, fewestGpus: boolean): string =>
  (bounds !== undefined ? ` (${bounds})` : fewestGpus ? ' (no latency bound: the fewest GPUs)' : ' (no latency bound: the most throughput)');

/** A point's figures, its load's among them, labelled as the closest: an answer to another question than the one asked. */
const closestFigures = (x: InferencePointJson, p: AskParameters, gpus: number | undefined): AnswerFigure[] =>
  [...pointFigures(x, p, gpus), ...loadFigure(x, gpus)].map((f) => ({ ...f, label: `${f.label} (closest)` }));

/** What no plan met: "no plan meets ≤ 100 ms to the first token", or at a rate "no plan serves 1,000 requests/s on the 8 GPUs within …". */
function missedText(bounds: string | undefined, p: AskParameters, gpus: number | undefined): string {
  if (p.requestsPerSecond === undefined) return `no plan meets ${bounds ?? 'the latency bounds'}`;
  return `no plan serves ${requestsPerSecondText(p.requestsPerSecond)}${gpus === undefined ? '' : ` on the ${countOf(gpus, 'GPU')}`}${bounds === undefined ? '' : ` within ${bounds}`}`;
}

/**
 * The closest plan's configuration, said as missing the bounds; at a rate one that meets them on more GPUs
 * than named is said as that ("on more GPUs than named: TP 2 · PP 1 · batch 497, 47 replicas on 94 GPUs"). Its
 * precision and lengths follow, as a plan's configuration has them (QA: a 128k context asked went unread, and the
 * closest plan's line, unlike the others, never said the 2,048-token prompt it was planned for).
 */
function closestConfiguration(x: InferencePointJson, p: AskParameters): string {
  const shape = `${shapeText(x)} · batch ${x.batch.toLocaleString('en-US')}`;
  const meetsBounds = (p.maxTokenSeconds === undefined || x.decodeStepSeconds <= p.maxTokenSeconds)
    && (p.maxFirstTokenSeconds === undefined || (x.load?.firstTokenSeconds ?? x.prefillSeconds) <= p.maxFirstTokenSeconds);
  const planned = ` · ${precisionConfiguration(p)} · ${lengthsText(p)}`;
  return isLoaded(x) && meetsBounds
    ? `closest, on more GPUs than named: ${shape}, ${countOf(x.load.replicas, 'replica')} on ${countOf(x.load.gpus, 'GPU')}${planned}`
    : `closest to the bounds, missing them: ${shape}${planned}`;
}

/** How the plan with speculation compares with the plan without: tokens/s per GPU, or at a rate the GPUs it takes. */
function speculationGain(speculating: InferencePointJson | undefined, plain: InferencePointJson): string {
  if (speculating === undefined) return '';
  if (isLoaded(speculating) && isLoaded(plain)) return `: ${countOf(speculating.load.gpus, 'GPU')} with speculation, ${plain.load.gpus.toLocaleString('en-US')} without`;
  if (isLoaded(speculating) || isLoaded(plain)) return '';
  return `: speculation gives ${formatNumber(speculating.tokensPerSecondPerGpu / plain.tokensPerSecondPerGpu, 2)}× its tokens/s per GPU`;
}

/**
 * The plan without speculative decoding, said beside a speculating answer from a second run of the same request:
 * "Without speculative decoding: TP 2 · PP 4 serves 575 tokens/s per GPU at 688 concurrent requests, …: speculation
 * gives 0.88× its tokens/s per GPU; fastest per token 6.25 ms with it, 12.4 ms without; speculation pays while …".
 * Where nothing serves speculating, the one pipeline stage it is planned on is said as the reason.
 */
function withoutSpeculation(speculating: Served, p: AskParameters, gpus: number | undefined, bounds: string | undefined, batching: Batching): string[] {
  const plain = runInference(requestOf({ ...p, speculative: undefined }, gpus, batching));
  // Nothing serves without a draft: nothing serves with one either (it only adds memory), as the answer says.
  if (!plain.ok || plain.unservable !== undefined) return [];
  const best = plain.best;
  if (best === undefined) {
    return [`Without speculative decoding ${missedText(bounds, p, gpus)}${plain.closest === undefined ? '' : `: ${plain.closest.why}`}; ${SPECULATION_TRADE}.`];
  }
  if (speculating.unservable !== undefined) {
    return [`Speculative decoding is planned on one pipeline stage, as vLLM runs it, so no replica here holds the model and its draft; without it: ${planHeadline(best, gpus)}.`];
  }
  const fastest = speculating.frontier[0] !== undefined && plain.frontier[0] !== undefined
    ? `; fastest per token ${formatSeconds(speculating.frontier[0].decodeStepSeconds)} with it, ${formatSeconds(plain.frontier[0].decodeStepSeconds)} without` : '';
  return [`Without speculative decoding: ${planHeadline(best, gpus)}${speculationGain(speculating.best, best)}${fastest}; ${SPECULATION_TRADE}.`];
}

export function answerServing(asked: ParsedQuestion): Answer {
  // A KV cache's size asked with no latency bound is planned with none (kv-cache-size.ts).
  const q = withoutAssumedBounds(asked);
  const p = q.parameters;
  // The GPUs the question gives to serving; undefined when it names no count.
  const stated = clusterGpusOf(p);
  // What only continuous batching plans (a rate, a cached prefix) the protocol refuses static; issue-words.ts words it.
  const batching: Batching = ASKS_STATIC.test(q.text) ? 'static' : 'continuous';
  // A prompt and output past the context stated: no engine serves the request asked (serving-context.ts).
  const context = contextProblem(q.stated, p);
  const parallelProblems = [...servingParallelProblems(p), ...(context === undefined ? [] : [context])];
  if (parallelProblems.length > 0) return answerHelp(q, parallelProblems);
  const spec = speculativeOf(p);
  // Speculation asked with no draft to assume (speculative.ts) is said in the headline too: the plan is without it.
  const drafting = spec !== undefined ? ` with a ${draftName(spec)} draft` : p.speculative === false ? ' without speculative decoding (no draft named)' : '';
  const subject = `${modelNameOf(p)}${drafting} on ${stated === undefined ? '' : `${stated} × `}${gpuName(p.gpu ?? '')}`;
  const baseOf = (data: Served, more: readonly string[] = []) => ({
    intent: q.intent, question: q.text, examples: [], data,
    assumptions: [...q.defaults.map((d) => d.text), ...contextNote(q.stated, p), batching === 'static' ? STATIC : CONTINUOUS, ...kvCacheAssumption(p), ...prefixCaching(p, cachedPrefixOf(data)), ...speculationAssumption(spec), ...more],
  });
  // "To 500 concurrent users": the service's requests in all, spread over replicas (serving-users.ts), on the fewest GPUs.
  const users = usersInAll(q);
  const spread = users === undefined ? undefined : answerUsers(q, users, stated, batching, subject, baseOf);
  if (spread !== undefined) return spread;
  // "Minimum number of H100s to serve …" with no count named: the plan on the fewest that serve (serving-fewest.ts). Not at a
  // rate, whose plan is already the fewest GPUs for it.
  const fewest = asksFewestServing(q) ? fewestGpusToServe(requestOf(p, 1, batching)) : undefined;
  const gpus = stated ?? fewest?.gpus;
  const result = fewest?.result ?? runInference(requestOf(p, gpus, batching));
  if (!result.ok) return answerHelp(q, [refusalWords(result)]);
  const bounds = boundsText(p);
  const base = baseOf(result);
  const without = spec === undefined ? [] : withoutSpeculation(result, p, gpus, bounds, batching);
  const best = result.best;
  if (best !== undefined) {
    // The most requests held at once asked ("max batch", "how many sequences fit"): the largest batch that fits leads.
    const mostAsked = asksMostConcurrent(q);
    // A count asked with no request rate: one replica's GPUs answer it for one replica's load (not a count of requests).
    const countNote = p.requestsPerSecond === undefined && ASKS_COUNT.test(q.text) && !mostAsked
      ? [`One replica of ${countOf(best.gpus, 'GPU')} serves ${requestsPerSecondText(replicaRequestsPerSecond(best, p.outputTokens ?? 1))}; give a load ("at 100 requests/s") for the GPUs it needs.`] : [];
    // A stated concurrency is each replica's: said in the total when the plan holds several (the load's, or as many as the GPUs named hold).
    const replicaCount = isLoaded(best) ? best.load.replicas : gpus === undefined ? 1 : gpus / best.gpus;
    const where = isLoaded(best) ? `the ${countOf(replicaCount, 'replica')}` : `the ${countOf(gpus ?? best.gpus, 'GPU')}`;
    // With a rate stated beside it, what the rate makes of concurrency is said too (rateConcurrencyText).
    const perReplica = p.concurrency === undefined || replicaCount <= 1 ? []
      : isLoaded(best) && q.stated.concurrency !== undefined ? [rateConcurrencyText(p.concurrency, best, p.outputTokens ?? 1)]
        : [`${p.concurrency.toLocaleString('en-US')} concurrent requests taken per replica: ${(p.concurrency * replicaCount).toLocaleString('en-US')} on ${where}`];
    // A KV cache's size asked leads with that size, the plan it is held in after it.
    const kv = ASKS_KV_SIZE.test(q.text) ? kvCacheSizeText(p, best) : undefined;
    // A memory question leads with memory (the fewest GPUs that hold the model); the fastest plan follows in the notes. Not
    // one that asks the KV cache's size: that leads, on each GPU of this plan, so no other replica is said beside it.
    const memory = kv === undefined && fewest === undefined && ASKS_MEMORY.test(q.text) ? memoryLead(result) : undefined;
    const most = kv === undefined && fewest === undefined && memory === undefined && mostAsked
      ? mostConcurrentLead(q, result, best, gpus, (batch) => pointAt(p, best, batch, batching)) : undefined;
    // A latency asked with no bound: the lowest latency leads, the plan's throughput traded for it after; the configuration
    // and figures are that lowest-latency point's, which the question asks about.
    const quickest = kv === undefined && fewest === undefined && memory === undefined && most === undefined ? lowestLatencyAsked(q, result) : undefined;
    const shown = quickest ?? best;
    // A budget stated ("is $5k enough … for a week"): held to the plan's cost over the period served, "No: " first where asked.
    const budget = servingBudget(q, p, best, gpus);
    const planned = `${planHeadline(best, gpus)}${costHeadline(best, p, q.text, q.stated.deadlineSeconds)}${budget.clause}`;
    const plan = `${planned}${boundsNote(bounds, p.requestsPerSecond !== undefined)}`;
    // The headline's replica is the smallest that holds the model; the configuration and figures are the fastest plan.
    // Where that is another replica, both say so, never left to read as one plan (the notes come after the configuration
    // in every render, so none says "below").
    const other = memory !== undefined && (memory.tensor !== best.tensor || memory.pipeline !== best.pipeline);
    const fastest = memory === undefined ? kv === undefined ? [] : [`The plan: ${plan}.`]
      : [`${other ? 'The configuration and figures are the fastest plan within the bounds, not the smallest replica of the headline' : 'The fastest plan within the bounds is that replica'}: ${plan}.`];
    const configuration = `${quickest === undefined ? '' : 'lowest latency: '}${shapeText(shown)} · batch ${shown.batch.toLocaleString('en-US')} · ${precisionConfiguration(p)} · ${lengthsText(p)}${speculationConfiguration(spec)}`;
    const lead = kv ?? (fewest === undefined ? undefined : fewestLead(fewest, bounds !== undefined, plan)) ?? memory?.text ?? most
      ?? (quickest === undefined ? undefined : lowestLatencyLead(quickest, best, planned, bounds));
    return {
      ...base, kind: 'answer', ok: true, assumptions: [...base.assumptions, ...perReplica],
      headline: `${budget.verdict}${subject}: ${lead ?? `${ASKS_FIT.test(q.text) ? 'fits; ' : ''}${plan}`}`,
      configuration: other ? `${FASTEST_WITHIN_BOUNDS}: ${configuration}` : configuration,
      figures: [...pointFigures(shown, p, gpus, q.text, q.stated.deadlineSeconds), ...loadFigure(shown, gpus), ...generationFigure(shown, p, gpus)],
      memoryPerGpuBytes: shown.totalBytesPerGpu, memoryCapacityBytes: shown.capacityBytes,
      notes: [...fastest, ...servingParallelNotes(p, best, gpus), ...askedWarnings(result.warnings, p), ...countNote, ...(most === undefined ? [] : otherReplicaNote(result, best, p, gpus)),
        ...(quickest === undefined ? fastestNote(result) : []), ...memoryShareNote(p), ...without, ...noPriceNote(p, q.text)],
    };
  }
  if (result.unservable !== undefined) {
    // Nothing fits on the GPUs named: what works on more of them.
    const widest = widestShape(result.byShape);
    const why = widest === undefined || widest.ok ? 'no tensor × pipeline split of them serves it' : `${shapeText(widest)}: ${widest.message}`;
    // From the search the CLI's remedy names its counts from, so that both name one count.
    const works = gpus === undefined ? undefined : working(result, requestOf(p, gpus, batching));
    const fp8 = fp8Remedy(p, requestOf(p, gpus, batching), gpus, bounds);
    return {
      ...base, kind: 'answer', ok: false,
      headline: `${subject}: ${kvFirst(q, p)}does not fit for serving (${why})${fp8 === undefined ? '' : `; ${fp8}`}`,
      figures: works === undefined ? [] : closestFigures(works.point, p, undefined),
      ...(works !== undefined && { configuration: `closest that works, not what was asked: ${shapeText(works.point)} on ${countOf(works.on, 'GPU')} · ${precisionConfiguration(p)} · ${lengthsText(p)}` }),
      notes: [
        ...(works === undefined ? [] : [workingNote(works, p, batching, bounds)]),
        ...without,
      ],
    };
  }
  const closest = result.closest;
  const missed = `${missedText(bounds, p, gpus)}${closest === undefined ? '' : `: ${closest.why}`}`;
  // A memory question ("how much VRAM to serve 70b with 128k context") is answered by memory, which the latency bounds do
  // not change: the smallest replica that holds it leads, the bounds missed after it, with the protocol's warnings first
  // (a context past the model's own).
  const memory = ASKS_MEMORY.test(q.text) ? memoryLead(result) : undefined;
  // A KV cache's size asked: that size leads, whatever the latency bounds, as memory does below.
  const kv = ASKS_KV_SIZE.test(q.text) ? kvCacheSizeText(p, closest?.point) : undefined;
  if (kv !== undefined) {
    return {
      ...base, kind: 'answer', ok: true,
      headline: `${subject}: ${kv}`,
      figures: closest === undefined ? [] : closestFigures(closest.point, p, gpus),
      ...(closest !== undefined && { configuration: closestConfiguration(closest.point, p) }),
      notes: [...askedWarnings(result.warnings, p), `Latency, the figures being the closest plan's: ${missed}`, ...assumedBoundNote(q, closest?.point), ...fastestNote(result), ...without],
    };
  }
  if (memory !== undefined) {
    return {
      ...base, kind: 'answer', ok: true,
      headline: `${subject}: ${memory.text}`,
      figures: closest === undefined ? [] : closestFigures(closest.point, p, gpus),
      ...(closest !== undefined && { configuration: closestConfiguration(closest.point, p) }),
      notes: [...askedWarnings(result.warnings, p), `Latency, the figures being the closest plan's: ${missed}`, ...assumedBoundNote(q, closest?.point), ...fastestNote(result), ...without],
    };
  }
  return {
    ...base, kind: 'answer', ok: false,
    headline: `${subject}: ${missed}`,
    figures: closest === undefined ? [] : closestFigures(closest.point, p, gpus),
    ...(closest !== undefined && { configuration: closestConfiguration(closest.point, p) }),
    notes: [...assumedBoundNote(q, closest?.point), ...askedWarnings(result.warnings, p), ...fastestNote(result), ...without],
  };
}

/** The deepest pipeline runInference tries on a GPU count (@trainplan/search's MAX_DEFAULT_PIPELINE). */
const MAX_PIPELINE_ON_COUNT = 16;

/**
 * The answer to a number of concurrent requests in all (usersInAll): the replica shapes that fit in the GPUs named at
 * least once (or those runInference tries with none named), each planned at one batch at a time for spreadUsers; the plan on the fewest GPUs leads,
 * its figures the fullest replica's from runInference asked again on the plan's GPUs (its data). Where none keeps the
 * bounds, what comes closest, and with GPUs named the plan with no count. Undefined where no shape holds the model (or the
 * request is refused): the answer at that batch then says why, as for any concurrency.
 */
function answerUsers(q: ParsedQuestion, users: number, stated: number | undefined, batching: Batching, subject: string,
  baseOf: (data: Served, more: readonly string[]) => Omit<Answer, 'kind' | 'ok' | 'headline' | 'figures' | 'notes'>): Answer | undefined {
  const asked = q.parameters;
  const spec = speculativeOf(asked);
  const runAt = (x: { tensor: number; pipeline: number }, batch: number, gpus: number | undefined, p = asked) =>
    runInference(requestOf({ ...p, tensor: x.tensor, pipeline: x.pipeline, concurrency: batch }, gpus, batching));
  // The users spread over one shape's replicas, with the question's draft (`p`, the question's parameters) or, said beside a
  // speculating plan, without it.
  const search = (gpus: number | undefined, p = asked) => {
    // Each shape's largest batch that fits, from one run at a single request with no bound (every shape holds that). With
    // GPUs named, every shape that fits in them at least once, not only those dividing them (runInference's shapes on a
    // count): the users may leave GPUs idle. QA: on 10 H100 only shapes of 1, 2, 5 and 10 GPUs were tried, so 150 users
    // were "not served on the 10 GPUs" while one replica of TP 4 · PP 2 on 8 of them holds them. So the probe names no
    // count and asks every pipeline depth up to runInference's deepest on a count (16; its tensor degrees are the powers
    // of two up to a node's NVLink domain either way), the shapes past the count then left out.
    const unbounded = { ...p, concurrency: 1, maxTokenSeconds: undefined, maxFirstTokenSeconds: undefined };
    const depths = Array.from({ length: Math.min(MAX_PIPELINE_ON_COUNT, gpus ?? 0) }, (_, i) => i + 1);
    const probe = runInference({ ...requestOf(unbounded, undefined, batching), ...(gpus !== undefined && p.pipeline === undefined && { pipeline: depths }) });
    const shapes: ReplicaShape[] = !probe.ok ? []
      : probe.byShape.flatMap((s) => (s.ok && s.largestBatch.gpus <= (gpus ?? Number.POSITIVE_INFINITY)
        ? [{ tensor: s.tensor, pipeline: s.pipeline, gpus: s.largestBatch.gpus, maxBatch: s.largestBatch.maxBatch }] : []));
    return spreadUsers(users, shapes, (shape, batch) => {
      const one = runAt(shape, batch, shape.gpus, p);
      const point = one.ok ? one.best ?? one.closest?.point : undefined;
      return point === undefined ? undefined : { point, within: one.ok && one.best !== undefined };
    }, gpus, { maxTokenSeconds: p.maxTokenSeconds, maxFirstTokenSeconds: p.maxFirstTokenSeconds });
  };
  const p = asked;
  const found = search(stated);
  const plan = found.fewest ?? found.nearest ?? found.mostWithin;
  const result = plan === undefined ? undefined : runAt(plan.point, plan.batch, plan.gpus);
  if (plan === undefined || result === undefined || !result.ok) return undefined;
  const x = result.best ?? result.closest?.point ?? plan.point;
  const base = baseOf(result, [usersAssumption(users)]);
  const bounds = boundsText(p);
  const replicas = plan.replicas > 1 ? ` · ${countOf(plan.replicas, 'replica')}` : '';
  const configuration = `${shapeText(x)} · batch ${x.batch.toLocaleString('en-US')}${replicas} · ${precisionConfiguration(p)} · ${lengthsText(p)}${speculationConfiguration(spec)}`;
  // Speculating: the users' plan without a draft said beside, as for one replica's batch (withoutSpeculation).
  const without = spec === undefined ? [] : [usersWithoutSpeculation(found.fewest, search(stated, { ...p, speculative: undefined }), users, stated, bounds)];
  // The GPUs the users take are said apart where they are several replicas, or against the GPUs named (the spare ones).
  const taken = plan.replicas > 1 || stated !== undefined ? [usersFigure(plan, stated, found.fewest === undefined)] : [];
  const figures = [...pointFigures(x, p, plan.gpus, q.text, q.stated.deadlineSeconds, plan), ...taken, ...generationFigure(x, p, plan.gpus)];
  const memory = { memoryPerGpuBytes: x.totalBytesPerGpu, memoryCapacityBytes: x.capacityBytes };
  if (found.fewest !== undefined) {
    const budget = servingBudget(q, p, x, plan.gpus);
    const planned = `${usersHeadline(plan, stated)}${costHeadline(x, p, q.text, q.stated.deadlineSeconds)}${budget.clause}`;
    return {
      ...base, kind: 'answer', ok: true, configuration, figures, ...memory,
      headline: `${budget.verdict}${subject}: ${ASKS_FIT.test(q.text) ? 'fits; ' : ''}${planned}${boundsNote(bounds, true)}`,
      notes: [...servingParallelNotes(p, x, plan.gpus), ...askedWarnings(result.warnings, p), ...usersNotes(found, stated), ...without, ...noPriceNote(p, q.text)],
    };
  }
  // None keeps the bounds: with GPUs named, the fewest that would with none named (the plan "on more GPUs" a rate's closest says).
  const free = stated === undefined ? undefined : search(undefined).fewest;
  const on = stated === undefined ? '' : ` on the ${countOf(stated, 'GPU')}`;
  return {
    ...base, kind: 'answer', ok: false, ...memory,
    headline: `${subject}: no plan serves ${countOf(users, 'concurrent request')}${on} within ${bounds ?? 'the latency bounds'}: ${usersMissedText(found, stated)}`,
    configuration: `${plan === found.nearest ? 'closest to the bounds, missing them' : `closest, holding ${plan.users.toLocaleString('en-US')} of the ${users.toLocaleString('en-US')}`}: ${configuration}`,
    figures: figures.map((f) => ({ ...f, label: `${f.label} (closest)` })),
    notes: [...askedWarnings(result.warnings, p), ...(free === undefined ? [] : [`On more GPUs than named: ${usersHeadline(free, undefined)}.`]), ...without],
  };
}

/** A KV cache's size asked where nothing serves: the size first ("KV cache 320 KiB per token …; the model "), else nothing. */
function kvFirst(q: ParsedQuestion, p: AskParameters): string {
  const kv = ASKS_KV_SIZE.test(q.text) ? kvCacheSizeText(p, undefined) : undefined;
  return kv === undefined ? '' : `${kv}; the model `;
}

/**
 * The protocol's warnings a person is told: all but the one saying that no latency bound was given (a throughput
 * plan's late first token), when the question asked for throughput alone ("offline"): it knows.
 */
function askedWarnings(warnings: readonly string[] | undefined, p: AskParameters): string[] {
  return (warnings ?? []).filter((w) => !(p.offline === true && w.startsWith('with no latency bound')));
}
