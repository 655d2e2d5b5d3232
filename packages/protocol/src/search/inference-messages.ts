/** What an inference answer says in words: its bounds, and warnings on a late first token or nothing served. */
import type { InferenceEstimate } from '@trainplan/search';
import { formatGrouped, formatLoad, formatSeconds } from '@trainplan/units';
import type { InferenceRequest } from './inference-request.ts';
import type { InferenceResponseJson } from './inference-json.ts';

/**
 * The time to first token an interactive service is held to: MLPerf Inference's Llama 2 70B server
 * scenario bounds it at 2 s (and the time per output token at 200 ms; MLCommons, Inference v4.0, 2024).
 */
export const INTERACTIVE_TTFT_SECONDS = 2;
/** …and the time per output token of that scenario (same source). */
export const INTERACTIVE_TOKEN_SECONDS = 0.2;

/**
 * The first-token bound a request is planned with: its own, or with a request rate and none given, the
 * interactive INTERACTIVE_TTFT_SECONDS. Without a bound the fewest GPUs that keep up with a rate run their
 * replicas all but fully loaded (ρ → 1), where an M/D/c queue's wait for a slot, Erlang C's C(c, a)·S/(c − a)
 * (serving-load.ts), grows without bound: tens of seconds, or minutes, before a prompt is admitted. Sized for
 * the bound, the replicas are the fewest whose first token, that wait included, meets it.
 */
export function rateFirstTokenBound(req: Pick<InferenceRequest, 'maxPrefillSeconds' | 'requestsPerSecond'>): number | undefined {
  return req.maxPrefillSeconds ?? (req.requestsPerSecond === undefined ? undefined : INTERACTIVE_TTFT_SECONDS);
}

/** The request gives a rate but no first-token bound: it is planned with the default one (rateFirstTokenBound). */
export function firstTokenBoundIsDefault<R extends Pick<InferenceRequest, 'maxPrefillSeconds' | 'requestsPerSecond'>>(req: R): req is R & { readonly requestsPerSecond: number } {
  return req.maxPrefillSeconds === undefined && req.requestsPerSecond !== undefined;
}

/** Says the default first-token bound a rate was planned with (rateFirstTokenBound), when the request gave none. */
export function rateFirstTokenWarning(req: Pick<InferenceRequest, 'maxPrefillSeconds' | 'requestsPerSecond'>): string[] {
  if (!firstTokenBoundIsDefault(req)) return [];
  return [`no maxPrefillSeconds given: the replicas for ${formatGrouped(req.requestsPerSecond)} requests/s are sized for a first token within `
    + `${INTERACTIVE_TTFT_SECONDS} s, the wait for a slot included (MLPerf Inference's Llama 2 70B server bound), not run near full load, `
    + 'where the wait grows without bound; give maxPrefillSeconds for another'];
}

/**
 * A request that bounds the time per output token (an interactive service) but not the time to first
 * token may get a best plan whose first token comes late. Static batching: a batch of hundreds of
 * prompts is prefilled together, so its first token waits for all of them; continuous batching admits
 * prompts as sequences finish, which is suggested. Continuous batching: the first token is one prompt's
 * prefill plus a running iteration of the batch, past the bound only for a long prompt or a slow
 * iteration. Said when the wait passes INTERACTIVE_TTFT_SECONDS. Without any bound the answer is the
 * highest throughput, as for offline batch work; a first token past the interactive bound is said once, so
 * that a reader who meant a service sees what to give.
 */
export function ttftWarning(
  best: InferenceEstimate | undefined, req: Pick<InferenceRequest, 'maxDecodeSecondsPerToken' | 'maxPrefillSeconds' | 'requestsPerSecond' | 'outputTokens'>,
): string[] {
  // A per-token bound with one output token bounds nothing (none is decoded; planInference drops it).
  const tokenBound = req.outputTokens > 1 ? req.maxDecodeSecondsPerToken : undefined;
  const interactive = tokenBound !== undefined && req.maxPrefillSeconds === undefined;
  // With a rate the best plan is the fewest GPUs, under rateFirstTokenBound's first-token bound, not the highest throughput.
  const unbounded = tokenBound === undefined && req.maxPrefillSeconds === undefined && req.requestsPerSecond === undefined;
  const firstToken = best?.load?.firstTokenSeconds ?? best?.prefillSeconds;
  if (best === undefined || firstToken === undefined || firstToken <= INTERACTIVE_TTFT_SECONDS) return [];
  if (unbounded) {
    return [`with no latency bound the best plan is the highest throughput, as for offline batch work: its time to first token is ${formatSeconds(firstToken)}; `
      + `for an interactive service give maxDecodeSecondsPerToken and maxPrefillSeconds (MLPerf Inference's Llama 2 70B server scenario: `
      + `${formatSeconds(INTERACTIVE_TOKEN_SECONDS)} and ${INTERACTIVE_TTFT_SECONDS} s)`];
  }
  if (!interactive) return [];
  // Alone (batch 1) nothing runs before its prompt, so no running iteration is waited out (continuousIteration).
  const why = best.batching === 'continuous'
    ? `it is one prompt's prefill ${best.shape.batch > 1 ? `plus waiting for a running iteration of its ${best.shape.batch} sequences` : 'alone'} (continuous batching)`
      + (best.load === undefined ? '' : ` and ${formatSeconds(best.load.queueSeconds)} on average for a slot, its replicas ${formatLoad(best.load.utilization)} loaded`)
    : `its batch of ${best.shape.batch} prompts is prefilled together (a static batch: use batching "continuous" to admit prompts as sequences finish)`;
  return [`the best plan's time to first token is ${formatSeconds(firstToken)}: ${why}; `
    + `MLPerf Inference's Llama 2 70B server scenario bounds it at ${INTERACTIVE_TTFT_SECONDS} s, so give maxPrefillSeconds for an interactive service`];
}

/**
 * A request's latency bounds in words, "≤ 50.0 ms per token, ≤ 2.00 s to the first token", and its rate when it
 * gives one ("…, 100 requests/s"), or undefined when it sets none: how the CLI, the widget and the chat bot name
 * them. A bound that is not a number is left out, and so is the per-token bound of a request of one output token,
 * which decodes none (planInference does not apply it).
 */
export function inferenceBoundsText(bounds: {
  readonly maxDecodeSecondsPerToken?: unknown; readonly maxPrefillSeconds?: unknown; readonly requestsPerSecond?: unknown; readonly outputTokens?: unknown;
}): string | undefined {
  const { maxDecodeSecondsPerToken: token, maxPrefillSeconds: first, requestsPerSecond: rate } = bounds;
  const parts = [
    ...(typeof token === 'number' && bounds.outputTokens !== 1 ? [`≤ ${formatSeconds(token)} per token`] : []),
    ...(typeof first === 'number' ? [`≤ ${formatSeconds(first)} to the first token`] : []),
    ...(typeof rate === 'number' ? [`${formatGrouped(rate)} requests/s`] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : undefined;
}

type ShapeJson = Extract<InferenceResponseJson, { ok: true }>['byShape'][number];

/** The shape of the most GPUs among those tried (the likeliest to hold the model), or undefined when none was tried. */
export const widestShape = <S extends { tensor: number; pipeline: number }>(byShape: readonly S[]): S | undefined =>
  byShape.reduce<S | undefined>((a, s) => (a === undefined || s.tensor * s.pipeline > a.tensor * a.pipeline ? s : a), undefined);

/**
 * Why nothing serves at all (memory or divisibility, not the latency bounds), or undefined when some
 * shape does: with the GPUs given, that no shape tried divides them; else the widest shape's reason.
 */
export function unservableMessage(byShape: readonly ShapeJson[], gpus: number | undefined): string | undefined {
  if (byShape.some((s) => s.ok)) return undefined;
  const widest = widestShape(byShape);
  if (widest === undefined) {
    return gpus === undefined ? undefined
      : `no tensor × pipeline shape tried divides the ${gpus.toLocaleString('en-US')} GPUs given (gpus): give tensor and pipeline degrees whose product divides it`;
  }
  if (widest.ok) return undefined;
  return `no tensor × pipeline shape tried can serve the model (each shape's reason is given with it); the widest, TP ${widest.tensor} · PP ${widest.pipeline}: ${widest.message}`;
}

