import type { CollectiveRequest } from '@trainplan/protocol';
import type { CustomModel } from './custom-model.ts';
import type { SpareNodes } from './lexicon/spare-nodes.ts';

/**
 * What a parsed question is: an intent, the facts the text gave, and the defaults taken for the
 * facts it did not give (each default is said back to the asker in the answer).
 */

/** What the asker wants to know. */
export type IntentName =
  /** How many nodes train a model on a token budget within a deadline. */
  | 'nodes'
  /** The cheapest cluster for a model and token budget (the time–cost curve), or the cheapest that meets a deadline. */
  | 'cheapest'
  /** How long a model trains on a given cluster. */
  | 'time'
  /** The fastest parallel configuration for a model on a given cluster. */
  | 'config'
  /** Memory per GPU of a given configuration. */
  | 'memory'
  /** Step time, MFU, throughput of a given configuration. */
  | 'estimate'
  /** One collective's time and bandwidth on a set of GPUs. */
  | 'collective'
  /** What a cluster costs an hour and a day at a price per GPU-hour, with no model named ("cost per day of 128 H100 nodes at $2/GPU-hour"). */
  | 'rate'
  /** Serving a model: latency, batch, KV cache and tokens/s per GPU of the best replica (the inference planner), and the GPUs a request rate needs. */
  | 'serving'
  /** Not understood, or asked for help: answered with examples. */
  | 'help';

/** The collectives a question can name: the protocol's (runCollective), less point-to-point. */
export type CollectiveOp = Exclude<CollectiveRequest['op'], 'send-recv'>;
/** The algorithms a question can name, each one runCollective takes. */
export type CollectiveAlgorithm = Extract<CollectiveRequest['algorithm'], 'ring' | 'tree' | 'nvls' | 'auto'>;

/** The facts a question carries, in SI units (tokens and counts plain, seconds, bytes). */
export interface AskParameters {
  /** A model preset id (packages/presets). */
  model?: string;
  /** A model no preset has, sized by the question ("a 30B model", "llama 30b"): a GPT- or Llama-style decoder (custom-model.ts); then `model` is unset. */
  customModel?: CustomModel;
  /** A GPU preset id. */
  gpu?: string;
  /** A system preset id, when the question named a node type ("DGX A100"). */
  system?: string;
  /**
   * Other GPUs the question compares the first with ("A100 vs H100 for 70B", "should I use H100 or A100 …", "compare
   * H100 and H200 …"): each answered as the question asks of the first, side by side (answer/compared-gpus.ts). Unset
   * for a question of one GPU.
   */
  comparedGpus?: ComparedGpu[];
  /**
   * Other cluster sizes of the same GPU the question compares the first with ("512 vs 1024 H100", "64 or 128 nodes"): each
   * answered as the question asks of the first, side by side (answer/compared-sizes.ts). Unset for a question of one size.
   */
  comparedSizes?: ClusterSize[];
  /**
   * Other models the question compares the first with ("7B vs 13B", "llama3-8b or llama3-70b"): each answered as the
   * question asks of the first, side by side (answer/compared-models.ts). Unset for a question of one model.
   */
  comparedModels?: ComparedModel[];
  /** A network preset id between nodes ("over HDR InfiniBand": hdr-ib-8x, lexicon/network.ts); unset, the system's. */
  network?: string;
  nodes?: number;
  gpus?: number;
  gpusPerNode?: number;
  /** Racks of a rack-scale system as written ("2 GB200 racks"); `gpus` holds their GPUs. */
  racks?: number;
  tokens?: number;
  /** Tokens per optimizer step ("a 4M token batch"): the global batch is this over the sequence length. */
  batchTokens?: number;
  /** Training tokens per model parameter ("20 tokens per parameter"). */
  tokensPerParameter?: number;
  /** A budget in GPU-hours ("on 1.7M GPU-hours"; "700k node-hours" over the node's GPUs). */
  gpuHours?: number;
  /**
   * The share of wall-clock time spent training ("at 90% uptime", "with 10% downtime"), in (0, 1]: the nodes request's
   * `uptime`, whose days and GPU-hours are on the wall clock at it. Unset: 100%, no restarts or failures counted.
   */
  uptime?: number;
  deadlineSeconds?: number;
  /** A price per GPU-hour ("at $2/GPU-hour"): answers with GPU-hours then give the cost, in the currency given. */
  pricePerGpuHour?: number;
  /** A budget in money ("a $2M budget"), planned with pricePerGpuHour (a question with one and no price is a problem). */
  costBudget?: number;
  /** The price's currency sign ("$", "€", "£"), for display; unset when the question gave a number alone. */
  currency?: string;
  tensor?: number;
  pipeline?: number;
  context?: number;
  data?: number;
  virtualStages?: number;
  microBatchSize?: number;
  globalBatchSize?: number;
  seqLength?: number;
  precision?: 'fp16' | 'bf16' | 'fp8';
  /**
   * Other precisions the question compares the first with ("is fp8 faster than bf16", "in bf16 and fp8", "does fp8 help":
   * the GPU's 16-bit one): each planned as the question asks of the first, side by side (answer/compared-precisions.ts).
   */
  comparedPrecisions?: NonNullable<AskParameters['precision']>[];
  /** Serving: the KV cache's own format ("fp8 kv cache"), the protocol's kvCachePrecision; unset, the weights' precision. */
  kvCachePrecision?: 'fp16' | 'bf16' | 'fp8';
  /**
   * Two parallel layouts or more the question compares ("tp 8 pp 8 or tp 4 pp 16"), each complete: its own sizes, and the
   * first's where it changes only sizes the first names ("tp 8 pp 8 or pp 16" is TP 8 · PP 16 second; lexicon/layouts.ts'
   * comparedLayout says the rule). The first is also in the fields above.
   * Unset for a question of one layout.
   */
  layouts?: Layout[];
  recompute?: 'none' | 'selective' | 'full';
  sequenceParallel?: boolean;
  /** Megatron's distributed optimizer (optimizer states sharded over data parallelism). */
  distributedOptimizer?: boolean;
  /** A ZeRO stage ("zero-3", DeepSpeed), or FSDP's full sharding read as stage 3. */
  zeroStage?: 1 | 2 | 3;
  /**
   * The software's switches a question may state, each the scenario's extension of the same name (protocol
   * scenario-schema.ts) and the search's `settings`: overlap tensor-parallel collectives with GEMMs ("tp comm overlap",
   * Transformer Engine's --tp-comm-overlap), the gradient reduction with the backward pass ("overlap grad reduce"),
   * pipeline sends with compute ("overlap p2p"), and Megatron's scatter-gather of pipeline sends (lexicon/comm-overlap.ts).
   * False where the question turns one off; unset, the protocol's default (off).
   */
  overlapTensorParallelComm?: boolean;
  overlapGradReduce?: boolean;
  overlapPipelineComm?: boolean;
  scatterGather?: boolean;
  /** The pipeline schedule ("gpipe schedule", "1f1b", "interleaved"): the scenario's parallelism.schedule (lexicon/pipeline-schedule.ts). */
  schedule?: '1f1b' | 'interleaved' | 'gpipe';
  /** With FP8, the weights themselves kept in FP8 ("fp8 weights", Megatron's --fp8-param-gather): the scenario's training.fp8Params. */
  fp8Params?: boolean;
  /** The attention kernel ("without flash attention": unfused; "with flash attention": flash): the scenario's training.attentionKernel. */
  attentionKernel?: 'flash' | 'unfused';
  /** Dropout on or off ("with dropout", "no dropout"): the scenario's training.dropout; unset, as the model trained. */
  dropout?: boolean;
  /** Full recompute of this many layers per stage ("recompute 4 layers"): the scenario's parallelism.recomputeLayers. */
  recomputeLayers?: number;
  /** The share of GPU memory a plan may use ("with 90% memory"), in (0, 1]: the search's constraints.memoryFraction, or a serving request's gpuMemoryUtilization. */
  memoryFraction?: number;
  /**
   * Emulated ("emulated", "with the emulator"): a collective run through the discrete-event emulator beside the closed form
   * (runCollective's emulate), a stated layout's collectives costed by it (the scenario's cluster.communicationModel).
   */
  emulate?: boolean;
  /**
   * An MFU the asker states ("at 50% MFU"), as a fraction of peak in (0, 1]. Plans never take it as an
   * input (the planner models compute and communication itself); the answer compares it with the plan's.
   */
  mfu?: number;
  /** Serving: tokens per prompt ("2k prompt"). */
  promptTokens?: number;
  /**
   * Serving: the tokens every prompt opens with, the same for all ("a 1k-token system prompt"), cached once and
   * not prefilled again (the protocol's sharedPrefixTokens). Part of promptTokens (defaults.ts says how a prompt
   * length no longer than it is read).
   */
  sharedPrefixTokens?: number;
  /** Serving: tokens generated per request ("512 output tokens"). */
  outputTokens?: number;
  /** Serving: the bound on the time per output token ("50 ms/token", "30 tokens/s per user"), in seconds. */
  maxTokenSeconds?: number;
  /** Serving: the bound on the time to first token ("TTFT under 2 s"), in seconds. */
  maxFirstTokenSeconds?: number;
  /** Serving: the load to serve ("1000 QPS"), in requests per second. */
  requestsPerSecond?: number;
  /**
   * Serving: requests decoded at once ("500 concurrent users": the service's in all, spread over its replicas,
   * answer/serving-users.ts); a stated batch size, or a concurrency said per replica, is one replica's.
   */
  concurrency?: number;
  /** Serving without a user waiting ("offline", "max throughput"): no interactive latency bound is assumed. */
  offline?: boolean;
  /**
   * Serving with speculative decoding ("with speculative decoding", or a draft, γ or α stated): sent as the protocol's
   * `speculative` with the three below. False when asked but no draft can be assumed for the model (speculative.ts): none is planned, said so.
   */
  speculative?: boolean;
  /** Speculative decoding: the draft model, a preset id sharing the model's vocabulary ("llama3.2-1b"). */
  draftModel?: string;
  /** Speculative decoding: γ, the tokens the draft proposes a step ("4 draft tokens"), 1 to 16. */
  draftTokens?: number;
  /** Speculative decoding: α, the chance the model accepts each draft token ("acceptance rate 0.8", "80% acceptance"), in (0, 1]. */
  acceptanceRate?: number;
  op?: CollectiveOp;
  bytes?: number;
  algorithm?: CollectiveAlgorithm;
  /**
   * A collective asked "with SHARP" or "with CollNet": the protocol's `collnet` (NCCL_COLLNET_ENABLE=1), passed where the
   * network reduces in its switches and said unavailable where not (answer/collective-answer.ts). False: asked off, NCCL's default.
   */
  collnet?: boolean;
}

/** A cluster size as a question counts it: nodes, or GPUs. */
export type ClusterSize = Pick<AskParameters, 'nodes' | 'gpus'>;

/**
 * A GPU compared with the question's first, with its own cluster size where the question gives one ("512 H100 and 1024
 * A100") and its own price per GPU-hour ("A100 at $1.5/hr or H100 at $2.5/hr").
 */
export type ComparedGpu = { gpu: string; system?: string; pricePerGpuHour?: number } & ClusterSize;

/** A model compared with the question's first: a preset, or a size no preset has planned as a decoder of that size. */
export type ComparedModel = Pick<AskParameters, 'model' | 'customModel'> & {
  /** How the question's words were read ("13B taken as Llama 2 13B (llama2-13b)"), said with its answer. */
  reading?: string;
};

/** The sizes that make a parallel layout, as a question states them: what a comparison of layouts varies. */
export type Layout = Partial<Pick<AskParameters, 'tensor' | 'pipeline' | 'context' | 'data' | 'virtualStages' | 'microBatchSize'>>;

/** A phrase of the question seen and not read, and why ("at 700W": power is not modelled), said as "Not read: …". */
export interface NotRead {
  /** What was said, quoted as typed and named where the quote alone would not say what it is: 'the network "200Gbps ethernet"'. */
  phrase: string;
  why: string;
  /** How the answer heads it: "Not read" (the default), or "Not answered" for a part of the question left to ask again. */
  heading?: 'Not read' | 'Not answered';
}

/** A fact the question did not state, the value taken for it and why, said back in the answer. */
export interface DefaultUsed {
  field: keyof AskParameters;
  value: string | number;
  /** One sentence for the asker, e.g. "300B training tokens (GPT-3's, Brown et al. 2020)". */
  text: string;
}

/** What parse reads a question against, beyond its words. */
export interface ParseOptions {
  /**
   * Today's UTC calendar day, as an ISO 8601 date ('2026-11-28') or a Date whose UTC day it is: a deadline given as a
   * date ("by 31 december", "by end of month") is then read as the whole days to it (lexicon/dates.ts). The package keeps
   * no clock: the caller passes it (the CLI from its clock, the chat bot per request). Left out, dates are said not
   * understood, and the default deadline taken.
   */
  today?: string | Date;
}

export interface ParsedQuestion {
  /** The question as asked (trimmed). */
  text: string;
  intent: IntentName;
  /** Facts from the text with the defaults filled in. */
  parameters: AskParameters;
  /** Facts the text stated, before defaults. */
  stated: AskParameters;
  defaults: DefaultUsed[];
  /** Why the question could not be answered as asked (e.g. no model named); empty when it can. */
  problems: string[];
  /**
   * Set when the question asks what the planner does not answer (serving, fine-tuning, hyperparameters):
   * then `problems` says why, and these notes where to ask instead (empty when nowhere).
   */
  outOfScope?: string[];
  /** What the question said that no plan reads (power, goodput, a network no preset models …): each said in the answer, never dropped unsaid. */
  notRead?: NotRead[];
  /** Spare nodes the question asks beside the nodes that train ("with 5% of GPUs reserved"), as parse read them (lexicon/spare-nodes.ts). */
  spareNodes?: SpareNodes;
}
