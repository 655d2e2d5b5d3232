/** @trainplan/protocol: the wire shapes of the contract, their validators and their JSON Schemas. */
export type {
  PrecisionId, RecomputeMode, ScheduleId, ModelObjectInput, ScenarioInput, MemoryJson, OtherMemoryPartsJson, BreakdownJson, ContractBreakdownJson,
  ResolvedJson, ResolvedModelShape, ReceivedResolvedJson, ContractEstimateOk, EstimateOk, ReceivedEstimateOk, EstimateInfeasible, ReceivedEstimateInfeasible,
  EstimateJson, ReceivedEstimateJson,
  InfeasibleReason, FieldIssue,
} from './wire.ts';
export type { ResolvedScenarioInput, ResolvedModelObject, ResolvedParallelism, ResolvedTraining } from './resolved.ts';
export {
  MAX_SCENARIOS, NO_SCENARIOS, modelSchema, scenarioSchema, scenariosSchema, scenarioJsonSchema, scenariosJsonSchema,
  validateScenario, validateScenarios,
} from './scenario-schema.ts';
export type { ScenarioValidation, ScenariosValidation } from './scenario-schema.ts';
export { MAX_CLUSTER_GPUS, MAX_CLUSTER_NODES, MAX_GPUS_PER_NODE, mostClusterGpus } from './cluster-caps.ts';
export {
  estimateSchema, estimateOkSchema, fullEstimateOkSchema, fieldIssueSchema, estimateJsonSchema, validateEstimate,
} from './estimate-schema.ts';
export { formatIssue } from './problem.ts';
export {
  INVALID_REQUEST_PROBLEM_TYPE, INVALID_SCENARIO_PROBLEM_TYPE, OVER_BUDGET_PROBLEM_TYPE, PROBLEM_CONTENT_TYPE, PROBLEM_TYPE_BASE, PROBLEM_TYPES,
  PROBLEM_TYPE_NAMES, problemDetails, problemTypeUri,
} from './problem-document.ts';
export type { ProblemDetails, ProblemTypeDoc, ProblemTypeName } from './problem-document.ts';

// The schema toolkit, for the other wire shapes the apps define (query strings, bot commands).
export {
  string, integer, number, boolean, enumOf, literal, DEFAULT_MAX_STRING_LENGTH,
} from './schema/scalars.ts';
export type { StringOptions, RangeOptions, NumberOptions } from './schema/scalars.ts';
export { object, optional, withDefault } from './schema/object.ts';
export type { ObjectOptions, ObjectOutput } from './schema/object.ts';
export { array, union, map, DEFAULT_MAX_ITEMS } from './schema/compose.ts';
export type { ArrayOptions } from './schema/compose.ts';
export { validate, jsonSchemaDocument, JSON_SCHEMA_DIALECT } from './schema/validate.ts';
export type { Issue, Validation, ValidateOptions } from './schema/validate.ts';
export { formatPath, defaultLimits } from './schema/context.ts';
export type {
  Schema, Infer, JsonSchema, JsonValue, Path, PathSegment, Checked, Context, Limits, Presence, BaseOptions,
} from './schema/types.ts';
export type { ResolvedPlan } from './resolve.ts';
export { resolveScenario, stateShardingOf } from './resolve.ts';
export { runEstimate, estimateResolvedScenario, malformedScenarioAnswer, toEstimateJson } from './run.ts';
// An estimate's resolved block fed back as the scenario that gives the same estimate.
export { scenarioOfResolved } from './resolved-scenario.ts';
export { pipelineSplitFlags, pipelineSplitLabel } from './pipeline-split-flags.ts';
// A preset id typed in another case (the CLI's flags), taken as the id it spells.
export { didYouMean, presetIdAnyCase } from './preset-ids.ts';
export type { PresetKind } from './preset-ids.ts';
// POST /v1/memory: memory per GPU stage by stage, whether or not it fits (the API's answer, the CLI's out-of-memory breakdown).
export { memoryAnswer, memoryAnswerJsonSchema } from './memory-answer.ts';
// The parts of "other" memory by name, for the CLI's memory report and the chat bot's memory by part.
export { OTHER_PART_NAMES, otherPartsLargestFirst, type OtherPart } from './other-parts-words.ts';
export type { MemoryAnswer, MemoryOk, StageMemoryJson } from './memory-answer.ts';
export { CONTRACT_EXAMPLE } from './examples.ts';
// Configuration search, capacity planning, scaling and inference.
export * from './search/index.ts';

// POST /v1/collective: one collective, closed form and optionally emulated.
export {
  collectiveRequestSchema, collectiveRequestJsonSchema, validateCollectiveRequest,
  COLLECTIVE_OPS, COLLECTIVE_ALGORITHMS, MAX_COLLECTIVE_BYTES, MAX_COLLECTIVE_SIZES, MAX_COLLECTIVE_NODES,
} from './collective/collective-schema.ts';
export type { CollectiveRequest, CollectiveValidation } from './collective/collective-schema.ts';
export type {
  CollectiveResponseJson, CollectiveOkJson, CollectiveErrorJson, CollectiveRowJson, EmulatedRowJson, LinkUtilisationJson,
} from './collective/collective-response.ts';
export { runCollective } from './collective/run-collective.ts';
export { defaultSweepBytes } from './collective/sweep.ts';
export { MAX_EMULATED_NODE_SIZES } from './collective/emulation-limit.ts';
export {
  collectiveResponseSchema, collectiveResponseJsonSchema, validateCollectiveResponse,
} from './collective/collective-response-schema.ts';
// The defaults a scenario takes from its GPU (resolve.ts), for callers that state them (the chat answers).
export { defaultPrecision, runsFlashAttention } from '@trainplan/planner';
export { checkedText, daysText, defaultMaxContext, nodesText } from '@trainplan/search';
// The time–cost curve's sizes, for the chat bot's ladder of them (packages/ask cluster-ladder.ts).
export { FRONTIER_OCTAVE_STEPS, FRONTIER_SCAN_WINDOW, MAX_NODES } from '@trainplan/search';
// Where a JSON text breaks, for the CLI's --input and the API's request bodies.
export { describeJsonError } from './json-error.ts';
export { editDistance, nearest, nearestAll } from './nearest.ts';
export { fp8Peak, peakShareText, type Fp8Peak } from './mfu-peak.ts';
