import { formatGrouped } from '@trainplan/units';
import { resolveScenario, type ResolvedScenarioInput } from '@trainplan/protocol';
import type { OverBudget } from './operation.ts';

/**
 * The most GPUs one /v1/estimate or /v1/memory request may cost with the emulated communication model
 * (cluster.communicationModel "emulated"), summed over an array's scenarios (CWE-400, CWE-770). The emulator's
 * CPU grows with the GPUs it models: measured on this repository's 2-core machine, 2,048 DGX A100 nodes (16,384
 * GPUs) took 0.3–3.2 s by layout and oversubscription (security QA: GPT-3 175B at TP 8 × PP 8, oversubscription
 * 1.001, 2,954 ms), 250,000 nodes 14 s, and five 16,384-node scenarios in a 1,094-byte array held Node's event
 * loop 8.6 s. At this cap a request stays within a few seconds, as a search does; such a request is slow work
 * (asksForEmulation), which `npm start` runs on its worker pool, not the thread that answers health checks. The
 * CLI, which spends only its user's CPU, has no cap.
 */
export const HTTP_MAX_EMULATED_GPUS = 16_384;

/**
 * Whether a request asks for the emulator (some scenario's cluster.communicationModel is "emulated"): seconds of
 * CPU, where the closed form answers in µs. PostOperation.slow for /v1/estimate and /v1/memory, so a runtime with
 * threads runs it off the thread that serves (security QA: one 213-byte estimate held /healthz 2,831 ms on Node).
 */
export const asksForEmulation = ({ values }: { values: readonly ResolvedScenarioInput[] }): boolean =>
  values.some((scenario) => scenario.cluster.communicationModel === 'emulated');

/** The description's sentence, for /openapi.json. */
export const EMULATION_LIMIT_TEXT = `communicationModel "emulated" over HTTP is capped at ${formatGrouped(HTTP_MAX_EMULATED_GPUS)} GPUs per `
  + 'request (summed over an array\'s scenarios); past it the request is refused (422) naming the limit.';

/**
 * A refusal when the request's emulated scenarios model more than HTTP_MAX_EMULATED_GPUS GPUs, before
 * the emulator runs. A scenario that does not resolve (an unknown preset) costs nothing: its answer is
 * ok: false. Resolving is a preset lookup, microseconds; the estimate resolves it again.
 */
export function emulationRefusal(scenarios: readonly ResolvedScenarioInput[]): OverBudget | undefined {
  let gpus = 0;
  for (const scenario of scenarios) {
    if (scenario.cluster.communicationModel !== 'emulated') continue;
    const resolved = resolveScenario(scenario);
    if (resolved.ok) gpus += resolved.value.plan.nodes * resolved.value.plan.gpusPerNode;
  }
  if (gpus <= HTTP_MAX_EMULATED_GPUS) return undefined;
  return {
    detail: `${formatGrouped(gpus)} GPUs under the emulated communication model are over the API's limit of ${formatGrouped(HTTP_MAX_EMULATED_GPUS)} `
      + 'per request (summed over an array\'s scenarios); the CLI has none: trainplan estimate --emulate',
    limit: { limit: 'emulatedGpus', max: HTTP_MAX_EMULATED_GPUS, requested: gpus },
  };
}
