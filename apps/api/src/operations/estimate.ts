import { CONTRACT_EXAMPLE, estimateJsonSchema, estimateResolvedScenario, malformedScenarioAnswer, scenariosJsonSchema } from '@trainplan/protocol';
import { MAX_BODY_BYTES } from '../http/read-body.ts';
import { asksForEmulation, EMULATION_LIMIT_TEXT, emulationRefusal } from './emulation-budget.ts';
import { INVALID_REASON_TEXT } from './invalid-reason.ts';
import { operation, validateScenarioBody, type Scenarios } from './operation.ts';

export const estimateOperation = operation<Scenarios>({
  path: '/v1/estimate',
  operationId: 'estimate',
  summary: 'Estimate a training run (one scenario or an array)',
  description: 'The scenario contract: step time and its breakdown, throughput, MFU/HFU and memory per GPU. '
    + 'Omitted parallelism fields take tensor 1, pipeline 1, context 1, virtualStages 1, recompute "none", sequenceParallel false and '
    + 'distributedOptimizer false, not the values of the example. The response schema requires only the contract\'s fields; every '
    + 'answer of this API also carries trainplan\'s extensions (the fields described "Extension"), which a client of another API '
    + 'may find missing. '
    + "An infeasible scenario is a 200 answer with ok: false and the reason; an array is answered in order, a malformed scenario in it "
    + "in its slot (ok: false, reason invalid, its fields under [i]) beside the others' answers; a single malformed scenario is a 400. "
    + `An array holds at most 1,024 scenarios and, like every request body, at most ${MAX_BODY_BYTES / 1024} KiB (a larger body is a 413): `
    + `about 600 scenarios that state only model, cluster and batch. ${EMULATION_LIMIT_TEXT} ${INVALID_REASON_TEXT}`,
  requestSchema: scenariosJsonSchema,
  responseSchema: { oneOf: [estimateJsonSchema, { type: 'array', items: estimateJsonSchema }] },
  example: CONTRACT_EXAMPLE,
  validate: validateScenarioBody,
  // The closed form's estimates take µs and stay on the thread that serves; one that emulates takes seconds (emulation-budget.ts).
  slow: asksForEmulation,
  run({ array, values, slots }) {
    const refusal = emulationRefusal(values);
    if (refusal) return { overBudget: refusal };
    return { answer: array ? slots.map((s, i) => (s.ok ? estimateResolvedScenario(s.value, i) : malformedScenarioAnswer(s.raw, i))) : estimateResolvedScenario(values[0]!) };
  },
});
