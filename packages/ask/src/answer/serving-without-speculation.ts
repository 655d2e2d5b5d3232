import { runInference, type InferencePointJson } from '@trainplan/protocol';
import { countOf, formatNumber, formatSeconds } from '@trainplan/units';
import type { AskParameters } from '../question.ts';
import { isLoaded } from './serving-load.ts';
import { missedText, planHeadline } from './serving-plan-text.ts';
import { requestOf, type Batching, type Served } from './serving-request.ts';
import { SPECULATION_TRADE } from './serving-speculation.ts';

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
export function withoutSpeculation(speculating: Served, p: AskParameters, gpus: number | undefined, bounds: string | undefined, batching: Batching): string[] {
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
