import {
  CONTRACT_EXAMPLE, estimateJsonSchema, estimateResolvedScenario, scenariosJsonSchema, validateScenarios,
  type ResolvedScenarioInput,
} from '@trainplan/protocol';
import { operation } from './operation.ts';

type Scenarios = { array: boolean; values: ResolvedScenarioInput[] };

export const estimateOperation = operation<Scenarios>({
  path: '/v1/estimate',
  operationId: 'estimate',
  summary: 'Estimate a training run (one scenario or an array)',
  description: 'The scenario contract: step time and its breakdown, throughput, MFU/HFU and memory per GPU. '
    + "An infeasible scenario is a 200 answer with ok: false and the reason; an array is answered in order.",
  requestSchema: scenariosJsonSchema,
  responseSchema: { oneOf: [estimateJsonSchema, { type: 'array', items: estimateJsonSchema }] },
  example: CONTRACT_EXAMPLE,
  validate(body) {
    const v = validateScenarios(body);
    return v.ok ? { ok: true, value: { array: v.array, values: v.values } } : { ok: false, issues: v.issues };
  },
  run({ array, values }) {
    return { answer: array ? values.map((s, i) => estimateResolvedScenario(s, i)) : estimateResolvedScenario(values[0]!) };
  },
});
