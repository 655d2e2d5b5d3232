/**
 * What serves a rate at a real load where the best plan's fleet is idle (inference-idle-fleet.ts): the first-token bound loosened
 * to what the rate is served within at the load floor (asked again already: idleFleet.loosened), or a faster prefill. FP8 weights
 * are asked again and named where their plan loads its replicas; fewer prompt tokens to prefill (a cached shared prefix, a shorter
 * prompt) and a faster GPU are named, as boundsRemedy names a faster GPU, since the values they take are the request's to choose.
 */
import { formatGrouped, formatLoad } from '@trainplan/units';
import type { InferencePointJson, InferenceRemedyJson } from './inference-json.ts';
import { remedyJson, slot, type Slots } from './inference-remedy-terms.ts';
import { joinOr, name } from './inference-remedy-words.ts';
import type { Retry, Served } from './inference-retry.ts';

/** "3,568 GPUs, 49% loaded": the GPUs a plan's load takes and how busy they are. */
const loadText = (p: InferencePointJson): string => `${formatGrouped(p.load!.gpus)} GPUs, ${formatLoad(p.load!.utilization)} loaded`;

/** FP8 weights' plan, where the GPU runs them, they are not already asked for, and the plan they give is not an idle fleet too. */
function fp8Plan(request: Record<string, unknown>, retry: Retry): InferencePointJson | undefined {
  if (request.precision === 'fp8') return undefined;
  const a = retry({ set: { precision: 'fp8' } });
  return a?.best?.load === undefined || a.idleFleet !== undefined ? undefined : a.best;
}

/**
 * The remedy of an answer whose best plan is an idle fleet, or undefined where it is not: "to serve 50 requests/s at a real load,
 * give maxPrefillSeconds 2.09 (3,568 GPUs, 49% loaded), or try FP8 weights (precision "fp8", which meets the bounds as given on 768
 * GPUs, 89% loaded), fewer prompt tokens to prefill (a shared prefix cached, sharedPrefixTokens, or a shorter prompt, promptTokens)
 * or a faster GPU (cluster.gpu)" (Llama 3.1 405B on H100s at TP ≤ 8, 8K prompts at 50 requests/s within 2 s).
 */
export function idleFleetRemedy(a: Served, request: Record<string, unknown>, retry: Retry): InferenceRemedyJson | undefined {
  const idle = a.idleFleet;
  if (idle === undefined || a.best?.load === undefined) return undefined;
  const s: Slots = { fields: [] };
  const loosened = idle.loosened.best?.load === undefined ? undefined
    : `give ${slot(s, { field: 'maxPrefillSeconds', value: idle.loosened.maxPrefillSeconds })} (${loadText(idle.loosened.best)})`;
  const fp8 = fp8Plan(request, retry);
  const faster = [
    ...(fp8 === undefined ? [] : [`FP8 weights (${name(s, 'precision', 'fp8')}, which meets the bounds as given on ${loadText(fp8)})`]),
    `fewer prompt tokens to prefill (a shared prefix cached, ${name(s, 'sharedPrefixTokens')}, or a shorter prompt, ${name(s, 'promptTokens')})`,
    `a faster GPU (${name(s, 'cluster.gpu')})`,
  ];
  return remedyJson(s, `to serve ${formatGrouped(a.best.load.requestsPerSecond)} requests/s at a real load, ${loosened === undefined ? '' : `${loosened}, or `}try ${joinOr(faster)}`);
}
