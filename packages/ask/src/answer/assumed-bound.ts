import type { InferencePointJson } from '@trainplan/protocol';
import { formatSeconds, toMs } from '@trainplan/units';
import type { ParsedQuestion } from '../question.ts';

/**
 * A serving question that bounds one of the time to the first token and the time per token is held to an interactive
 * service's bound on the other (defaults.ts fillLatencyBounds). Where that assumed bound is all the closest plan misses,
 * the answer says so, with a bound it meets, in words the question reads back ("ttft under 9 s", "300 ms per token"):
 * the asker did not set the bound that fails.
 */
export function assumedBoundNote(q: ParsedQuestion, closest: InferencePointJson | undefined): string[] {
  // At a request rate the closest may miss for the GPUs it takes, which no latency bound changes.
  if (closest === undefined || q.parameters.requestsPerSecond !== undefined) return [];
  const asked = q.stated;
  const bounds = q.parameters;
  if (asked.maxTokenSeconds !== undefined && asked.maxFirstTokenSeconds === undefined && bounds.maxFirstTokenSeconds !== undefined) {
    const firstToken = closest.prefillSeconds;
    if (firstToken <= bounds.maxFirstTokenSeconds || closest.decodeStepSeconds > asked.maxTokenSeconds) return [];
    return [`The ${formatSeconds(bounds.maxFirstTokenSeconds)} bound on the first token is an interactive service's, assumed, not asked; the closest plan meets the ${formatSeconds(asked.maxTokenSeconds)} per token asked: `
      + `say e.g. "ttft under ${Math.ceil(firstToken)} s" to plan with its ${formatSeconds(firstToken)} first token, or "offline" for no latency bound.`];
  }
  if (asked.maxFirstTokenSeconds !== undefined && asked.maxTokenSeconds === undefined && bounds.maxTokenSeconds !== undefined) {
    const perToken = closest.decodeStepSeconds;
    if (perToken <= bounds.maxTokenSeconds || closest.prefillSeconds > asked.maxFirstTokenSeconds) return [];
    return [`The ${formatSeconds(bounds.maxTokenSeconds)} bound per token is an interactive service's, assumed, not asked; the closest plan meets the ${formatSeconds(asked.maxFirstTokenSeconds)} to the first token asked: `
      + `say e.g. "${Math.ceil(toMs(perToken))} ms per token" to plan with its ${formatSeconds(perToken)} per token, or "offline" for no latency bound.`];
  }
  return [];
}
