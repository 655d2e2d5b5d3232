/**
 * POST /v1/memory: memory per GPU for a scenario, stage by stage, whether or not it fits. An
 * estimate that does not fit is `ok: false, reason: 'out-of-memory'` with two totals; this answer
 * keeps the whole breakdown, which is what one needs to make it fit. Here, beside the estimate, so the
 * API and the CLI say the same breakdown.
 */
import { estimatePlan } from '@trainplan/planner';
import { array } from './schema/compose.ts';
import { object, optional } from './schema/object.ts';
import { boolean, integer, number } from './schema/scalars.ts';
import type { JsonSchema } from './schema/types.ts';
import { jsonSchemaDocument } from './schema/validate.ts';
import { estimateJsonSchema, memoryPartFields, otherPartsSchema } from './estimate-schema.ts';
import { estimateResolvedScenario, toEstimateJson } from './run.ts';
import { resolveScenario } from './resolve.ts';
import type { ResolvedScenarioInput } from './resolved.ts';
import type { EstimateInfeasible, EstimateOk, OtherMemoryPartsJson } from './wire.ts';

const bytes = (description: string) => number({ min: 0, description: `${description}, in bytes.` });

const stageMemory = object({
  stage: integer({ min: 0, description: 'Pipeline stage, from 0.' }),
  layers: integer({ min: 0, description: 'Transformer layers on this stage.' }),
  // The estimate's parts, each in its place; the optimizer's worded as this answer always has (a key replaced keeps its place).
  ...memoryPartFields,
  optimizerBytes: bytes('Optimizer state per GPU'),
  // Optional to a reader, as in the estimate's memory: answers before it lack it.
  otherParts: optional(otherPartsSchema),
});

// The new fields, from the toolkit; `memory` and `resolved` are the estimate schema's own (below).
const memoryAnswerCore = object({
  fits: boolean({ description: 'Whether the most loaded stage fits in the GPU.' }),
  capacityBytes: bytes("The GPU's memory capacity"),
  parameters: number({ min: 0, description: 'Model parameters, a count.' }),
  stages: array(stageMemory, { description: 'Memory per GPU on every pipeline stage.' }),
}, { description: 'Memory per GPU for a scenario, whether or not it fits.' });

export interface StageMemoryJson {
  stage: number; layers: number; weightsBytes: number; gradientsBytes: number; optimizerBytes: number;
  activationsBytes: number; otherBytes: number; otherParts: OtherMemoryPartsJson; totalBytes: number;
}
export interface MemoryOk {
  ok: true;
  fits: boolean;
  capacityBytes: number;
  parameters: number;
  /** The most loaded stage, in the estimate's shape. */
  memory: EstimateOk['memory'];
  stages: StageMemoryJson[];
  resolved: EstimateOk['resolved'];
}
export type MemoryAnswer = MemoryOk | EstimateInfeasible;

/** One validated scenario → its memory (never throws for anything a client can send). */
export function memoryAnswer(s: ResolvedScenarioInput, index?: number): MemoryAnswer {
  const resolved = resolveScenario(s);
  const result = resolved.ok ? estimatePlan(resolved.value.plan) : undefined;
  // An out-of-memory plan still carries its estimate; anything else that has none (invalid,
  // indivisible) is the very answer POST /v1/estimate gives, so the two endpoints cannot disagree.
  const estimate = result === undefined ? undefined : result.ok ? result : result.estimate;
  if (!resolved.ok || estimate === undefined) return estimateResolvedScenario(s, index) as EstimateInfeasible;
  const json = toEstimateJson(resolved.value, estimate);
  return {
    ok: true,
    fits: estimate.memory.fits,
    capacityBytes: estimate.memory.capacityBytes,
    parameters: estimate.parameters,
    memory: json.memory,
    stages: estimate.stages.map(({ memory: m, layers }) => ({
      stage: m.stage, layers, weightsBytes: m.weightsBytes, gradientsBytes: m.gradientsBytes, optimizerBytes: m.optimizerBytes,
      activationsBytes: m.activationsBytes, otherBytes: m.otherBytes, otherParts: { ...m.otherParts }, totalBytes: m.totalBytes,
    })),
    resolved: json.resolved,
  };
}

const [estimateOkJson, estimateInfeasibleJson] = estimateJsonSchema.oneOf ?? [];

/** The answer's JSON Schema: the toolkit object above plus the estimate's own memory and resolved. */
export const memoryAnswerJsonSchema: JsonSchema = (() => {
  const core = jsonSchemaDocument(memoryAnswerCore, { title: 'Memory answer' });
  const ok: JsonSchema = {
    ...core,
    properties: {
      ok: { const: true },
      ...core.properties,
      memory: estimateOkJson?.properties?.memory ?? {},
      resolved: estimateOkJson?.properties?.resolved ?? {},
    },
    required: ['ok', ...(core.required ?? []), 'memory', 'resolved'],
  };
  delete ok.$schema;
  return { title: 'Memory answer', oneOf: [ok, estimateInfeasibleJson ?? {}] };
})();
