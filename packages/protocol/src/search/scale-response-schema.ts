/** The answer to POST /v1/scale (`ScaleResponseJson` in scale.ts) as one toolkit schema. */
import { array, union } from '../schema/compose.ts';
import { object, optional } from '../schema/object.ts';
import { enumOf, literal, number } from '../schema/scalars.ts';
import type { JsonSchema, Schema } from '../schema/types.ts';
import { jsonSchemaDocument, validate, type Validation } from '../schema/validate.ts';
import { count, issuesSchema, label, message, open, planScenarioSchema, seconds } from './response-parts.ts';
import type { ScaleResponseJson } from './scale.ts';

/** The request lists at most 64 sizes (scaleRequestSchema), one point each. */
const MAX_POINTS = 64;
/** One row per (tensor, pipeline) pair that divides the GPUs of the first size: a few dozen in practice. */
const MAX_TRADE_OFF_ROWS = 4096;

const tokensPerSecondPerGpu = number({ min: 0, description: 'Throughput per GPU, in tokens per second.' });
const mfu = number({ min: 0, description: 'Model FLOPs utilization, a ratio.' });
const reason = message('Why there is no plan at this point.');

const point = object({
  nodes: count('Nodes.'),
  gpus: count('GPUs.'),
  globalBatchSize: count('Sequences per step at this size (grows with the nodes under weak scaling). Not a planned batch where there is no label: '
    + 'under weak scaling, a size that cannot keep the batch per node has the nearest whole number of sequences here, and its reason says so.'),
  label: optional(label),
  scenario: optional(planScenarioSchema),
  stepTimeSeconds: optional(seconds('Step time of the best plan')),
  tokensPerSecond: optional(number({ min: 0, description: 'Throughput of the cluster, in tokens per second.' })),
  tokensPerSecondPerGpu: optional(tokensPerSecondPerGpu),
  modelTflopsPerGpu: optional(number({ min: 0, description: 'Model FLOPs per GPU, in TFLOP/s.' })),
  mfu: optional(mfu),
  efficiency: optional(number({ min: 0, description: "Scaling efficiency: throughput per GPU against that of the smallest size that runs a plan, whatever the order the sizes are listed in (1 is perfect scaling), a ratio." })),
  reason: optional(reason),
  warnings: optional(array(message('A caveat.'), { maxItems: 32, description: "The planner's warnings on this size's plan (e.g. a pipeline bubble that dominates, tensor parallelism across nodes); absent when none." })),
}, { ...open, description: 'One cluster size: its best plan, or the reason there is none.' });

const tradeOffRow = object({
  tensor: count('Tensor-parallel degree.'),
  pipeline: count('Pipeline-parallel degree.'),
  label: optional(label),
  stepTimeSeconds: optional(seconds('Step time of the best plan with these degrees')),
  tokensPerSecondPerGpu: optional(tokensPerSecondPerGpu),
  mfu: optional(mfu),
  reason: optional(reason),
}, { ...open, description: 'One tensor × pipeline choice at the first size.' });

const mode = enumOf(['strong', 'weak'], { description: 'Strong (fixed global batch) or weak (batch grows with the nodes) scaling.' });
const points = array(point, { minItems: 1, maxItems: MAX_POINTS, description: 'One point per size, in the order asked.' });
const tradeOff = optional(array(tradeOffRow, { maxItems: MAX_TRADE_OFF_ROWS, description: 'With tradeOff: true, the TP × PP table at the first size.' }));

const scaleOk = object({
  ok: literal(true),
  mode,
  points,
  efficiencyBaselineNodes: count('The size whose throughput per GPU the efficiencies are measured against (efficiency 1): the smallest that runs a plan, whatever the order the sizes are listed in.'),
  tradeOff,
}, { ...open, expected: 'a scale answer', description: 'Step time, throughput per GPU and efficiency against node count.' });

// The failures are told apart by their reason (a constant each), as the answers are by ok.
const scaleFail = object({
  ok: literal(false),
  reason: literal('invalid', { description: 'Why there is no answer: the request is invalid.' }),
  message: message('The reason, for humans.'),
  issues: issuesSchema,
}, { ...open, expected: 'a scale failure', description: 'No answer: the reason and each offending field.' });

const scaleNoPlan = object({
  ok: literal(false),
  reason: literal('no-feasible-configuration', { description: 'Why there is no answer: no size asked runs a plan.' }),
  message: message('The reason, for humans: each size and why nothing runs on it.'),
  mode,
  points,
  tradeOff,
}, {
  ...open, expected: 'a scale answer where no size runs',
  description: 'No size asked runs a plan: the sweep as an ok answer carries it, each point with its reason.',
});

/** The annotation checks at compile time that the validated type is scale.ts's ScaleResponseJson. */
export const scaleResponseSchema: Schema<ScaleResponseJson> = union([scaleOk, scaleFail, scaleNoPlan], {
  expected: 'a scale answer with ok true or ok false',
});

export const scaleResponseJsonSchema: JsonSchema = /* @__PURE__ */ jsonSchemaDocument(scaleResponseSchema, {
  id: 'https://trainplan.dev/schemas/scale-response.json', title: 'Scale response',
});

/** Validates a scale answer read from the API; unknown (newer) fields are dropped. Never throws. */
export function validateScaleResponse(value: unknown): Validation<ScaleResponseJson> {
  return validate(scaleResponseSchema, value);
}
