import {
  array, integer, nodesRequestJsonSchema, nodesResponseJsonSchema, number, object, optional, string, type JsonSchema,
} from '@trainplan/protocol';

/**
 * The JSON Schemas /openapi.json publishes for POST /v1/nodes: protocol's, with what the API adds there
 * (nodes-default-batch.ts). The batch, required by protocol's schema (which the CLI's --input and the widget validate
 * against), may be omitted here for a model preset id; the answer then carries assumedGlobalBatch. Protocol's response
 * schema is open (unknown fields allowed), so the extension is documented here, beside the one endpoint that sends it.
 */

const BATCH_DESCRIPTION = 'Sequences per optimizer step. Optional where model is a preset id: omitted, each cluster size is planned at the '
  + "default batch the CLI (without --global-batch) and the chat bot take there (the model's published batch, else about 4M tokens, "
  + 'or one sequence per 8 GPUs on a large cluster up to 2^24 = 16.8M tokens a step (Llama 3 405B\'s "16M"), rounded so that data-parallel '
  + 'sizes of its GPUs divide it; a size whose rounding moves it more than 10% takes the batch asked with no size, and each size is also planned '
  + 'at the multiple of that rounding\'s unit on the other side of the aim, at most 25% under or 10% over it, the faster taken; with nodes, that '
  + 'size at the same batches, so that a deadline answering N nodes and nodes N agree, and at its own default where none of them runs), and the answer says so '
  + 'in assumedGlobalBatch. Required with a model given by its shape, or an id no preset has: the default is read from the preset.';

const TRAINING_TOKENS_DESCRIPTION = "The token budget where an estimate's scenario carries it: read as tokens (give one of the two, "
  + 'or both the same; two different budgets are refused).';

/**
 * Protocol's request schema, less the batch's (and training's) requiredness, which a model object keeps (if/then), and
 * with the token budget taken at training.tokens too (anyOf).
 */
function requestSchema(schema: JsonSchema): JsonSchema {
  const training = schema.properties?.training;
  // A programmer error (a renamed property), caught when the operations load.
  if (training?.properties?.globalBatchSize === undefined) throw new Error('the nodes request schema has no training.globalBatchSize');
  const tokens = schema.properties?.tokens;
  if (tokens === undefined) throw new Error('the nodes request schema has no tokens');
  const { required: _required, ...optionalTraining } = training;
  const trainingRequired = (training.required ?? []).filter((name) => name !== 'globalBatchSize');
  return {
    ...schema,
    properties: {
      ...schema.properties,
      training: {
        ...optionalTraining,
        properties: {
          ...training.properties,
          globalBatchSize: { ...training.properties.globalBatchSize, description: BATCH_DESCRIPTION },
          tokens: { ...tokens, description: TRAINING_TOKENS_DESCRIPTION },
        },
        ...(trainingRequired.length > 0 && { required: trainingRequired }),
      },
    },
    required: (schema.required ?? []).filter((name) => name !== 'training' && name !== 'tokens'),
    // A model given by its shape: the batch is required, as protocol's schema requires it of every request.
    if: { properties: { model: { type: 'object' } }, required: ['model'] },
    then: { required: ['training'], properties: { training: { required: ['globalBatchSize'] } } },
    // The token budget, at the top level or where an estimate's scenario carries it (hoistTrainingTokens).
    allOf: [...(schema.allOf ?? []), { anyOf: [{ required: ['tokens'] }, { required: ['training'], properties: { training: { required: ['tokens'] } } }] }],
  };
}

const assumedGlobalBatch = object({
  sequences: integer({ min: 1, description: "The global batch, in sequences, the answer's cluster size (or the closest's) was planned at; where the answer names no size, the batch asked with no size." }),
  nodes: optional(integer({ min: 1, description: 'The cluster size that batch is for; absent where it is the batch asked with no size.' })),
  note: string({ description: 'Why the batch is that size, for humans (the chat bot\'s and the CLI\'s wording).' }),
}, {
  expected: 'an assumed global batch',
  description: 'Extension, present only when the request omitted training.globalBatchSize: the default batch the sizes were planned at.',
}).toJsonSchema();

/** nodes-extensions.ts: the uptime every answer that planned carries here (protocol's runNodes echoes only one given). */
const uptime = number({
  greaterThan: 0, max: 1,
  description: "Extension, on every answer that planned: the share of wall-clock time spent training that days, seconds, GPU-hours and "
    + "costs assume (the request's uptime, else 1: no restarts or failures). The configuration, its estimate, days and gpuHours included, stays the ideal, at full uptime: the answer's own days and gpuHours are the wall-clock ones.",
}).toJsonSchema();

/** nodes-extensions.ts: advice about the request, where the batch given is implausible as sequences. */
const warnings = array(string({ description: 'Advice for humans.' }), {
  description: 'Extension, where training.globalBatchSize was given and the answer\'s plan takes more than 100M tokens a step '
    + '(published runs step 3.2M to 16M tokens): the warning that it counts sequences, with the sequences the same count would be as tokens.',
}).toJsonSchema();

/** Protocol's response schema with the API's extensions beside each branch's fields (ok true and ok false). */
function responseSchema(schema: JsonSchema): JsonSchema {
  if (schema.oneOf === undefined) throw new Error('the nodes response schema is no oneOf');
  return {
    ...schema,
    oneOf: schema.oneOf.map((branch) => ({ ...branch, properties: { ...branch.properties, assumedGlobalBatch, uptime, warnings } })),
  };
}

export const nodesHttpRequestJsonSchema: JsonSchema = requestSchema(nodesRequestJsonSchema);
export const nodesHttpResponseJsonSchema: JsonSchema = responseSchema(nodesResponseJsonSchema);
