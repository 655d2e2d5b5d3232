import { CONTRACT_EXAMPLE } from '../../src/index.ts';
/** Scenario fixtures shared by the validator tests and the JSON Schema agreement tests. */

/** The example of ../shared/docs/scenario-contract.md, verbatim. */
export const contractExample = CONTRACT_EXAMPLE;

/** The least a scenario may say. */
export const minimalScenario = { model: 'llama3-8b', cluster: { gpu: 'h100-sxm', nodes: 2 }, training: { globalBatchSize: 512 } };

/** A model given by its shape (GPT-3 175B, Brown et al. 2020, Table 2.1). */
export const gpt3Shape = { layers: 96, hiddenSize: 12288, attentionHeads: 96, vocabSize: 51200, seqLength: 2048 };

type Json = Record<string, unknown>;
type Editable = Json & { cluster: Json; training: Json };
/** A fresh minimal scenario, changed by `edit`; each row gets its own copy. */
export const scenarioWith = (edit: (s: Editable) => void): unknown => {
  const s: Editable = structuredClone(minimalScenario);
  edit(s);
  return s;
};
const withModel = (fields: Json) => scenarioWith((s) => { s.model = { ...gpt3Shape, ...fields }; });
const withParallelism = (fields: Json) => scenarioWith((s) => { s.parallelism = fields; });

/**
 * Refused by validation but not by the JSON Schema, which cannot state a divisibility between two
 * fields (the model object's description states it): [what is wrong, input, path, message fragment].
 */
export const crossFieldBadScenarios: [string, unknown, string, string][] = [
  ['a hidden size the heads do not divide (Megatron: hidden_size % num_attention_heads)', withModel({ hiddenSize: 12289 }), 'model.hiddenSize', 'must be a multiple of attentionHeads (96)'],
  ['kvHeads that do not divide the heads (Megatron: num_attention_heads % num_query_groups)', withModel({ kvHeads: 7 }), 'model.kvHeads', 'must divide attentionHeads (96)'],
  ['more kvHeads than heads', withModel({ kvHeads: 192 }), 'model.kvHeads', 'must divide attentionHeads (96)'],
];

/** [what is wrong, input, the one path reported, a fragment of its message]. */
export const badScenarios: [string, unknown, string, string][] = [
  ['a scenario that is null', null, '', 'expected a scenario object, got null'],
  ['a scenario that is a string', 'gpt3-175b', '', 'got "gpt3-175b"'],
  ['an unknown top-level field', scenarioWith((s) => { s.modle = 'x'; }), 'modle', 'unknown field (did you mean model?)'],
  ['a "constructor" key, which objects inherit but scenarios lack', JSON.parse('{"model":"m","cluster":{"gpu":"g","nodes":1},"training":{"globalBatchSize":1},"constructor":1}'), 'constructor', 'unknown field'],
  ['a "__proto__" key from JSON.parse', JSON.parse('{"model":"m","cluster":{"gpu":"g","nodes":1},"training":{"globalBatchSize":1},"__proto__":{}}'), '__proto__', 'unknown field'],
  ['a model that is a number', scenarioWith((s) => { s.model = 175; }), 'model', 'expected a model preset id (a non-empty string) or a model object, got 175'],
  ['an empty model id', scenarioWith((s) => { s.model = ''; }), 'model', 'non-empty string'],
  ['a model id of 100 KB', scenarioWith((s) => { s.model = 'x'.repeat(100_000); }), 'model', 'a string of 100,000 characters'],
  ['a model object without layers', scenarioWith((s) => { const { layers: _, ...rest } = gpt3Shape; s.model = rest; }), 'model.layers', 'missing required field'],
  ['zero layers', withModel({ layers: 0 }), 'model.layers', 'expected an integer ≥ 1, got 0'],
  ['more layers than the sane maximum', withModel({ layers: 1001 }), 'model.layers', 'expected an integer ≤ 1000, got 1001'],
  ['a fractional hidden size', withModel({ hiddenSize: 1.5 }), 'model.hiddenSize', 'got 1.5'],
  ['attention heads as a numeric string', withModel({ attentionHeads: '96' }), 'model.attentionHeads', 'expected an integer from 1 to 100,000, got "96"'],
  ['a NaN vocabulary size', withModel({ vocabSize: NaN }), 'model.vocabSize', 'got NaN'],
  ['an infinite sequence length', withModel({ seqLength: Infinity }), 'model.seqLength', 'got Infinity'],
  ['a negative kvHeads', withModel({ kvHeads: -8 }), 'model.kvHeads', 'expected an integer ≥ 1, got -8'],
  ['gatedMlp as "yes"', withModel({ gatedMlp: 'yes' }), 'model.gatedMlp', 'expected true or false, got "yes"'],
  ['an unknown position embedding', withModel({ positionEmbedding: 'sinusoidal' }), 'model.positionEmbedding', 'expected one of learned, rotary, alibi'],
  ['an unknown model field', withModel({ numLayers: 96 }), 'model.numLayers', 'unknown field'],
  ['no cluster', scenarioWith((s) => { Reflect.deleteProperty(s, 'cluster'); }), 'cluster', 'missing required field: expected a cluster object'],
  ['a cluster that is an array', scenarioWith((s) => { Object.assign(s, { cluster: [1, 2] }); }), 'cluster', 'got an array of 2 items'],
  ['no cluster.gpu', scenarioWith((s) => { delete s.cluster.gpu; }), 'cluster.gpu', 'missing required field'],
  ['a gpu that is a number', scenarioWith((s) => { s.cluster.gpu = 100; }), 'cluster.gpu', 'got 100'],
  ['both nodes and gpus', scenarioWith((s) => { s.cluster.gpus = 16; }), 'cluster.nodes', 'give either cluster.nodes or cluster.gpus, not both'],
  ['neither nodes nor gpus', scenarioWith((s) => { delete s.cluster.nodes; }), 'cluster.nodes', 'give either cluster.nodes or cluster.gpus, got neither'],
  ['nodes as a numeric string', scenarioWith((s) => { s.cluster.nodes = '2'; }), 'cluster.nodes', 'got "2"'],
  ['zero GPUs per node', scenarioWith((s) => { s.cluster.gpusPerNode = 0; }), 'cluster.gpusPerNode', 'expected an integer ≥ 1, got 0'],
  ['training that is null', scenarioWith((s) => { Object.assign(s, { training: null }); }), 'training', 'expected a training object, got null'],
  ['no global batch size', scenarioWith((s) => { s.training = {}; }), 'training.globalBatchSize', 'missing required field'],
  ['a fractional global batch size', scenarioWith((s) => { s.training.globalBatchSize = 0.5; }), 'training.globalBatchSize', 'got 0.5'],
  ['a negative micro-batch size', scenarioWith((s) => { s.training.microBatchSize = -1; }), 'training.microBatchSize', '≥ 1, got -1'],
  ['precision fp4', scenarioWith((s) => { s.training.precision = 'fp4'; }), 'training.precision', 'expected one of fp16, bf16, fp8, got "fp4"'],
  ['a token budget of zero', scenarioWith((s) => { s.training.tokens = 0; }), 'training.tokens', 'expected a number > 0, got 0'],
  ['a token budget as a string', scenarioWith((s) => { s.training.tokens = '300B'; }), 'training.tokens', 'got "300B"'],
  ['an unknown attention kernel', scenarioWith((s) => { s.training.attentionKernel = 'fused'; }), 'training.attentionKernel', 'expected one of flash, unfused, got "fused"'],
  ['dropout as 0.1', scenarioWith((s) => { s.training.dropout = 0.1; }), 'training.dropout', 'expected true or false, got 0.1'],
  ['parallelism that is a string', scenarioWith((s) => { s.parallelism = 'tp8'; }), 'parallelism', 'expected a parallelism object, got "tp8"'],
  ['a tensor degree of zero', withParallelism({ tensor: 0 }), 'parallelism.tensor', 'expected an integer ≥ 1, got 0'],
  ['a misspelt tensor', withParallelism({ tensr: 8 }), 'parallelism.tensr', 'unknown field (did you mean tensor?)'],
  ['a pipeline degree of -Infinity', withParallelism({ pipeline: -Infinity }), 'parallelism.pipeline', 'got -Infinity'],
  ['zeroStage 5', withParallelism({ zeroStage: 5 }), 'parallelism.zeroStage', 'expected one of 0, 1, 2, 3, got 5'],
  ['zeroStage with distributedOptimizer true', withParallelism({ zeroStage: 1, distributedOptimizer: true }), 'parallelism.zeroStage', 'not both'],
  ['recompute "partial"', withParallelism({ recompute: 'partial' }), 'parallelism.recompute', 'expected one of none, selective, full, got "partial"'],
  ['sequenceParallel as 1', withParallelism({ sequenceParallel: 1 }), 'parallelism.sequenceParallel', 'expected true or false, got 1'],
  ['an interleaved schedule with one virtual stage', withParallelism({ schedule: 'interleaved' }), 'parallelism.schedule', 'virtualStages > 1'],
  ['1F1B with virtual stages (the interleaved schedule\'s chunks)', withParallelism({ pipeline: 8, virtualStages: 2, schedule: '1f1b' }), 'parallelism.schedule', 'needs virtualStages 1, got 2'],
  ['GPipe with virtual stages', withParallelism({ pipeline: 8, virtualStages: 4, schedule: 'gpipe' }), 'parallelism.schedule', 'needs virtualStages 1, got 4'],
  ['an unknown schedule', withParallelism({ schedule: 'zero-bubble' }), 'parallelism.schedule', 'expected one of 1f1b, interleaved, gpipe'],
  ['zero recompute layers', withParallelism({ recompute: 'full', recomputeLayers: 0 }), 'parallelism.recomputeLayers', '≥ 1, got 0'],
];

/** Valid scenarios beyond the contract example and the minimal one. */
export const goodScenarios: [string, unknown][] = [
  ['the contract example', contractExample],
  ['the minimal scenario', minimalScenario],
  ['a model given by its shape', scenarioWith((s) => { s.model = { ...gpt3Shape, kvHeads: 8, gatedMlp: true, normalization: 'rmsnorm' }; })],
  ['a cluster given by its GPU count', scenarioWith((s) => { s.cluster = { gpu: 'h100-sxm', gpus: 1024, network: 'ndr-ib-8x' }; })],
  ['a token budget', scenarioWith((s) => { s.training.tokens = 3e11; })],
  ['Megatron 2021 training: fp16, dropout, unfused attention', scenarioWith((s) => { s.training = { globalBatchSize: 1536, precision: 'fp16', dropout: true, attentionKernel: 'unfused' }; })],
  ['an interleaved schedule with 4 virtual stages', withParallelism({ pipeline: 8, virtualStages: 4, schedule: 'interleaved' })],
  ['ZeRO stage 0 with distributedOptimizer false', withParallelism({ zeroStage: 0, distributedOptimizer: false })],
  ['every parallelism field', withParallelism({
    tensor: 8, pipeline: 4, data: 2, virtualStages: 2, context: 2, sequenceParallel: true, recompute: 'full',
    distributedOptimizer: true, schedule: 'interleaved', scatterGather: true, overlapGradReduce: true, recomputeLayers: 1,
    overlapTensorParallelComm: true, overlapPipelineComm: true,
  })],
];
