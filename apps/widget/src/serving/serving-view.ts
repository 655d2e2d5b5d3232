import { inferenceBoundsText, type InferencePointJson, type InferenceRequest, type InferenceResponseJson } from '@trainplan/protocol';
import { countOf, formatBytes, formatGrouped, formatSeconds } from '@trainplan/units';
import type { MemoryParts } from '../charts/memory-bar.ts';
import { sentence } from '../element/results.ts';

/** One figure of the answer: `name` marks it in the markup (data-stat), `label` says what and in which unit. */
export interface Stat {
  readonly name: string;
  readonly value: string;
  readonly label: string;
}

/**
 * What `<trainplan-serving>` shows for an answer, as data (tested in Node; serving-results.ts draws it):
 * - `best`: the plan with the most tokens/s per GPU within the bounds, its figures and memory;
 * - `missed`: some shape serves, but none within the latency bounds: the protocol's why, and the closest point's figures;
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
}

type Served = Extract<InferenceResponseJson, { ok: true }>;

/** A rate to three significant figures, grouped from a thousand up ("3,530", "337", "0.0240"), as the CLI and the bot show it. */
const rate = (x: number): string => formatGrouped(x, 3);


/**
 * The figures of one serving point. Each sequence of the batch gets one token per decode step (continuous
 * batching: per iteration), so a user sees 1 / step tokens/s; a replica makes tokens/s per GPU × its GPUs, and
 * the request's GPUs (replicas × the replica's GPUs) that many times over.
 */
export function pointStats(p: InferencePointJson, closest = false): Stat[] {
  const gpus = (p.replicas ?? 1) * p.gpus;
  const stat = (name: string, value: string, label: string): Stat => ({ name, value, label });
  const replicas = p.replicas === undefined ? `one replica of ${countOf(p.gpus, 'GPU')}` : `${countOf(p.replicas, 'replica')} of ${countOf(p.gpus, 'GPU')}`;
  return [
    // The first figure names the plan; "closest" there says that every figure after it is of a plan missing the bounds.
    stat('shape', `TP ${p.tensor} · PP ${p.pipeline}`, `${replicas}${closest ? ' (closest plan)' : ''}`),
    stat('batch', String(p.batch), `concurrent sequences per replica (${p.maxBatch} fit)`),
    stat('ttft', formatSeconds(p.prefillSeconds), 'time to first token'),
    stat('tpot', formatSeconds(p.decodeStepSeconds), 'time per output token'),
    stat('gpu-rate', rate(p.tokensPerSecondPerGpu), 'tokens/s per GPU'),
    stat('user-rate', rate(1 / p.decodeStepSeconds), 'tokens/s per user'),
    stat('total-rate', rate(p.tokensPerSecondPerGpu * gpus), p.replicas === undefined ? 'tokens/s per replica' : `tokens/s on the ${countOf(gpus, 'GPU')}`),
    stat('memory', `${formatBytes(p.totalBytesPerGpu)} of ${formatBytes(usableBytes(p))}`, p.usableBytesPerGpu === undefined ? 'memory per GPU' : 'memory per GPU (of what the server may use)'),
  ];
}

/** The memory the server may use on each GPU: all of it, or what the request's gpuMemoryUtilization leaves. */
const usableBytes = (p: InferencePointJson): number => p.usableBytesPerGpu ?? p.capacityBytes;

/** A point's memory per GPU: weights, KV cache, and the rest (runtime reserve and one step's activations). */
export function pointMemory(p: InferencePointJson): MemoryParts {
  const other = Math.max(0, p.totalBytesPerGpu - p.weightsBytesPerGpu - p.kvCacheBytesPerGpu);
  return {
    parts: [
      { key: 'weights', label: 'weights', bytes: p.weightsBytesPerGpu },
      { key: 'kv', label: 'KV cache', bytes: p.kvCacheBytesPerGpu },
      { key: 'other', label: 'runtime and activations', bytes: other },
    ],
    totalBytes: p.totalBytesPerGpu, capacityBytes: usableBytes(p), fits: p.totalBytesPerGpu <= usableBytes(p),
  };
}

const shapeText = (p: InferencePointJson): string => `TP ${p.tensor} · PP ${p.pipeline} · batch ${p.batch} · ${p.batching ?? 'static'} batching`;

/** runInference's answer (ok) → what the element shows; `request` gives the bounds to name. */
export function servingView(a: Served, request: Pick<InferenceRequest, 'maxDecodeSecondsPerToken' | 'maxPrefillSeconds'>): ServingView {
  const bounds = inferenceBoundsText(request);
  const warnings = (a.warnings ?? []).filter((w) => w !== a.unservable);
  if (a.best) {
    const lead = bounds === undefined ? 'Highest throughput (no latency bound given)' : `Best within ${bounds}`;
    const replicas = a.best.replicas === undefined ? '' : ` × ${countOf(a.best.replicas, 'replica')}`;
    return {
      kind: 'best', title: `${lead}: ${shapeText(a.best)}${replicas}.`, point: a.best, stats: pointStats(a.best), memory: pointMemory(a.best), frontier: a.frontier, warnings,
    };
  }
  if (a.unservable !== undefined) return { kind: 'unservable', title: sentence(`Does not serve: ${a.unservable}`), stats: [], frontier: a.frontier, warnings };
  const closest = a.closest;
  const title = sentence(`No plan meets ${bounds ?? 'the latency bounds'}${closest ? `: ${closest.why}` : ''}`);
  if (!closest) return { kind: 'missed', title, stats: [], frontier: a.frontier, warnings };
  return {
    kind: 'missed', title, point: closest.point, stats: pointStats(closest.point, true), memory: pointMemory(closest.point), frontier: a.frontier, warnings,
  };
}
