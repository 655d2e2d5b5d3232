import { linearGemmShapes, type GemmShape } from '@trainplan/planner';
import { stageParameters, type ModelShape } from '@trainplan/model';
import { modelById } from '@trainplan/presets';

/**
 * The kernels measured on a real GPU (kernels/measure.py) to check the planner's kernel model (packages/planner/src/
 * kernel-time.ts): the linear GEMMs of published training plans, exactly as layer-time.ts shapes them, plus sweeps
 * that isolate one effect each (size, wave quantisation, FP8), flash attention, element-wise kernels and launch cost.
 * `npm run kernel-cases` writes them to kernels/cases.json, which the device script reads: the planner's shapes stay
 * defined in one place, TypeScript.
 */

/** How the operands lie in memory, as PyTorch calls them (measure.py): the three GEMMs of a linear layer. */
export type GemmPass =
  /** Forward, F.linear(x[T, in], w[out, in]): y = x·wᵀ. */
  | 'forward'
  /** Input gradient, dy[T, out] · w[out, in]. */
  | 'dgrad'
  /** Weight gradient, dyᵀ · x, into fp32 (Megatron's gradient_accumulation_fusion accumulates main_grad in fp32). */
  | 'wgrad'
  /** A plain row-major product a[m, k] · b[k, n] (sweeps, batched attention scores). */
  | 'plain';

export interface GemmCase {
  readonly id: string;
  /** What the case isolates: a plan's layer, a size sweep, the wave sweep. */
  readonly group: 'plan' | 'square' | 'waves' | 'attention-bmm';
  readonly dtype: 'bf16' | 'fp8';
  readonly pass: GemmPass;
  /** The GEMM as kernel-time.ts costs it: output m × n, inner dimension k, `batch` of them. */
  readonly shape: GemmShape;
  /** Bytes per output element: 4 for the fp32 weight gradient, else 2. */
  readonly outputBytes: number;
}

export interface AttentionCase {
  readonly id: string;
  readonly batch: number;
  readonly heads: number;
  readonly seqLength: number;
  readonly headDim: number;
  readonly causal: boolean;
}

/**
 * One GPU's share of a published plan's transformer layer, to be run whole (kernels/layer.py): the shapes
 * layer-time.ts costs, with the tensor-parallel collectives left out (one GPU runs them to no one).
 */
export interface LayerCase {
  readonly id: string;
  readonly model: string;
  readonly tensor: number;
  readonly microBatch: number;
  readonly seqLength: number;
  readonly hidden: number;
  /** Query and key/value heads on this GPU (the model's divided by the tensor-parallel size). */
  readonly heads: number;
  readonly kvHeads: number;
  readonly headDim: number;
  /** MLP hidden width on this GPU; a gated MLP's fc1 is twice this wide. */
  readonly ffn: number;
  readonly gatedMlp: boolean;
  readonly linearBias: boolean;
  readonly normalization: 'layernorm' | 'rmsnorm';
  readonly rotary: boolean;
  readonly dropout: boolean;
  readonly attention: 'flash' | 'unfused';
}

/**
 * One decode step of a whole model on one GPU (kernels/decode.py): a batch of sequences, each at `context` tokens of
 * KV cache, gets one token through every layer and the logits, as a serving engine replays it from a CUDA graph.
 * estimateInference (packages/search) costs the same step as decodeStepSeconds.
 */
export interface DecodeCase {
  readonly id: string;
  readonly model: string;
  readonly layers: number;
  readonly hidden: number;
  readonly heads: number;
  readonly kvHeads: number;
  readonly headDim: number;
  /** The gated MLP's width (fc1 is twice this wide). */
  readonly ffn: number;
  readonly vocab: number;
  readonly batch: number;
  readonly context: number;
}

/**
 * One whole-model prefill on one GPU (kernels/decode.py --prefill): each of `batch` prompts of `prompt` tokens through
 * every layer at once, its K and V written into the cache, and its last token's logits. estimateInference (packages/
 * search) costs the same as a static batch's prefillSeconds.
 */
export interface PrefillCase extends Omit<DecodeCase, 'context'> {
  readonly prompt: number;
}

/**
 * The optimizer step of one GPU of a published-style plan (kernels/optimizer.py): Adam over the fp32 master weights of
 * its first pipeline stage (which holds the embedding), cut by the data-parallel shards when the optimizer is
 * distributed, with the global gradient norm and the cast into bf16 weights. estimatePlan costs it as
 * breakdown.optimizerSeconds (optimizer-time.ts) over the largest stage: the first, or with an untied output layer the
 * last, larger by its final norm.
 */
export interface OptimizerCase {
  readonly id: string;
  readonly model: string;
  readonly tensor: number;
  readonly pipeline: number;
  readonly data: number;
  readonly distributedOptimizer: boolean;
  /** The parameters this GPU updates: the planner's stage count over the shards (stageParameters). */
  readonly parameters: number;
  /** The stage's parameters, unsharded: Megatron's gradient buffer, which every data-parallel rank holds whole and zeroes each step. */
  readonly bufferParameters: number;
  /** The tensors they lie in, `count` of each size: a layer's four linears and the rest of it, and the stage's embedding. */
  readonly tensors: readonly { readonly numel: number; readonly count: number }[];
}

export interface KernelCases {
  readonly gemm: readonly GemmCase[];
  readonly attention: readonly AttentionCase[];
  /** Whole layers, one per published plan without context parallelism. */
  readonly layers: readonly LayerCase[];
  /** Decode steps of whole models on one GPU. */
  readonly decode: readonly DecodeCase[];
  /** Prefills of whole models on one GPU. */
  readonly prefill: readonly PrefillCase[];
  /** Optimizer steps of one GPU's parameters. */
  readonly optimizer: readonly OptimizerCase[];
  /** Flash attention past the sweep (measure.py --long-attention): what the launch model, fitted to 32,768 tokens, extrapolates to. */
  readonly longAttention: readonly AttentionCase[];
  /** Rows × columns of the bf16 tensors the element-wise kernels run over. */
  readonly elementwiseShape: readonly [number, number];
}

/** A published plan's per-GPU layer: model, tensor-parallel size, micro-batch and sequence (their sources). */
export interface PlanLayer {
  readonly model: string;
  readonly tensor: number;
  readonly microBatch: number;
  readonly seqLength: number;
  /** Context-parallel size: each GPU holds seqLength / context of the sequence's tokens. */
  readonly context?: number;
  /** Unfused attention (Megatron 2021–22, batched GEMMs) rather than flash attention. */
  readonly unfusedAttention?: boolean;
  /** Also measured in FP8 (Hopper recipes train these in FP8 through Transformer Engine). */
  readonly fp8?: boolean;
  /** Hidden and attention dropout, as the plan's validation rows run it (sources.ts). */
  readonly dropout?: boolean;
}

const PLAN_LAYERS: readonly PlanLayer[] = [
  // Narayanan et al. SC'21 Table 1 and Smith et al. 2022 (MT-NLG): TP 8, micro-batch 1, 2,048 tokens.
  { model: 'gpt3-175b', tensor: 8, microBatch: 1, seqLength: 2048, unfusedAttention: true, dropout: true },
  { model: 'mt-nlg-530b', tensor: 8, microBatch: 1, seqLength: 2048, unfusedAttention: true, dropout: true },
  // BigScience tr11-176B-ml.slurm: TP 4, micro-batch 2.
  { model: 'bloom-176b', tensor: 4, microBatch: 2, seqLength: 2048, unfusedAttention: true, dropout: true },
  // MPT-7B's shape on one GPU (llm-foundry's A100 table: 2,048 tokens, micro-batch 4 without checkpointing).
  { model: 'gpt3-6.7b', tensor: 1, microBatch: 4, seqLength: 2048 },
  // NVIDIA DGX Cloud / NeMo recipes: Llama 3 8B TP 1, 70B TP 4, 405B TP 8, Nemotron-4 340B TP 8; one sequence.
  { model: 'llama3-8b', tensor: 1, microBatch: 1, seqLength: 8192, fp8: true },
  { model: 'llama3-70b', tensor: 4, microBatch: 1, seqLength: 8192, fp8: true },
  { model: 'llama3-70b', tensor: 8, microBatch: 1, seqLength: 8192, fp8: true },
  { model: 'llama3.1-405b', tensor: 8, microBatch: 1, seqLength: 8192, fp8: true },
  { model: 'nemotron4-340b', tensor: 8, microBatch: 1, seqLength: 4096, fp8: true },
  // The dgxc-24.11 rows of ../shared/ground-truth and the Llama 3.1 405B recipe (llama405-dgxc.ts), in both precisions:
  // GPT-3 175B TP 4; Llama 3.1 70B TP 4 · CP 2; Llama 3.1 405B TP 8 · CP 2; Nemotron-4 15B TP 4, micro-batch 4.
  { model: 'gpt3-175b', tensor: 4, microBatch: 1, seqLength: 2048, fp8: true, dropout: true },
  { model: 'llama3.1-70b', tensor: 4, microBatch: 1, seqLength: 8192, context: 2, fp8: true },
  { model: 'llama3.1-405b', tensor: 8, microBatch: 1, seqLength: 8192, context: 2, fp8: true },
  { model: 'nemotron4-15b', tensor: 4, microBatch: 4, seqLength: 4096, fp8: true },
];

const SQUARE_SIZES = [1024, 2048, 4096, 6144, 8192, 12288, 16384];
/** Wave sweep: M and K fixed, N in steps of 256, so the tile count crosses multiples of the SM count. */
const WAVE_M = 8192;
const WAVE_K = 4096;
const WAVE_STEPS = 32;
const ATTENTION_SEQS = [1024, 2048, 4096, 8192, 16384, 32768];
/** Long-context lengths (64k and 128k tokens on one GPU, as context parallelism's chunks or a single long sequence). */
const LONG_ATTENTION_SEQS = [65536, 131072];

/** The three GEMMs of one linear layer, with the shapes gemmForwardBackwardSeconds costs. */
function linearPasses(prefix: string, g: GemmShape, dtype: 'bf16' | 'fp8'): GemmCase[] {
  const base = { group: 'plan', dtype } as const;
  const forward: GemmCase = { ...base, id: `${prefix}.forward`, pass: 'forward', shape: g, outputBytes: 2 };
  if (dtype === 'fp8') return [forward];
  return [
    forward,
    { ...base, id: `${prefix}.dgrad`, pass: 'dgrad', shape: { m: g.m, n: g.k, k: g.n }, outputBytes: 2 },
    { ...base, id: `${prefix}.wgrad`, pass: 'wgrad', shape: { m: g.k, n: g.n, k: g.m }, outputBytes: 4 },
  ];
}

function planModel(plan: PlanLayer): ModelShape {
  const model = modelById(plan.model)?.shape;
  if (!model) throw new Error(`kernel-cases: no model preset ${plan.model}`);
  return model;
}

/** The plan's layer on one GPU, as layerComputeCost shapes it (layer-time.ts). */
export function layerCase(plan: PlanLayer): LayerCase {
  const model = planModel(plan);
  const t = plan.tensor;
  return {
    id: `${plan.model}.tp${plan.tensor}.b${plan.microBatch}.s${plan.seqLength}`,
    model: plan.model,
    tensor: t,
    microBatch: plan.microBatch,
    seqLength: plan.seqLength,
    hidden: model.hiddenSize,
    heads: model.attentionHeads / t,
    kvHeads: model.kvHeads / t,
    headDim: model.hiddenSize / model.attentionHeads,
    ffn: model.ffnHiddenSize / t,
    gatedMlp: model.gatedMlp,
    linearBias: model.linearBias,
    normalization: model.normalization,
    rotary: model.positionEmbedding === 'rotary',
    dropout: plan.dropout ?? false,
    attention: plan.unfusedAttention ? 'unfused' : 'flash',
  };
}

/** The plans whose layers are run whole: context parallelism's ring attention needs more than one GPU. */
export const LAYER_PLANS: readonly PlanLayer[] = PLAN_LAYERS.filter((p) => (p.context ?? 1) === 1);

function planCases(plan: PlanLayer): GemmCase[] {
  const model = planModel(plan);
  const T = (plan.microBatch * plan.seqLength) / (plan.context ?? 1);
  const name = `${plan.model}.tp${plan.tensor}.T${T}`;
  const linears = [...linearGemmShapes(model, plan.tensor, T), { name: 'logits', m: T, n: model.vocabSize / plan.tensor, k: model.hiddenSize }];
  const cases = linears.flatMap((g) => linearPasses(`${name}.${g.name}`, { m: g.m, n: Math.floor(g.n), k: g.k }, 'bf16'));
  if (plan.fp8) {
    // FP8 GEMMs need dimensions that are multiples of 16 (cuBLASLt); the logits stay in 16 bits in TE recipes.
    cases.push(...linearGemmShapes(model, plan.tensor, T).flatMap((g) => linearPasses(`${name}.${g.name}.fp8`, g, 'fp8')));
  }
  if (plan.unfusedAttention) {
    const heads = (model.attentionHeads / plan.tensor) * plan.microBatch;
    const d = model.hiddenSize / model.attentionHeads;
    const s = plan.seqLength;
    cases.push(
      { id: `${name}.scores`, group: 'attention-bmm', dtype: 'bf16', pass: 'plain', shape: { m: s, n: s, k: d, batch: heads }, outputBytes: 2 },
      { id: `${name}.context`, group: 'attention-bmm', dtype: 'bf16', pass: 'plain', shape: { m: s, n: d, k: s, batch: heads }, outputBytes: 2 },
    );
  }
  return cases;
}

/**
 * The decode sweep: Llama 3 8B (grouped-query attention, 8 KV heads) and Llama 2 7B (every head its own KV), one GPU,
 * batches to the largest whose KV cache at 4,096 tokens stays near 69 GB (half an H200 or a little under an H100's 80).
 */
const DECODE_SWEEP: readonly { readonly model: string; readonly batches: readonly number[] }[] = [
  { model: 'llama3-8b', batches: [1, 8, 32, 128] },
  { model: 'llama2-7b', batches: [1, 8, 32] },
];
const DECODE_CONTEXTS = [1024, 4096] as const;

function decodeCases(): DecodeCase[] {
  return DECODE_SWEEP.flatMap(({ model: id, batches }) => {
    const model = modelById(id)!.shape;
    return batches.flatMap((batch) => DECODE_CONTEXTS.map((context): DecodeCase => ({
      id: `${id}.b${batch}.c${context}`, model: id, layers: model.layers, hidden: model.hiddenSize, heads: model.attentionHeads,
      kvHeads: model.kvHeads, headDim: model.hiddenSize / model.attentionHeads, ffn: model.ffnHiddenSize, vocab: model.vocabSize, batch, context,
    })));
  });
}

const servedModel = (id: string) => {
  const model = modelById(id)!.shape;
  return {
    model: id, layers: model.layers, hidden: model.hiddenSize, heads: model.attentionHeads, kvHeads: model.kvHeads,
    headDim: model.hiddenSize / model.attentionHeads, ffn: model.ffnHiddenSize, vocab: model.vocabSize,
  };
};

/**
 * The prefill sweep: Llama 3 8B from a short prompt, where reading the weights bounds it, to 8,192 tokens, where the GEMMs
 * and attention do, and four prompts at once; Llama 2 7B (a KV head per query head) to its 4,096-token context.
 */
const PREFILL_SWEEP: readonly { readonly model: string; readonly batch: number; readonly prompt: number }[] = [
  { model: 'llama3-8b', batch: 1, prompt: 128 },
  { model: 'llama3-8b', batch: 1, prompt: 512 },
  { model: 'llama3-8b', batch: 1, prompt: 2048 },
  { model: 'llama3-8b', batch: 1, prompt: 8192 },
  { model: 'llama3-8b', batch: 4, prompt: 2048 },
  { model: 'llama2-7b', batch: 1, prompt: 512 },
  { model: 'llama2-7b', batch: 1, prompt: 4096 },
];

function prefillCases(): PrefillCase[] {
  return PREFILL_SWEEP.map(({ model, batch, prompt }) => ({ id: `${model}.b${batch}.p${prompt}`, ...servedModel(model), batch, prompt }));
}

/**
 * Optimizer steps from 0.2 to 2.7 billion parameters a GPU: GPT-3 175B as SC'21 ran it (TP 8, PP 8, no distributed
 * optimizer: a stage's 2.7 billion), and three plans with Megatron's distributed optimizer over their data-parallel
 * ranks (Llama 3 70B TP 4 · PP 4 · DP 8, Llama 3 8B DP 8, Nemotron-4 15B TP 4 · DP 16, as NeMo's recipes shard).
 */
const OPTIMIZER_PLANS: readonly Omit<OptimizerCase, 'id' | 'parameters' | 'bufferParameters' | 'tensors'>[] = [
  { model: 'gpt3-175b', tensor: 8, pipeline: 8, data: 1, distributedOptimizer: false },
  { model: 'llama3-70b', tensor: 4, pipeline: 4, data: 8, distributedOptimizer: true },
  { model: 'llama3-8b', tensor: 1, pipeline: 1, data: 8, distributedOptimizer: true },
  { model: 'nemotron4-15b', tensor: 4, pipeline: 1, data: 16, distributedOptimizer: true },
];

function optimizerCase(plan: Omit<OptimizerCase, 'id' | 'parameters' | 'bufferParameters' | 'tensors'>): OptimizerCase {
  const shape = modelById(plan.model)!.shape;
  const layers = shape.layers / plan.pipeline;
  const shards = plan.distributedOptimizer ? plan.data : 1;
  const stage = stageParameters({ shape, tensorParallel: plan.tensor, layersPerStage: Array.from({ length: plan.pipeline }, () => layers) })[0]!;
  const t = plan.tensor;
  const h = shape.hiddenSize;
  const d = h / shape.attentionHeads;
  const linears = [
    ((shape.attentionHeads + 2 * shape.kvHeads) * d * h) / t,
    (shape.attentionHeads * d * h) / t,
    ((shape.gatedMlp ? 2 : 1) * shape.ffnHiddenSize * h) / t,
    (shape.ffnHiddenSize * h) / t,
  ];
  // Biases and norms: what a layer holds beyond its four linear weights (layer parameters from stageParameters).
  const perLayer = (stageParameters({ shape, tensorParallel: t, layersPerStage: [layers + 1] })[0]! - stageParameters({ shape, tensorParallel: t, layersPerStage: [layers] })[0]!);
  const smallPerLayer = perLayer - linears.reduce((a, b) => a + b, 0);
  const embedding = stage - layers * perLayer;
  const cut = (n: number) => Math.ceil(n / shards);
  const tensors = [
    ...linears.map((n) => ({ numel: cut(n), count: layers })),
    ...(smallPerLayer > 0 ? [{ numel: cut(smallPerLayer / 4), count: 4 * layers }] : []),
    { numel: cut(embedding), count: 1 },
  ];
  const id = `${plan.model}.tp${t}.pp${plan.pipeline}${plan.distributedOptimizer ? `.dp${plan.data}-sharded` : ''}`;
  return { id, ...plan, parameters: stage / shards, bufferParameters: stage, tensors };
}

export function kernelCases(): KernelCases {
  const square = SQUARE_SIZES.flatMap((n) => (['bf16', 'fp8'] as const).map((dtype): GemmCase => ({
    id: `square.${n}.${dtype}`, group: 'square', dtype, pass: 'plain', shape: { m: n, n, k: n }, outputBytes: 2,
  })));
  const waves = Array.from({ length: WAVE_STEPS }, (_, i): GemmCase => {
    const n = 256 * (i + 1);
    return { id: `waves.n${n}`, group: 'waves', dtype: 'bf16', pass: 'plain', shape: { m: WAVE_M, n, k: WAVE_K }, outputBytes: 2 };
  });
  const attention = ATTENTION_SEQS.flatMap((s) => [true, false].map((causal): AttentionCase => ({
    id: `flash.s${s}.h16.${causal ? 'causal' : 'full'}`, batch: 1, heads: 16, seqLength: s, headDim: 128, causal,
  })));
  for (const heads of [8, 64]) {
    attention.push({ id: `flash.s8192.h${heads}.causal`, batch: 1, heads, seqLength: 8192, headDim: 128, causal: true });
  }
  return {
    gemm: [...PLAN_LAYERS.flatMap(planCases), ...square, ...waves],
    attention,
    layers: LAYER_PLANS.map(layerCase),
    decode: decodeCases(),
    prefill: prefillCases(),
    optimizer: OPTIMIZER_PLANS.map(optimizerCase),
    longAttention: LONG_ATTENTION_SEQS.flatMap((s) => [true, false].map((causal): AttentionCase => ({
      id: `flash.s${s}.h16.${causal ? 'causal' : 'full'}`, batch: 1, heads: 16, seqLength: s, headDim: 128, causal,
    }))),
    elementwiseShape: [16384, 8192],
  };
}
