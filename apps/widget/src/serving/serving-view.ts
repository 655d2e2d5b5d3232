import { inferenceBoundsText, type InferencePointJson, type InferenceRequest, type InferenceResponseJson } from '@trainplan/protocol';
import { countOf, formatBytes, formatGrouped, formatPercent, formatSeconds, formatWaitSeconds } from '@trainplan/units';
import type { MemoryParts } from '../charts/memory-bar.ts';
import { sentence } from '../element/results.ts';
import { servingRemedies, type RemedyRequest } from './serving-remedies.ts';
import { inFieldLabels } from './field-labels.ts';

/** One figure of the answer: `name` marks it in the markup (data-stat), `label` says what and in which unit. */
export interface Stat {
  readonly name: string;
  readonly value: string;
  readonly label: string;
}

/**
 * What `<trainplan-serving>` shows for an answer, as data (tested in Node; serving-results.ts draws it):
 * - `best`: the plan with the most tokens/s per GPU within the bounds (with a request rate: the fewest GPUs), its figures and memory;
 * - `missed`: some shape serves, but none within the latency bounds (with a rate, on the GPUs given): the protocol's why, and the closest point's figures;
 * - `unservable`: no shape tried holds the model at all (memory, divisibility): the protocol's message.
 */
export interface ServingView {
  readonly kind: 'best' | 'missed' | 'unservable';
  /** The answer in one sentence. */
  readonly title: string;
  /** The point the figures are for: the best plan, or the closest to the bounds. */
  readonly point?: InferencePointJson;
  readonly stats: readonly Stat[];
  readonly memory?: MemoryParts;
  /** The latency–throughput frontier (no point both faster per token and more tokens/s per GPU), by latency. */
  readonly frontier: readonly InferencePointJson[];
  /** The protocol's caveats, less the one the title already says. */
  readonly warnings: readonly string[];
  /** When nothing serves: what would (serving-remedies.ts), each read from the answer and the request; else none. */
  readonly remedies: readonly string[];
}

type Served = Extract<InferenceResponseJson, { ok: true }>;

type Load = NonNullable<InferencePointJson['load']>;
type Speculation = NonNullable<InferencePointJson['speculation']>;

/** A rate to three significant figures, grouped from a thousand up ("3,530", "337", "0.0240"), as the CLI and the bot show it. */
const rate = (x: number): string => formatGrouped(x, 3);
/**
 * A whole count alone, grouped as every other figure ("2,048"): a small model fits batches in the millions. With its
 * noun, countOf groups it too ("874,720 GPUs": a rate may take more GPUs than a request may offer).
 */
const whole = (n: number): string => formatGrouped(n);
const stat = (name: string, value: string, label: string): Stat => ({ name, value, label });

/** The mean wait for a slot, "under 1 µs" below a microsecond, as the chat bot and the CLI say it (@trainplan/units formatWaitSeconds). */
const waitText = formatWaitSeconds;

/**
 * What a request rate takes of a point (the protocol's load): its replicas' GPUs (replicas × TP × PP), beside
 * the GPUs given when the request gives some; how loaded they are (the share of their batch slots in use);
 * and the mean wait for a slot, which the time to first token then includes.
 */
function loadStats(load: Load, givenGpus: number | undefined): Stat[] {
  const given = givenGpus === undefined ? '' : `, ${whole(givenGpus)} given`;
  return [
    stat('load-gpus', countOf(load.gpus, 'GPU'), `${countOf(load.replicas, 'replica')} for ${rate(load.requestsPerSecond)} requests/s${given}`),
    stat('utilization', formatPercent(load.utilization, 0), 'loaded (slots in use)'),
    stat('queue', waitText(load.queueSeconds), 'mean wait for a slot'),
  ];
}

/**
 * What the point costs at the request's price per GPU-hour, in its currency (none is named): a million generated
 * tokens (their GPUs' time, the prompts' prefill included), and with a rate the hour of the GPUs it needs. The first
 * says whose currency once, as the CLI says "in --price's currency": a bare "1.90" had no unit (QA).
 */
const costStats = (c: NonNullable<InferencePointJson['cost']>): Stat[] => [
  stat('cost', rate(c.perMillionOutputTokens), `per million output tokens${c.perHour === undefined ? '' : ' at this load (idle slots paid)'}, in the price's currency`),
  ...(c.perHour === undefined ? [] : [stat('cost-hour', rate(c.perHour), 'per hour for the GPUs the rate needs')]),
];

/**
 * What speculative decoding makes of a step: the tokens it yields on average, (1 − α^(γ+1))/(1 − α) (Leviathan
 * et al. 2023), from γ drafted tokens each accepted with chance α. The time per output token is already the
 * step over those tokens, the draft's γ steps included.
 */
const speculationStat = (s: Speculation): Stat =>
  stat('speculation', `${rate(s.tokensPerStep)} tokens a step`, `${s.draftTokens} drafted, ${formatPercent(s.acceptanceRate, 0)} accepted`);

/**
 * The figures of one serving point. Each sequence of the batch gets one token per decode step (continuous
 * batching: per iteration), so a user sees 1 / step tokens/s; a replica makes tokens/s per GPU × its GPUs, and
 * the request's GPUs (replicas × the replica's GPUs) that many times over. With a request rate the point's
 * load comes after its shape, which then names the GPUs of one replica (the load says how many replicas), and
 * the time to first token is the load's, the wait for a slot included.
 */
export function pointStats(p: InferencePointJson, closest = false): Stat[] {
  const gpus = (p.replicas ?? 1) * p.gpus;
  const { load } = p;
  const replicas = load !== undefined ? `${countOf(p.gpus, 'GPU')} per replica`
    : p.replicas === undefined ? `one replica of ${countOf(p.gpus, 'GPU')}` : `${countOf(p.replicas, 'replica')} of ${countOf(p.gpus, 'GPU')}`;
  return [
    // The first figure names the plan; "closest" there says that every figure after it is of a plan missing the bounds.
    stat('shape', `TP ${p.tensor} · PP ${p.pipeline}`, `${replicas}${closest ? ' (closest plan)' : ''}`),
    ...(load === undefined ? [] : loadStats(load, p.replicas === undefined ? undefined : gpus)),
    stat('batch', whole(p.batch), `concurrent sequences per replica (${whole(p.maxBatch)} fit)`),
    load === undefined ? stat('ttft', formatSeconds(p.prefillSeconds), 'time to first token')
      : stat('ttft', formatSeconds(load.firstTokenSeconds), 'time to first token (wait included)'),
    stat('tpot', formatSeconds(p.decodeStepSeconds), 'time per output token'),
    ...(p.speculation === undefined ? [] : [speculationStat(p.speculation)]),
    stat('gpu-rate', rate(p.tokensPerSecondPerGpu), 'tokens/s per GPU'),
    stat('user-rate', rate(1 / p.decodeStepSeconds), 'tokens/s per user'),
    stat('total-rate', rate(p.tokensPerSecondPerGpu * gpus), p.replicas === undefined ? 'tokens/s per replica' : `tokens/s on the ${countOf(gpus, 'GPU')}`),
    ...(p.cost === undefined ? [] : costStats(p.cost)),
    stat('memory', `${formatBytes(p.totalBytesPerGpu)} of ${formatBytes(usableBytes(p))}`, p.usableBytesPerGpu === undefined ? 'memory per GPU' : 'memory per GPU (of what the server may use)'),
  ];
}

/** The memory the server may use on each GPU: all of it, or what the request's gpuMemoryUtilization leaves. */
const usableBytes = (p: InferencePointJson): number => p.usableBytesPerGpu ?? p.capacityBytes;

/**
 * A point's memory per GPU: weights, KV cache, and the rest (runtime reserve and one step's activations). With
 * speculative decoding the point's weights and KV cache include the draft's, which is drawn as its own part.
 */
export function pointMemory(p: InferencePointJson): MemoryParts {
  const other = Math.max(0, p.totalBytesPerGpu - p.weightsBytesPerGpu - p.kvCacheBytesPerGpu);
  const spec = p.speculation;
  const draft = spec === undefined ? [] : [{ key: 'draft', label: 'draft model', bytes: spec.draftWeightsBytesPerGpu + spec.draftKvCacheBytesPerGpu }];
  return {
    parts: [
      { key: 'weights', label: 'weights', bytes: p.weightsBytesPerGpu - (spec?.draftWeightsBytesPerGpu ?? 0) },
      { key: 'kv', label: 'KV cache', bytes: p.kvCacheBytesPerGpu - (spec?.draftKvCacheBytesPerGpu ?? 0) },
      ...draft,
      { key: 'other', label: 'runtime and activations', bytes: other },
    ],
    totalBytes: p.totalBytesPerGpu, capacityBytes: usableBytes(p), fits: p.totalBytesPerGpu <= usableBytes(p),
  };
}

type TitleRequest = Pick<InferenceRequest, 'maxDecodeSecondsPerToken' | 'maxPrefillSeconds' | 'speculative'>;

/** The draft a request names: its preset id, or a shape's name. */
const draftName = (draft: NonNullable<InferenceRequest['speculative']>['draftModel']): string =>
  (typeof draft === 'string' ? draft : draft.name ?? 'a custom shape');

/** "TP 8 · PP 1 · batch 64 · continuous batching", "· FP8 KV cache" with a cache format given, and "· speculative decoding with llama3.2-1b" when the point speculates. */
const shapeText = (p: InferencePointJson, request: TitleRequest): string => {
  const spec = p.speculation !== undefined && request.speculative !== undefined ? ` · speculative decoding with ${draftName(request.speculative.draftModel)}` : '';
  const kv = p.kvCachePrecision === undefined ? '' : ` · ${p.kvCachePrecision.toUpperCase()} KV cache`;
  return `TP ${p.tensor} · PP ${p.pipeline} · batch ${whole(p.batch)} · ${p.batching ?? 'static'} batching${kv}${spec}`;
};

/**
 * The protocol's bounds in words, a whole figure without its zero decimals: "≤ 50 ms per token", as the reader typed it,
 * not "≤ 50.0 ms" (QA). Only a fraction of zeros goes: "≤ 2.50 s to the first token" keeps its figures.
 */
const boundsText = (bounds: Parameters<typeof inferenceBoundsText>[0]): string | undefined => inferenceBoundsText(bounds)?.replace(/\.0+ /g, ' ');

/**
 * The best plan's title: what it is best at and how many of it. Without a rate, the most tokens/s per GPU (within
 * the latency bounds), on the request's GPUs when it gives some; with one, the fewest GPUs for the rate, the
 * replicas and GPUs the rate takes ("Fewest GPUs for 20 requests/s at ≤ 50 ms per token: TP 4 · PP 1 ·
 * batch 64 · continuous batching × 8 replicas (32 GPUs)."). "at", not "within": "within ≤" said the bound twice (QA).
 */
function bestTitle(best: InferencePointJson, request: TitleRequest): string {
  const latency = boundsText({ maxDecodeSecondsPerToken: request.maxDecodeSecondsPerToken, maxPrefillSeconds: request.maxPrefillSeconds });
  const { load } = best;
  if (load !== undefined) {
    const lead = `Fewest GPUs for ${rate(load.requestsPerSecond)} requests/s${latency === undefined ? '' : ` at ${latency}`}`;
    return `${lead}: ${shapeText(best, request)} × ${countOf(load.replicas, 'replica')} (${countOf(load.gpus, 'GPU')}).`;
  }
  const lead = latency === undefined ? 'Highest throughput (no latency bound given)' : `Best at ${latency}`;
  return `${lead}: ${shapeText(best, request)}${best.replicas === undefined ? '' : ` × ${countOf(best.replicas, 'replica')}`}.`;
}

/**
 * runInference's answer (ok) → what the element shows; `request` gives the bounds (and the rate) and the draft model to
 * name, and what the remedies of an answer that serves nothing start from.
 */
export function servingView(a: Served, request: TitleRequest & RemedyRequest): ServingView {
  // The rate is named among the bounds: "No plan meets ≤ 30 ms per token, 100 requests/s: …".
  const bounds = boundsText(request);
  const warnings = (a.warnings ?? []).filter((w) => w !== a.unservable).map(inFieldLabels);
  if (a.best) {
    return {
      kind: 'best', title: bestTitle(a.best, request), point: a.best, stats: pointStats(a.best), memory: pointMemory(a.best), frontier: a.frontier, warnings, remedies: [],
    };
  }
  const remedies = servingRemedies(a, request);
  if (a.unservable !== undefined) return { kind: 'unservable', title: sentence(`Does not serve: ${inFieldLabels(a.unservable)}`), stats: [], frontier: a.frontier, warnings, remedies };
  const closest = a.closest;
  const title = sentence(`No plan meets ${bounds ?? 'the latency bounds'}${closest ? `: ${closest.why}` : ''}`);
  if (!closest) return { kind: 'missed', title, stats: [], frontier: a.frontier, warnings, remedies };
  return {
    kind: 'missed', title, point: closest.point, stats: pointStats(closest.point, true), memory: pointMemory(closest.point), frontier: a.frontier, warnings, remedies,
  };
}
