/**
 * The preset catalogue's wire shapes, written with protocol's schema toolkit: one definition gives
 * the JSON Schema in /openapi.json, and the tests validate every served preset against it.
 * Units are in the key names (SI: bytes, bytes per second, FLOP per second, seconds).
 */
import {
  array, boolean, enumOf, integer, jsonSchemaDocument, number, object, optional, string, type Infer,
} from '@trainplan/protocol';

const source = object({
  title: string({ description: 'The datasheet, paper or source file.' }),
  url: optional(string()),
  note: optional(string({ description: 'Which figure of the source is used, or how a value was derived.' })),
}, { description: 'Where the figures come from.' });

/** An extension beside the figures (the contract allows added fields): the line `trainplan presets` lists, made from them. */
const summary = string({
  description: 'The key figures in one line of words, as `trainplan presets` lists them and `trainplan presets --json` carries them (@trainplan/presets preset-summary.ts); the figures themselves are the fields beside it.',
});

const flopsPerSecond = (precision: string) => optional(number({ min: 0, description: `Dense ${precision} peak, in FLOP/s.` }));

export const gpuPresetSchema = object({
  id: string(),
  name: string(),
  generation: enumOf(['volta', 'ampere', 'hopper', 'blackwell']),
  peakFlopsPerSecond: object({
    fp32: flopsPerSecond('FP32 (non-tensor)'), tf32: flopsPerSecond('TF32'), fp16: flopsPerSecond('FP16'),
    bf16: flopsPerSecond('BF16'), fp8: flopsPerSecond('FP8'),
  }, { description: 'Dense tensor-core peaks; a precision the GPU lacks is absent.' }),
  hbmBytes: number({ min: 0, description: "Memory capacity as nvidia-smi reports it (memory.total), in bytes; CUDA lets an allocator have a few hundred MiB less." }),
  hbmBandwidthBytesPerSecond: number({ min: 0 }),
  smCount: integer({ min: 1 }),
  l2Bytes: number({ min: 0 }),
  nvlink: string({ description: 'NVLink generation id.' }),
  nvlinkCount: integer({ min: 0 }),
  nvlinkBandwidthBytesPerSecond: number({ min: 0, description: 'All NVLinks of one GPU, one direction.' }),
  tdpWatts: number({ min: 0 }),
  source,
  summary,
}, { description: 'A GPU preset (cluster.gpu).' });

export const networkPresetSchema = object({
  id: string(),
  name: string(),
  kind: enumOf(['infiniband', 'omnipath', 'roce', 'ethernet', 'nvlink']),
  nicsPerNode: integer({ min: 1, description: 'Compute NICs (rails) per node.' }),
  nicBandwidthBytesPerSecond: number({ min: 0, description: 'Line rate of one NIC, one direction.' }),
  latencySeconds: number({ min: 0, description: 'One-way small-message latency, NIC to NIC.' }),
  inNetworkReduction: boolean({ description: 'InfiniBand SHARP available (NCCL CollNet).' }),
  nvlinkDomainGpus: optional(integer({ min: 1, description: 'GPUs sharing one NVLink fabric (NVL72).' })),
  source,
  summary,
}, { description: 'An inter-node fabric preset (cluster.network).' });

export const systemPresetSchema = object({
  id: string(),
  name: string(),
  gpu: string({ description: 'GPU preset id.' }),
  gpusPerNode: integer({ min: 1 }),
  intraNode: enumOf(['nvswitch', 'nvlink-hybrid-cube-mesh', 'nvlink-full-mesh', 'pcie'], { description: 'How the GPUs of a node meet: NVSwitch, DGX-1\'s NVLink mesh, a full NVLink mesh (quad GH200: 6 links per pair), or PCIe alone (PCIe cards).' }),
  nvlinkSharp: boolean({ description: 'NVSwitch with in-switch reduction (NVLS).' }),
  network: string({ description: 'Network preset id the system ships with.' }),
  source,
  summary,
}, { description: 'A node preset: which GPU, how many, and the fabric between nodes.' });

export const modelPresetSchema = object({
  id: string(),
  name: string(),
  layers: integer({ min: 1 }),
  hiddenSize: integer({ min: 1 }),
  attentionHeads: integer({ min: 1 }),
  kvHeads: integer({ min: 1 }),
  ffnHiddenSize: integer({ min: 1 }),
  vocabSize: integer({ min: 1 }),
  seqLength: integer({ min: 1 }),
  gatedMlp: boolean(),
  tiedEmbeddings: boolean(),
  positionEmbedding: enumOf(['learned', 'rotary', 'alibi']),
  linearBias: boolean(),
  normalization: enumOf(['layernorm', 'rmsnorm']),
  publishedParameters: number({ min: 0, description: 'The parameter count the source states.' }),
  defaultTrainingTokens: optional(number({ min: 0, description: 'Tokens the source trained on, when it says.' })),
  trainedWithDropout: boolean({ description: "Whether it trained with hidden and attention dropout (0.1): a scenario's training.dropout default." }),
  publishedGlobalBatchSize: optional(integer({ min: 1, description: 'The global batch the source trained with at seqLength, in sequences, where it states one: the batch a search or question without one assumes.' })),
  contextWindowTokens: optional(integer({ min: 1, description: 'The longest context the released model is specified for, where longer than seqLength (the pre-training length).' })),
  rotaryBase: optional(number({ min: 0, description: "RoPE's base frequency θ, where not 10,000 (Megatron-LM --rotary-base)." })),
  rotaryPercent: optional(number({ min: 0, max: 1, description: "The fraction of each head's dimensions RoPE rotates, where not all (Megatron-LM --rotary-percent)." })),
  ropeScalingFactor: optional(number({ min: 0, description: "Llama 3.1's RoPE frequency scaling factor (Hugging Face rope_scaling, rope_type llama3)." })),
  mlpActivation: optional(enumOf(['squared-relu'], { description: "The MLP's nonlinearity where neither GeLU nor SwiGLU (gatedMlp): Nemotron-4's squared ReLU." })),
  layerNorm1p: optional(boolean({ description: 'LayerNorm with a zero-centred scale (Megatron-LM --apply-layernorm-1p).' })),
  source,
  summary,
}, { description: 'A model preset (the scenario\'s model).' });

export type GpuPresetJson = Infer<typeof gpuPresetSchema>;
export type NetworkPresetJson = Infer<typeof networkPresetSchema>;
export type SystemPresetJson = Infer<typeof systemPresetSchema>;
export type ModelPresetJson = Infer<typeof modelPresetSchema>;

const list = <T>(schema: import('@trainplan/protocol').Schema<T>, title: string) =>
  jsonSchemaDocument(array(schema, { maxItems: 1000 }), { title });

export const presetListJsonSchemas = {
  gpus: list(gpuPresetSchema, 'GPU presets'),
  systems: list(systemPresetSchema, 'System presets'),
  networks: list(networkPresetSchema, 'Network presets'),
  models: list(modelPresetSchema, 'Model presets'),
} as const;

const modelPresetJsonSchema = jsonSchemaDocument(modelPresetSchema, { title: 'Model preset' });

/** One preset of each kind, for GET /v1/presets/{kind}/{id}. */
export const presetJsonSchemas = {
  gpus: jsonSchemaDocument(gpuPresetSchema, { title: 'GPU preset' }),
  systems: jsonSchemaDocument(systemPresetSchema, { title: 'System preset' }),
  networks: jsonSchemaDocument(networkPresetSchema, { title: 'Network preset' }),
  models: modelPresetJsonSchema,
} as const;

/** GET /v1/presets: the ids of every catalogue. */
const ids = (what: string) => array(string({ minLength: 1, description: `A ${what} preset id.` }), { maxItems: 1000 });
export const presetIndexSchema = object({
  gpus: ids('GPU'), systems: ids('system'), networks: ids('network'), models: ids('model'),
}, { description: 'The preset ids of every catalogue.' });
export const presetIndexJsonSchema = jsonSchemaDocument(presetIndexSchema, { title: 'Preset ids by catalogue' });
