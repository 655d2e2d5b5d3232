import { CONTRACT_EXAMPLE, malformedScenarioAnswer, memoryAnswer, memoryAnswerJsonSchema, scenariosJsonSchema } from '@trainplan/protocol';
import { EMULATION_LIMIT_TEXT, emulationRefusal } from './emulation-budget.ts';
import { INVALID_REASON_TEXT } from './invalid-reason.ts';
import { operation, validateScenarioBody, type Scenarios } from './operation.ts';

export const memoryOperation = operation<Scenarios>({
  path: '/v1/memory',
  operationId: 'memory',
  summary: 'Memory per GPU for a scenario, stage by stage, whether or not it fits',
  description: 'Weights, gradients, optimizer state, activations and buffers per GPU on every pipeline stage, '
    + `against the GPU's capacity (the same model as the estimate's memory). An array is answered in order, a malformed scenario `
    + `in it in its slot (ok: false, reason invalid), as /v1/estimate answers it. ${EMULATION_LIMIT_TEXT} ${INVALID_REASON_TEXT}`,
  requestSchema: scenariosJsonSchema,
  responseSchema: { oneOf: [memoryAnswerJsonSchema, { type: 'array', items: memoryAnswerJsonSchema }] },
  example: CONTRACT_EXAMPLE,
  validate: validateScenarioBody,
  run({ array, values, slots }) {
    const refusal = emulationRefusal(values);
    if (refusal) return { overBudget: refusal };
    return { answer: array ? slots.map((s, i) => (s.ok ? memoryAnswer(s.value, i) : malformedScenarioAnswer(s.raw, i))) : memoryAnswer(values[0]!) };
  },
});
