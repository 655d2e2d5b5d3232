/** The search, nodes, scale and inference requests on the wire, and the configuration exports. */
export type {
  SearchObjectiveId, SearchPlanJson, SearchAlternativeJson, PrunedJson, SearchStatsJson, SearchOkJson, SearchFailJson, FewerNodesJson,
  SearchResponseJson, ClosestJson, NodesOkJson, NodesFailJson, NodesResponseJson, NodesSizeJson, LargerBatchJson, FrontierSizeJson,
} from './wire.ts';
export type { SearchRequest } from './search-schema.ts';
export { searchRequestSchema, searchRequestJsonSchema, validateSearchRequest } from './search-schema.ts';
export type { RunSearchOptions } from './run-search.ts';
export { runSearch } from './run-search.ts';
export type { NodesRequest } from './nodes.ts';
export { nodesRequestSchema, nodesRequestJsonSchema, runDeadlineNodes, runNodes } from './nodes.ts';
export {
  batchAsSequencesWarning, compactTokens, MAX_PLAUSIBLE_STEP_TOKENS, MIN_PUBLISHED_BATCH_TOKENS, plannedBatch, stepsOf, type PlannedBatch,
} from './nodes-batch-warning.ts';
export { withNodesExtensions, type NodesExtensions } from './nodes-extensions.ts';
export { nvlinkDomainsText } from './nvlink-domains.ts';
export type { ScaleRequest, ScalePointJson, TradeOffJson, ScaleResponseJson } from './scale.ts';
export { scaleRequestSchema, scaleRequestJsonSchema, runScale } from './scale.ts';
export type { InferenceRequest } from './inference-request.ts';
export { inferenceRequestSchema, inferenceRequestJsonSchema, KV_BLOCK_TOKENS, MAX_DRAFT_TOKENS } from './inference-request.ts';
export type { IdleFleetJson, InferencePointJson, InferenceRemedyJson, InferenceResponseJson, RemedyFieldJson } from './inference-json.ts';
export { inferenceBoundsText, widestShape, INTERACTIVE_TTFT_SECONDS, INTERACTIVE_TOKEN_SECONDS } from './inference-messages.ts';
export { runInference } from './inference.ts';
export { fewestServingGpus, inferenceFailureText, inferenceRemedy, runInferenceWithRemedy, type FewestServing } from './inference-remedy.ts';
export { ceilFigures } from './ceil-figures.ts';
export { retryInference, type Retry } from './inference-retry.ts';
export { inferenceRemedyText } from './inference-remedy-terms.ts';
export { toMegatronArgs, toNemoYaml } from './export-config.ts';
// The answers as toolkit schemas (what /openapi.json publishes for each endpoint's 200).
export { searchResponseSchema, searchResponseJsonSchema, validateSearchResponse } from './search-response-schema.ts';
export { nodesResponseSchema, nodesResponseJsonSchema, validateNodesResponse } from './nodes-response-schema.ts';
export { scaleResponseSchema, scaleResponseJsonSchema, validateScaleResponse } from './scale-response-schema.ts';
export { inferenceResponseSchema, inferenceResponseJsonSchema, validateInferenceResponse } from './inference-response-schema.ts';
export { searchPlanSchema, planScenarioSchema } from './response-parts.ts';
