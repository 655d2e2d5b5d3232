import { inferenceBoundsText, runInference, widestShape, type InferencePointJson, type InferenceResponseJson } from '@trainplan/protocol';
import { countOf, formatBytes, formatGrouped, formatPercent, formatSeconds } from '@trainplan/units';
import { DEFAULT_GPU, gpusPerNodeOf } from '../defaults.ts';
import { modelInputOf, modelNameOf } from '../model-of.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import type { Answer, AnswerFigure } from './answer-types.ts';
import { gpuName } from './describe-estimate.ts';
import { answerHelp } from './help-answer.ts';

/**
 * "Can I serve 70B on one H100 node?", "how many GPUs to serve llama 3 8b at 1000 QPS": the protocol's
 * runInference with continuous batching (requests join and leave the batch at every decode step, as
 * vLLM and TensorRT-LLM serve), on the GPUs the question names (each replica's TP × PP divides them).
 * The answer is the replica with the most tokens/s per GPU within the latency bounds; with a request
 * rate, the replicas and GPUs that rate needs.
 */

const CONTINUOUS = 'continuous batching (requests join and leave the batch at every decode step, as vLLM and TensorRT-LLM in-flight batching serve)';

/** The GPUs the question gives to serving: stated GPUs, or nodes × GPUs per node; undefined when it names no count. */
function servingGpus(p: AskParameters): number | undefined {
  if (p.gpus !== undefined) return p.gpus;
  return p.nodes === undefined ? undefined : p.nodes * gpusPerNodeOf(p);
}

function requestOf(p: AskParameters, gpus: number | undefined): Record<string, unknown> {
  return {
    model: modelInputOf(p),
    cluster: { gpu: p.system ?? p.gpu ?? DEFAULT_GPU, ...(p.gpusPerNode !== undefined && { gpusPerNode: p.gpusPerNode }) },
    ...(p.precision !== undefined && { precision: p.precision }),
    promptTokens: p.promptTokens, outputTokens: p.outputTokens,
    ...(p.maxTokenSeconds !== undefined && { maxDecodeSecondsPerToken: p.maxTokenSeconds }),
    ...(p.maxFirstTokenSeconds !== undefined && { maxPrefillSeconds: p.maxFirstTokenSeconds }),
    ...(p.tensor !== undefined && { tensor: [p.tensor] }),
    ...(p.pipeline !== undefined && { pipeline: [p.pipeline] }),
    ...(p.concurrency !== undefined && { batches: [p.concurrency] }),
    ...(gpus !== undefined && { gpus }),
    batching: 'continuous',
  };
}

/** "≤ 2.00 s to the first token, ≤ 200 ms per token": the bounds the plan was held to. */
const boundsText = (p: AskParameters): string | undefined =>
  inferenceBoundsText({ maxDecodeSecondsPerToken: p.maxTokenSeconds, maxPrefillSeconds: p.maxFirstTokenSeconds });

const shapeText = (x: { tensor: number; pipeline: number }): string => `TP ${x.tensor} · PP ${x.pipeline}`;
/** Requests a replica finishes per second: its generated tokens per second over the tokens of one request. */
const requestsPerSecond = (x: InferencePointJson, outputTokens: number): number => (x.tokensPerSecondPerGpu * x.gpus) / outputTokens;
/** A rate to three figures, grouped from a thousand up: "3,530", "337", "0.0240". */
const perSecond = (x: number): string => formatGrouped(x);
/** A count of requests, grouped from a thousand up as the rates are: "1,557 concurrent requests". */
const requests = (n: number, noun: string): string => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
/** Words of a question that asks whether the model fits ("can I fit 70B on one node", "enough memory"). */
const ASKS_FIT = /\b(?:fits?|memory|vram|hbm|oom)\b/i;
/** Words of a question that asks for a count of GPUs or nodes. */
const ASKS_COUNT = /\bhow many\b|\bnumber of\b/i;

/** The figures of one serving point, labelled "(closest)" when it answers another question. */
function pointFigures(x: InferencePointJson, p: AskParameters, gpus: number | undefined): AnswerFigure[] {
  const outputTokens = p.outputTokens ?? 1;
  const replicas = gpus === undefined || gpus === x.gpus ? '' : ` · ${countOf(Math.floor(gpus / x.gpus), 'replica')} on the ${gpus} GPUs`;
  return [
    { label: 'Replica', value: `${shapeText(x)}: ${countOf(x.gpus, 'GPU')}${replicas}` },
    { label: 'Concurrent requests', value: `${x.batch.toLocaleString('en-US')} per replica (${x.maxBatch.toLocaleString('en-US')} fit in memory)` },
    { label: 'Time to first token', value: formatSeconds(x.prefillSeconds) },
    { label: 'Time per output token', value: `${formatSeconds(x.decodeStepSeconds)} (${perSecond(1 / x.decodeStepSeconds)} tokens/s per user)` },
    { label: 'Throughput', value: `${perSecond(x.tokensPerSecondPerGpu)} tokens/s per GPU · ${perSecond(requestsPerSecond(x, outputTokens))} requests/s per replica` },
    {
      label: 'Memory per GPU',
      value: `${formatBytes(x.totalBytesPerGpu)} of ${formatBytes(x.capacityBytes)}: weights ${formatBytes(x.weightsBytesPerGpu)}, KV cache ${formatBytes(x.kvCacheBytesPerGpu)} (${formatBytes(x.kvCacheBytesPerGpu / x.batch)} per request on each GPU)`,
    },
  ];
}

/**
 * With a request rate: the replicas (and GPUs) it needs, how loaded they are (the rate over what they finish
 * at this batch: near 100% prompts wait for admission, a queue the estimate leaves out), and whether the
 * GPUs named hold them.
 */
function loadFigure(x: InferencePointJson, p: AskParameters, gpus: number | undefined): AnswerFigure[] {
  if (p.requestsPerSecond === undefined) return [];
  const capacity = requestsPerSecond(x, p.outputTokens ?? 1);
  const replicas = Math.ceil(p.requestsPerSecond / capacity);
  const needed = replicas * x.gpus;
  const load = formatPercent(p.requestsPerSecond / (replicas * capacity), 0);
  const standing = gpus === undefined ? '' : needed <= gpus ? ` (the ${gpus} GPUs named are enough)` : ` (more than the ${gpus} GPUs named)`;
  return [{
    label: `GPUs for ${perSecond(p.requestsPerSecond)} requests/s`,
    value: `${countOf(needed, 'GPU')}: ${countOf(replicas, 'replica')} of ${shapeText(x)}, loaded to ${load} of what they serve${standing}`,
  }];
}

type Served = Extract<InferenceResponseJson, { ok: true }>;

/** The lowest-latency point (the frontier's first): what one request alone sees. */
function fastestNote(a: Served): string[] {
  const first = a.frontier[0];
  if (first === undefined) return [];
  return [`Fastest per token: ${shapeText(first)} with ${requests(first.batch, 'request')} at a time, ${formatSeconds(first.decodeStepSeconds)} per token, first token in ${formatSeconds(first.prefillSeconds)}.`];
}

/** The smallest replica that serves the model at all, when the GPUs named hold none (run again without the count). */
function smallestServing(p: AskParameters): InferencePointJson | undefined {
  const again = runInference({ ...requestOf({ ...p, maxTokenSeconds: undefined, maxFirstTokenSeconds: undefined }, undefined) });
  if (!again.ok) return undefined;
  return again.byShape.flatMap((s) => (s.ok ? [s.largestBatch] : []))
    .reduce<InferencePointJson | undefined>((a, b) => (a === undefined || b.gpus < a.gpus || (b.gpus === a.gpus && b.tokensPerSecondPerGpu > a.tokensPerSecondPerGpu) ? b : a), undefined);
}

export function answerServing(q: ParsedQuestion): Answer {
  const p = q.parameters;
  const gpus = servingGpus(p);
  const result = runInference(requestOf(p, gpus));
  if (!result.ok) return answerHelp(q, [result.message]);
  const subject = `${modelNameOf(p)} on ${gpus === undefined ? '' : `${gpus} × `}${gpuName(p.gpu ?? '')}`;
  const bounds = boundsText(p);
  const base = {
    intent: q.intent, question: q.text, examples: [], data: result,
    assumptions: [...q.defaults.map((d) => d.text), CONTINUOUS],
  };
  const best = result.best;
  if (best !== undefined) {
    const replicas = gpus === undefined || gpus === best.gpus ? '' : ` (${countOf(gpus / best.gpus, 'replica')})`;
    // A count asked with no request rate: one replica's GPUs answer it for one replica's load.
    const countNote = p.requestsPerSecond === undefined && ASKS_COUNT.test(q.text)
      ? [`One replica of ${countOf(best.gpus, 'GPU')} serves ${perSecond(requestsPerSecond(best, p.outputTokens ?? 1))} requests/s; give a load ("at 100 requests/s") for the GPUs it needs.`] : [];
    // A stated concurrency is each replica's: said in the total when the GPUs named hold several.
    const perReplica = p.concurrency !== undefined && gpus !== undefined && gpus > best.gpus
      ? [`${p.concurrency.toLocaleString('en-US')} concurrent requests taken per replica: ${(p.concurrency * gpus / best.gpus).toLocaleString('en-US')} on the ${gpus} GPUs`] : [];
    return {
      ...base, ok: true, assumptions: [...base.assumptions, ...perReplica],
      headline: `${subject}: ${ASKS_FIT.test(q.text) ? 'fits; ' : ''}${shapeText(best)}${replicas} serves ${perSecond(best.tokensPerSecondPerGpu)} tokens/s per GPU at ${requests(best.batch, 'concurrent request')}, `
        + `${formatSeconds(best.decodeStepSeconds)} per token, first token in ${formatSeconds(best.prefillSeconds)}${bounds === undefined ? ' (no latency bound: the most throughput)' : ` (${bounds})`}`,
      configuration: `${shapeText(best)} · batch ${best.batch.toLocaleString('en-US')} · ${(p.precision ?? 'bf16').toUpperCase()} · ${countOf(p.promptTokens ?? 0, 'prompt token')} + ${countOf(p.outputTokens ?? 0, 'output token')}`,
      figures: [...pointFigures(best, p, gpus), ...loadFigure(best, p, gpus)],
      memoryPerGpuBytes: best.totalBytesPerGpu, memoryCapacityBytes: best.capacityBytes,
      notes: [...(result.warnings ?? []), ...countNote, ...fastestNote(result)],
    };
  }
  if (result.unservable !== undefined) {
    // Nothing fits on the GPUs named: the smallest replica that would serve, on more of them.
    const widest = widestShape(result.byShape);
    const why = widest === undefined || widest.ok ? 'no tensor × pipeline split of them serves it' : `${shapeText(widest)}: ${widest.message}`;
    const smallest = gpus === undefined ? undefined : smallestServing(p);
    return {
      ...base, ok: false,
      headline: `${subject}: does not fit for serving (${why})`,
      figures: smallest === undefined ? [] : pointFigures(smallest, p, undefined).map((f) => ({ ...f, label: `${f.label} (closest)` })),
      ...(smallest !== undefined && { configuration: `closest that works, not what was asked: ${shapeText(smallest)} on ${countOf(smallest.gpus, 'GPU')}` }),
      notes: [
        ...(smallest === undefined ? [] : [`Closest that works: ${countOf(smallest.gpus, 'GPU')} (${shapeText(smallest)}) hold it, with up to ${requests(smallest.maxBatch, 'request')} at a time.`]),
      ],
    };
  }
  const closest = result.closest;
  return {
    ...base, ok: false,
    headline: `${subject}: no plan meets ${bounds ?? 'the latency bounds'}${closest === undefined ? '' : `: ${closest.why}`}`,
    figures: closest === undefined ? [] : pointFigures(closest.point, p, gpus).map((f) => ({ ...f, label: `${f.label} (closest)` })),
    ...(closest !== undefined && { configuration: `closest to the bounds, missing them: ${shapeText(closest.point)} · batch ${closest.point.batch.toLocaleString('en-US')}` }),
    notes: [...(result.warnings ?? []), ...fastestNote(result)],
  };
}
