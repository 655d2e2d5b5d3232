import { CONTRACT_EXAMPLE, scenariosJsonSchema, validateScenarios, type ResolvedScenarioInput } from '@trainplan/protocol';
import { memoryAnswer, memoryAnswerJsonSchema } from '../memory/memory-answer.ts';
import { operation } from './operation.ts';

type Scenarios = { array: boolean; values: ResolvedScenarioInput[] };

export const memoryOperation = operation<Scenarios>({
  path: '/v1/memory',
  operationId: 'memory',
  summary: 'Memory per GPU for a scenario, stage by stage, whether or not it fits',
  description: 'Weights, gradients, optimizer state, activations and buffers per GPU on every pipeline stage, '
    + 'against the GPU\'s capacity (the same model as the estimate\'s memory).',
  requestSchema: scenariosJsonSchema,
  responseSchema: { oneOf: [memoryAnswerJsonSchema, { type: 'array', items: memoryAnswerJsonSchema }] },
  example: CONTRACT_EXAMPLE,
  validate(body) {
    const v = validateScenarios(body);
    return v.ok ? { ok: true, value: { array: v.array, values: v.values } } : { ok: false, issues: v.issues };
  },
  run({ array, values }) {
    return { answer: array ? values.map((s, i) => memoryAnswer(s, i)) : memoryAnswer(values[0]!) };
  },
});
