import { CONTRACT_EXAMPLE, malformedScenarioAnswer, memoryAnswer, memoryAnswerJsonSchema, scenariosJsonSchema } from '@trainplan/protocol';
import { asksForEmulation, EMULATION_LIMIT_TEXT, emulationRefusal } from './emulation-budget.ts';
import { INVALID_REASON_TEXT } from './invalid-reason.ts';
import { operation, validateScenarioBody, type Scenarios } from './operation.ts';
import { STAGE_LIMIT_TEXT, stageRefusal } from './stage-budget.ts';

export const memoryOperation = operation<Scenarios>({
  path: '/v1/memory',
  operationId: 'memory',
  summary: 'Memory per GPU for a scenario, stage by stage, whether or not it fits',
  description: 'Weights, gradients, optimizer state, activations and buffers per GPU on every pipeline stage, '
    + `against the GPU's capacity (the same model as the estimate's memory). An array is answered in order, a malformed scenario `
    + `in it in its slot (ok: false, reason invalid), as /v1/estimate answers it. ${STAGE_LIMIT_TEXT} ${EMULATION_LIMIT_TEXT} ${INVALID_REASON_TEXT}`,
  requestSchema: scenariosJsonSchema,
  responseSchema: { oneOf: [memoryAnswerJsonSchema, { type: 'array', items: memoryAnswerJsonSchema }] },
  example: CONTRACT_EXAMPLE,
  validate: validateScenarioBody,
  // As /v1/estimate: a request that emulates takes seconds, off the thread that serves where the runtime has threads.
  slow: asksForEmulation,
  run({ array, values, slots }) {
    const refusal = stageRefusal(values) ?? emulationRefusal(values);
    if (refusal) return { overBudget: refusal };
    return { answer: array ? slots.map((s, i) => (s.ok ? memoryAnswer(s.value, i) : malformedScenarioAnswer(s.raw, i))) : memoryAnswer(values[0]!) };
  },
});
