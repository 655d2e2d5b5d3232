import type { InferencePointJson, InferenceResponseJson } from '@trainplan/protocol';
import { countOf, formatGrouped, formatSeconds } from '@trainplan/units';
import { ASKS_MOST_CONCURRENT } from '../lexicon/serving.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import { latencyText, perSecond, shapeText } from './serving-text.ts';

/**
 * "Max batch for llama3-8b on a100-80gb", "how many concurrent requests fit when serving llama3-70b on 4 a100-80gb": the
 * most requests a replica holds at once, led by the largest batch that fits in memory (the protocol's maxBatch: the KV cache
 * and the largest forward pass's activations beside the weights, as vLLM sizes max_num_seqs to its KV blocks), then what the
 * latency bounds allow where they allow fewer, naming the bound that stops it. QA: the headline said the plan's 190
 * concurrent requests, the 255 that fit only in the figures' parentheses.
 */

type Served = Extract<InferenceResponseJson, { ok: true }>;

/**
 * Whether the question asks the most requests held at once, with no concurrency or rate of its own to plan at: "do 300
 * concurrent requests fit" asks about the 300, and a rate's plan is the fewest GPUs, not the most requests.
 */
export const asksMostConcurrent = (q: ParsedQuestion): boolean =>
  ASKS_MOST_CONCURRENT.test(q.text) && q.stated.concurrency === undefined && q.parameters.requestsPerSecond === undefined;

/** "the 200 ms per-token bound (assumed)", "the 2.00 s first-token bound": a latency bound by name, said assumed where the question set none. */
function boundName(kind: 'token' | 'first', p: AskParameters, stated: AskParameters): string {
  const assumed = (kind === 'token' ? stated.maxTokenSeconds : stated.maxFirstTokenSeconds) === undefined ? ' (assumed)' : '';
  return kind === 'token' ? `the ${formatSeconds(p.maxTokenSeconds ?? 0)} per-token bound${assumed}` : `the ${formatSeconds(p.maxFirstTokenSeconds ?? 0)} first-token bound${assumed}`;
}

/** The bounds a point misses: per token (its decode step), to the first token (its prefill). */
function missed(x: InferencePointJson, p: AskParameters): ('token' | 'first')[] {
  return [
    ...(p.maxTokenSeconds !== undefined && x.decodeStepSeconds > p.maxTokenSeconds ? ['token' as const] : []),
    ...(p.maxFirstTokenSeconds !== undefined && x.prefillSeconds > p.maxFirstTokenSeconds ? ['first' as const] : []),
  ];
}

/**
 * The bounds that stop the plan's batch from growing: those a batch one larger misses (the best batch under a bound is the
 * largest that meets it, search's boundBatches), else those the largest that fits misses (a pipeline's micro-batches can make
 * the next batch no slower). `at` estimates the plan's shape at a batch, with no bound; `largest` is its shape's point at maxBatch.
 */
function stoppingBounds(best: InferencePointJson, p: AskParameters, at: (batch: number) => InferencePointJson | undefined, largest: InferencePointJson | undefined): ('token' | 'first')[] {
  const next = at(best.batch + 1);
  const byNext = next === undefined ? [] : missed(next, p);
  return byNext.length > 0 ? byNext : largest === undefined ? [] : missed(largest, p);
}

/** Requests held at once by a replica shape on the GPUs named (every replica of it), or by one replica when none are named. */
const heldOn = (x: InferencePointJson, gpus: number | undefined): number => x.maxBatch * (gpus === undefined ? 1 : Math.floor(gpus / x.gpus));

/** "1,145 tokens/s per GPU, 121 ms per token, first token in 234 ms": what the plan serves at its batch. */
const servesText = (x: InferencePointJson): string =>
  `${perSecond(x.tokensPerSecondPerGpu)} tokens/s per GPU, ${latencyText(x)}`;

/**
 * The headline after the subject: "up to 255 concurrent requests fit in memory on TP 4 · PP 1 (4 GPUs); the 200 ms
 * per-token bound (assumed) allows 190: 238 tokens/s per GPU, 199 ms per token, first token in 637 ms", or where the
 * bounds allow all that fit, "up to 555 … (4 GPUs), all within the latency bounds: 1,145 tokens/s per GPU, …". `at`
 * estimates the plan's shape at a batch with no bound (serving-request.ts pointAt asks runInference).
 */
export function mostConcurrentLead(q: ParsedQuestion, result: Served, best: InferencePointJson, gpus: number | undefined, at: (batch: number) => InferencePointJson | undefined): string {
  const p = q.parameters;
  const replicas = gpus === undefined ? 1 : Math.floor(gpus / best.gpus);
  const where = replicas > 1
    ? `on each ${shapeText(best)} replica (${countOf(best.gpus, 'GPU')}), ${formatGrouped(heldOn(best, gpus))} on the ${countOf(gpus ?? best.gpus, 'GPU')}`
    : `on ${shapeText(best)} (${countOf(best.gpus, 'GPU')})`;
  const fit = `up to ${countOf(best.maxBatch, 'concurrent request')} fit in memory ${where}`;
  const bounded = p.maxTokenSeconds !== undefined || p.maxFirstTokenSeconds !== undefined;
  if (best.batch >= best.maxBatch) return `${fit}${bounded ? ', all within the latency bounds' : ''}: ${servesText(best)}`;
  const largest = result.byShape.flatMap((s) => (s.ok && s.tensor === best.tensor && s.pipeline === best.pipeline && s.largestBatch.batch === best.maxBatch ? [s.largestBatch] : []))[0];
  const bounds = stoppingBounds(best, p, at, largest);
  const batch = formatGrouped(best.batch);
  // No bound stops it (none asked, "offline"): the most throughput is at a smaller batch than fits.
  if (bounds.length === 0) return `${fit}; the most throughput is at ${batch}: ${servesText(best)}`;
  const which = bounds.map((b) => boundName(b, p, q.stated)).join(' and ');
  return `${fit}; ${which} allow${bounds.length > 1 ? '' : 's'} ${batch}: ${servesText(best)}`;
}

/**
 * Another replica beside the plan's, said as a note. With GPUs named, the shape that holds the most requests on them (every
 * replica of it), where it is not the plan's. With none named, the smallest replica that serves, where it is not the plan's: a
 * larger replica always holds more (its weights split over more GPUs leave each more room for the KV cache), so the fewest
 * GPUs are the other answer a count-free "max batch on an A100" may mean.
 */
export function otherReplicaNote(result: Served, best: InferencePointJson, p: AskParameters, gpus: number | undefined): string[] {
  const shapes = result.byShape.flatMap((s) => (s.ok ? [s.largestBatch] : []));
  const plan = `the headline's ${shapeText(best)} is the plan with the most tokens/s per GPU${p.maxTokenSeconds !== undefined || p.maxFirstTokenSeconds !== undefined ? ' within the latency bounds' : ''}`;
  if (gpus === undefined) {
    const smallest = shapes.reduce<InferencePointJson | undefined>((m, x) => (m === undefined || x.gpus < m.gpus || (x.gpus === m.gpus && x.maxBatch > m.maxBatch) ? x : m), undefined);
    if (smallest === undefined || smallest.gpus >= best.gpus) return [];
    return [`The smallest replica, ${shapeText(smallest)} (${countOf(smallest.gpus, 'GPU')}), holds up to ${countOf(smallest.maxBatch, 'concurrent request')} in memory; ${plan} (name a GPU count to plan on it).`];
  }
  const most = shapes.reduce<InferencePointJson | undefined>((m, x) => (m === undefined || heldOn(x, gpus) > heldOn(m, gpus) ? x : m), undefined);
  if (most === undefined || heldOn(most, gpus) <= heldOn(best, gpus)) return [];
  return [`Of the replicas tried, ${shapeText(most)} (${countOf(Math.floor(gpus / most.gpus), 'replica')} on the ${countOf(gpus, 'GPU')}) holds the most: up to ${countOf(heldOn(most, gpus), 'concurrent request')} in memory; ${plan}.`];
}
