import type { InferencePointJson, InferenceResponseJson } from '@trainplan/protocol';
import { countOf } from '@trainplan/units';
import type { ParsedQuestion } from '../question.ts';
import { latencyText, perSecond, shapeText } from './serving-text.ts';

/**
 * "Latency of llama3-70b inference on 8 a100", "what's the TTFT of llama3-8b on one h100": a latency asked with no bound of
 * its own leads with the lowest latency, what one request sees on the fastest shape (the protocol's frontier's first point:
 * the least time per token, batch 1 on the widest replica as a rule), and then the trade: the plan with the most throughput
 * within the bounds, at its larger batch and slower tokens. QA: the headline said 199 ms per token, set by the 200 ms bound
 * assumed for a service, the 17.5 ms one request sees only in a note.
 */

type Served = Extract<InferenceResponseJson, { ok: true }>;

/** Words asking a latency: "latency", "TTFT", "TPOT", "time to first token", "time per output token", "inter-token". */
const ASKS_LATENCY = /\blatenc(?:y|ies)\b|\bttft\b|\btpot\b|\btime to (?:the )?first token\b|\btime per (?:output |generated )?token\b|\binter[\s-]*token\b/i;

/**
 * The lowest-latency point where the question asks a latency and bounds none (a bound asked is a service's, whose plan is the
 * answer), at no concurrency or rate of its own (either sets the batch the latency is asked at); undefined otherwise.
 */
export function lowestLatencyAsked(q: ParsedQuestion, result: Served): InferencePointJson | undefined {
  const s = q.stated;
  if (!ASKS_LATENCY.test(q.text) || s.maxTokenSeconds !== undefined || s.maxFirstTokenSeconds !== undefined) return undefined;
  if (s.concurrency !== undefined || q.parameters.requestsPerSecond !== undefined) return undefined;
  return result.frontier[0];
}

/** Whether two points are one: the same shape at the same batch. */
const samePoint = (a: InferencePointJson, b: InferencePointJson): boolean => a.tensor === b.tensor && a.pipeline === b.pipeline && a.batch === b.batch;

/**
 * The headline after the subject: "lowest latency 17.9 ms per token, first token in 248 ms, with TP 8 · PP 1 serving 1
 * request at a time (6.96 tokens/s per GPU); for throughput, TP 4 · PP 1 (2 replicas) serves 238 tokens/s per GPU at 190
 * concurrent requests, …, the most within the bounds assumed (≤ 200 ms per token, …)". `plan` is the plan's own headline
 * (serving-answer.ts); `bounds` those it was held to, all assumed (lowestLatencyAsked takes no question that states one).
 */
export function lowestLatencyLead(fastest: InferencePointJson, best: InferencePointJson, plan: string, bounds: string | undefined): string {
  const lead = `lowest latency ${latencyText(fastest)}, `
    + `with ${shapeText(fastest)} serving ${countOf(fastest.batch, 'request')} at a time (${perSecond(fastest.tokensPerSecondPerGpu)} tokens/s per GPU)`;
  const within = bounds === undefined ? 'the most with no latency bound' : `the most within the bounds assumed (${bounds})`;
  return samePoint(fastest, best) ? lead : `${lead}; for throughput, ${plan}, ${within}`;
}
