import { formatGrouped } from '@trainplan/units';
import type { ResolvedScenarioInput } from '@trainplan/protocol';
import type { OverBudget } from './operation.ts';

/**
 * The most pipeline stages one /v1/memory request may ask for, summed over an array's scenarios (CWE-400, CWE-405,
 * CWE-770): its answer breaks memory down for every stage, about 176 characters each, so the answer grows with the
 * stages, not with the body. Security QA: 397 scenarios of a custom 1,000-layer model at pipeline 1,000 in a 61,935-byte
 * MessagePack body (397,000 stages) answered 81,046,344 characters in 5.9 s while /healthz waited 4.2 s, and four at once
 * took the server from 600 MB to 1.15 GB; on this repository's 2-core machine 71,384,174 characters in 1.5 s. At this cap
 * the largest answer the 64 KiB body admits is 3,746,909 characters (682 scenarios of GPT-3 175B at pipeline 24, 16,368
 * stages, 62,065 bytes of MessagePack), measured on `npm start` in 0.45 s; four at once 0.8 s, the server 152 → 216 MB.
 *
 * No realistic request reaches it: the deepest published pipelines are 64 stages (Megatron-LM's 1T-parameter GPT,
 * Narayanan et al. 2021, Table 1), 35 (MT-NLG 530B, Smith et al. 2022) and 16 (Llama 3 405B, Dubey et al. 2024, §3.3.2),
 * so it admits 256 scenarios at 64 stages, and an array's 1,024 scenarios (MAX_SCENARIOS) at Llama 3's 16.
 *
 * /v1/estimate has no such cap: its answer names a stage by one integer (resolved.layersPerStage), not a breakdown; the
 * largest the 64 KiB body admits (397 scenarios at pipeline 1,000) answered 1,470,886 characters in 0.3–0.4 s on
 * `npm start`, under what this cap admits here.
 */
export const HTTP_MAX_PIPELINE_STAGES = 16_384;

/** The description's sentence, for /openapi.json. */
export const STAGE_LIMIT_TEXT = `The pipeline stages a request asks for (parallelism.pipeline, summed over an array's scenarios) are capped at `
  + `${formatGrouped(HTTP_MAX_PIPELINE_STAGES)}, as each is answered with its own breakdown; past it the request is refused (422) naming the limit.`;

/**
 * A refusal when the request's scenarios ask for more than HTTP_MAX_PIPELINE_STAGES stages, before any is answered. Each
 * valid scenario counts its pipeline degree, whether or not it turns out feasible: an answer lists at most that many
 * stages (none where it is invalid or indivisible), and the count reads a field, no resolving.
 */
export function stageRefusal(scenarios: readonly ResolvedScenarioInput[]): OverBudget | undefined {
  let stages = 0;
  for (const scenario of scenarios) stages += scenario.parallelism.pipeline;
  if (stages <= HTTP_MAX_PIPELINE_STAGES) return undefined;
  return {
    detail: `${formatGrouped(stages)} pipeline stages are over the API's limit of ${formatGrouped(HTTP_MAX_PIPELINE_STAGES)} per request `
      + '(summed over an array\'s scenarios, each stage answered with its own breakdown); split the scenarios over requests',
    limit: { limit: 'pipelineStages', max: HTTP_MAX_PIPELINE_STAGES, requested: stages },
  };
}
