import type { InferencePointJson } from '@trainplan/protocol';
import { formatSeconds } from '@trainplan/units';
import type { ParsedQuestion } from '../question.ts';

/**
 * A serving question that bounds the time per token alone is held to an interactive service's first-token bound too
 * (defaults.ts fillLatencyBounds). Where that assumed bound is all the closest plan misses, the answer says so, with a
 * bound it meets, in words the question reads back ("ttft under 9 s"): the asker did not set the bound that fails.
 */
export function assumedFirstTokenNote(q: ParsedQuestion, closest: InferencePointJson | undefined): string[] {
  const assumed = q.parameters.maxFirstTokenSeconds;
  const perToken = q.stated.maxTokenSeconds;
  // At a request rate the closest may miss for the GPUs it takes, which no first-token bound changes.
  if (closest === undefined || assumed === undefined || perToken === undefined || q.stated.maxFirstTokenSeconds !== undefined || q.parameters.requestsPerSecond !== undefined) return [];
  const firstToken = closest.prefillSeconds;
  if (firstToken <= assumed || closest.decodeStepSeconds > perToken) return [];
  return [`The ${formatSeconds(assumed)} bound on the first token is an interactive service's, assumed, not asked; the closest plan meets the ${formatSeconds(perToken)} per token asked: `
    + `say e.g. "ttft under ${Math.ceil(firstToken)} s" to plan with its ${formatSeconds(firstToken)} first token, or "offline" for no latency bound.`];
}
