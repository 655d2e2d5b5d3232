import { defaultSystemForGpu, gpuById, systemById } from '@trainplan/presets';
import { defaultPrecision, INTERACTIVE_TOKEN_SECONDS, INTERACTIVE_TTFT_SECONDS } from '@trainplan/protocol';
import { GB, countOf, days, formatSeconds, toDays, toMs } from '@trainplan/units';
import { compactCount } from './format.ts';
import { modelFactsOf, modelSeqLengthOf, modelShapeOf, splitsOver } from './model-of.ts';
import type { AskParameters, DefaultUsed, IntentName } from './question.ts';
import { shardingOf } from './sharding.ts';
import { withLayout } from './compared-layouts.ts';
import { fillSpeculative } from './speculative.ts';

/**
 * The facts a question leaves out, filled with stated defaults. Every default taken is listed so the
 * answer can say it ("assumed 300B training tokens (GPT-3 175B's published budget)").
 */

/** The GPU when none is named: the current DGX generation most teams plan on. */
export const DEFAULT_GPU = 'h100-sxm';
/** The deadline of "how many nodes" questions when none is given. */
export const DEFAULT_DEADLINE_SECONDS = days(30);
/** The cluster of "how long" and "best config" questions when none is given. */
export const DEFAULT_NODES = 128;
/** Chinchilla's compute-optimal budget, ~20 tokens per parameter (Hoffmann et al. 2022, Table 3). */
export const CHINCHILLA_TOKENS_PER_PARAMETER = 20;
/** Global batch of about 4M tokens (Touvron et al. 2023, Llama 2, Sec. 2.2: "a global batch-size of 4M tokens"). */
export const DEFAULT_BATCH_TOKENS = 4 * 1024 * 1024;
/**
 * GPUs per sequence of a default batch at most: on a large cluster the batch grows past 4M tokens to one
 * sequence per 8 GPUs, as Llama 3 405B trained with 2,048 sequences a step on 16,384 H100s (Dubey et al. 2024,
 * Table 4); 4M tokens there (512 sequences) leaves data parallelism 4 and a pipeline fed 4 micro-batches.
 */
const GPUS_PER_DEFAULT_SEQUENCE = 8;
/** A collective's message when none is given, and its GPU count: one DGX node. */
export const DEFAULT_COLLECTIVE_BYTES = GB(1);
export const DEFAULT_COLLECTIVE_GPUS = 8;
/** A serving question's lengths when it gives none: a 2,048-token prompt and 512 generated tokens (the CLI's `inference` example). */
export const DEFAULT_PROMPT_TOKENS = 2048;
export const DEFAULT_OUTPUT_TOKENS = 512;

const TRAINING_INTENTS: ReadonlySet<IntentName> = new Set(['nodes', 'cheapest', 'time', 'config', 'memory', 'estimate']);

/** GPUs per node of the named system, else of the GPU's usual DGX-class system. */
export function gpusPerNodeOf(p: AskParameters): number {
  if (p.gpusPerNode !== undefined) return p.gpusPerNode;
  const system = p.system === undefined ? undefined : systemById(p.system);
  if (system !== undefined) return system.gpusPerNode;
  // Eight GPUs per node when the GPU is unknown: every DGX/HGX board but GB200's tray.
  return (p.gpu === undefined ? undefined : defaultSystemForGpu(p.gpu))?.gpusPerNode ?? 8;
}

/** The GPUs the question names: stated GPUs, or nodes × GPUs per node; undefined when it names no count. */
export const clusterGpusOf = (p: AskParameters): number | undefined =>
  p.gpus ?? (p.nodes === undefined ? undefined : p.nodes * gpusPerNodeOf(p));

/** The question's GPU: named, or the named system's; undefined when unknown. */
function gpuOf(p: AskParameters) {
  const gpuId = p.system === undefined ? p.gpu : systemById(p.system)?.gpu ?? p.gpu;
  return gpuId === undefined ? undefined : gpuById(gpuId);
}

/** Fills what the intent needs; returns the parameters to use and the defaults taken, in order. */
export function withDefaults(intent: IntentName, stated: AskParameters): { parameters: AskParameters; defaults: DefaultUsed[] } {
  const p: AskParameters = { ...stated };
  const used: DefaultUsed[] = [];
  const take = <K extends keyof AskParameters>(field: K, value: NonNullable<AskParameters[K]>, text: string): void => {
    p[field] = value;
    used.push({ field, value: typeof value === 'boolean' ? String(value) : (value as string | number), text });
  };

  if (intent === 'help') return { parameters: p, defaults: used };

  if (p.gpu === undefined) take('gpu', DEFAULT_GPU, 'H100 SXM GPUs in DGX H100 nodes (no GPU named)');

  if (intent === 'collective') {
    if (p.bytes === undefined) take('bytes', DEFAULT_COLLECTIVE_BYTES, 'a 1 GB message (no size given)');
    if (p.nodes === undefined && p.gpus === undefined) take('gpus', DEFAULT_COLLECTIVE_GPUS, `${DEFAULT_COLLECTIVE_GPUS} GPUs, one node (no GPU count given)`);
    if (p.algorithm === undefined) take('algorithm', 'auto', 'the algorithm NCCL would pick (ring, tree or NVLS)');
    return { parameters: p, defaults: used };
  }

  if (intent === 'serving') {
    fillServing(p, take);
    fillSpeculative(p, take);
    takeDefaultPrecision(p, take);
    return { parameters: p, defaults: used };
  }

  if (!TRAINING_INTENTS.has(intent)) return { parameters: p, defaults: used };
  const model = modelFactsOf(p);

  if (p.tokens === undefined && p.tokensPerParameter !== undefined && model !== undefined) {
    const tokens = Math.round(p.tokensPerParameter * model.parameters);
    take('tokens', tokens, `${compactCount(tokens)} training tokens (${p.tokensPerParameter} per parameter, as asked, × ${compactCount(model.parameters)} parameters)`);
  }
  // A sequence length of 0 leaves no batch to compute: the protocol refuses the length.
  if (p.globalBatchSize === undefined && p.batchTokens !== undefined && isComputedCount(p.batchTokens / seqLengthOf(p))) {
    const seq = seqLengthOf(p);
    const exact = p.batchTokens / seq;
    const batch = roundBatch(exact);
    const rounded = batch === Math.round(exact) ? '' : `, rounded from ${sequencesText(exact)} so that power-of-two data-parallel sizes divide it`;
    take('globalBatchSize', batch, `global batch ${countOf(batch, 'sequence')} (the ${compactCount(p.batchTokens)}-token batch asked, over ${seq}-token sequences${rounded})`);
  }
  if ((intent === 'nodes' || intent === 'cheapest' || intent === 'time' || intent === 'config') && p.tokens === undefined && model !== undefined) {
    if (model.defaultTrainingTokens !== undefined) {
      take('tokens', model.defaultTrainingTokens, `${compactCount(model.defaultTrainingTokens)} training tokens (${model.name}'s published budget)`);
    } else {
      const tokens = CHINCHILLA_TOKENS_PER_PARAMETER * model.parameters;
      const why = model.published ? `${model.name} states none` : `× the ${compactCount(model.parameters)} parameters asked`;
      take('tokens', tokens, `${compactCount(tokens)} training tokens (20 per parameter, Hoffmann et al. 2022; ${why})`);
    }
  }
  // A budget alone is a goal of its own ("how many nodes on 1.7M GPU-hours", "with a $2M budget"): no deadline is assumed.
  if (intent === 'nodes' && p.deadlineSeconds === undefined && p.gpuHours === undefined && p.costBudget === undefined) {
    take('deadlineSeconds', DEFAULT_DEADLINE_SECONDS, `a ${toDays(DEFAULT_DEADLINE_SECONDS)}-day deadline`);
  }
  if ((intent === 'time' || intent === 'config' || (intent === 'estimate' && searchesLayout(intent, stated))) && p.nodes === undefined && p.gpus === undefined) {
    take('nodes', DEFAULT_NODES, `${countOf(DEFAULT_NODES, 'node')} (no cluster size given)`);
  }
  takeDefaultPrecision(p, take);

  // "How long … with tp 8 pp 8" is a fixed configuration too: the estimate carries the time to train.
  const fixed = ((intent === 'memory' || intent === 'estimate') && !searchesLayout(intent, stated)) || (intent === 'time' && hasFixedConfiguration(stated));
  if (fixed) fillFixedConfiguration(p, take);
  // A searched plan's batch, taken here (not when the search runs) so that the parsed question lists every default it
  // plans with; left to the answer where a cluster named beside a goal may not be the one planned (search-answer.ts).
  else if (p.globalBatchSize === undefined && (!GOAL_INTENTS.has(intent) || (p.nodes === undefined && p.gpus === undefined))) {
    const batch = defaultBatch(p);
    if (isComputedBatch(batch)) take('globalBatchSize', batch.sequences, defaultBatchNote(batch));
  }
  return { parameters: p, defaults: used };
}

/** Questions whose answer is a cluster size (for a goal, or the cheapest): a cluster they name may not be the one planned. */
const GOAL_INTENTS: ReadonlySet<IntentName> = new Set<IntentName>(['nodes', 'cheapest']);

/** Whether the question fixes the parallel layout, or several to compare (then no search is run). */
export const hasFixedConfiguration = (p: AskParameters): boolean => p.tensor !== undefined || p.pipeline !== undefined || p.layouts !== undefined;

/**
 * Whether a memory or estimate question is answered by the search's fastest plan rather than one
 * default layout: an estimate that states no layout ("MFU of GPT-3 175B on 1024 A100"), and a memory
 * question that states a cluster but no layout ("does Llama 3.1 405B fit on 16 H200 nodes"). One
 * default layout (TP 8, no pipeline) fails there though other splits fit: 405B at TP 8 alone needs
 * 394 GiB per GPU. A memory question without a cluster keeps the one-replica layout, whose memory per
 * GPU is what it asks.
 */
export function searchesLayout(intent: IntentName, stated: AskParameters): boolean {
  if (hasFixedConfiguration(stated)) return false;
  return intent === 'estimate' || (intent === 'memory' && (stated.nodes !== undefined || stated.gpus !== undefined));
}

/** Takes a default: sets the field and says it (withDefaults' `take`), for the fillers of other files (speculative.ts). */
export type Take = <K extends keyof AskParameters>(field: K, value: NonNullable<AskParameters[K]>, text: string) => void;

/** The scenario's own default (the planner's defaultPrecision): FP16 where the GPU has no BF16 (Volta). */
function takeDefaultPrecision(p: AskParameters, take: Take): void {
  if (p.precision !== undefined) return;
  const gpu = gpuOf(p);
  // Serving with the KV cache's format stated ("fp8 kv cache"): the precision taken is the weights' alone.
  const kv = p.kvCachePrecision === undefined ? undefined : `; the KV cache ${p.kvCachePrecision.toUpperCase()}, as asked`;
  if (gpu === undefined || defaultPrecision(gpu) === 'bf16') take('precision', 'bf16', kv === undefined ? 'BF16 mixed precision' : `BF16 weights (no precision given${kv})`);
  else take('precision', 'fp16', kv === undefined ? 'FP16 mixed precision (the GPU has no BF16)' : `FP16 weights (the GPU has no BF16${kv})`);
}

/** A serving question's prompt and output lengths, and an interactive service's latency bounds where it leaves them out (fillLatencyBounds). */
function fillServing(p: AskParameters, take: Take): void {
  const lengths = 'say e.g. "4k prompt, 1k output tokens" for others';
  // "a batch size of 32" in a serving question: the requests decoded together.
  if (p.concurrency === undefined && p.globalBatchSize !== undefined) take('concurrency', p.globalBatchSize, `${p.globalBatchSize} concurrent requests per replica (the batch size asked)`);
  const output = p.outputTokens ?? DEFAULT_OUTPUT_TOKENS;
  // "32k context": the window a request fills, its prompt and what it generates.
  if (p.promptTokens === undefined && p.seqLength !== undefined && p.seqLength > output) {
    const prompt = p.seqLength - output;
    take('promptTokens', prompt, `a ${prompt.toLocaleString('en-US')}-token prompt (the ${p.seqLength.toLocaleString('en-US')}-token context asked, less the ${output.toLocaleString('en-US')} generated)`);
  }
  fillPrompt(p, take, lengths);
  if (p.outputTokens === undefined) take('outputTokens', DEFAULT_OUTPUT_TOKENS, `${DEFAULT_OUTPUT_TOKENS} generated tokens per request (no length given)`);
  fillLatencyBounds(p, take);
}

/**
 * An interactive service's latency bounds (the protocol's, from MLPerf Inference's Llama 2 70B server scenario) where the
 * question gives none and does not say "offline". A question that bounds one of the two asks for a service someone
 * waits on, so it keeps the other: bounding each token alone would let the best plan keep the first token waiting for
 * long prompts' prefill or a slot (the protocol's ttftWarning says so past 2 s, but plans it); bounding the first token
 * alone would let it batch so many requests that each next token comes seconds apart.
 */
function fillLatencyBounds(p: AskParameters, take: Take): void {
  if (p.offline === true) return;
  const mlperf = "as MLPerf Inference's Llama 2 70B server scenario bounds it";
  // At a request rate the first-token bound holds the wait for a slot too (the protocol's load).
  const waited = p.requestsPerSecond === undefined ? '' : ', the wait for a slot included,';
  const firstToken = p.maxFirstTokenSeconds;
  const perToken = p.maxTokenSeconds;
  if (firstToken === undefined && perToken === undefined) {
    take('maxFirstTokenSeconds', INTERACTIVE_TTFT_SECONDS, `first token within ${INTERACTIVE_TTFT_SECONDS} s${waited} and each next within ${toMs(INTERACTIVE_TOKEN_SECONDS)} ms (an interactive service, ${mlperf}; say "offline" for throughput alone)`);
    p.maxTokenSeconds = INTERACTIVE_TOKEN_SECONDS;
  } else if (firstToken === undefined) {
    take('maxFirstTokenSeconds', INTERACTIVE_TTFT_SECONDS, `first token within ${INTERACTIVE_TTFT_SECONDS} s${waited} beside the ${formatSeconds(perToken!)} per token asked (an interactive service, ${mlperf}; say e.g. "ttft under 5 s" for another first-token bound, or "offline" for throughput alone)`);
  } else if (perToken === undefined) {
    take('maxTokenSeconds', INTERACTIVE_TOKEN_SECONDS, `each token after the first within ${toMs(INTERACTIVE_TOKEN_SECONDS)} ms beside the ${formatSeconds(firstToken)} to the first token asked (an interactive service, ${mlperf}; say e.g. "50 ms per token" for another bound per token, or "offline" for throughput alone)`);
  }
}

/**
 * A serving question's prompt length, with the prefix every prompt shares (a system prompt) inside it, as the
 * protocol reads sharedPrefixTokens. A prompt length longer than the prefix is the whole prompt ("a 4k prompt
 * with a 1k system prompt": 1k shared, 3k each request's own). One no longer than it cannot hold it, so it is
 * read as each request's own part, after the prefix ("a 500-token prompt with a 2k system prompt": 2,548 tokens
 * in all); the default 2,048 is read so too when the prefix is as long, and the answer says the total.
 */
function fillPrompt(p: AskParameters, take: Take, lengths: string): void {
  const n = (x: number) => x.toLocaleString('en-US');
  const prefix = p.sharedPrefixTokens;
  const after = (shared: number, own: number, why: string) =>
    take('promptTokens', shared + own, `a ${n(shared + own)}-token prompt: the ${n(shared)}-token shared prefix, then ${n(own)} tokens of each request's own (${why})`);
  if (p.promptTokens === undefined) {
    if (prefix !== undefined && prefix >= DEFAULT_PROMPT_TOKENS) after(prefix, DEFAULT_PROMPT_TOKENS, `no length given; ${lengths}`);
    else take('promptTokens', DEFAULT_PROMPT_TOKENS, `a ${n(DEFAULT_PROMPT_TOKENS)}-token prompt (no length given; ${lengths})`);
  } else if (prefix !== undefined && p.promptTokens <= prefix) {
    after(prefix, p.promptTokens, `the ${n(p.promptTokens)}-token prompt asked is no longer than the prefix it opens with, so read as the part after it`);
  }
}

/** A fixed configuration for memory and estimate questions: one model replica unless a cluster is given. */
function fillFixedConfiguration(p: AskParameters, take: Take): void {
  const perNode = gpusPerNodeOf(p);
  // ZeRO and FSDP shard over data parallelism, which one model replica on its own lacks: one node, no TP.
  if (p.zeroStage !== undefined) {
    const zero = `ZeRO-${p.zeroStage} shards over data parallelism`;
    if (p.tensor === undefined) take('tensor', 1, `no tensor parallelism (${zero}, as DeepSpeed and FSDP runs do)`);
    if (p.nodes === undefined && p.gpus === undefined && p.data === undefined) take('nodes', 1, `1 node, data parallel over its ${perNode} GPUs (${zero}; one GPU would shard nothing)`);
  }
  if (p.tensor === undefined) {
    const { tensor, text } = defaultTensor(p, perNode);
    take('tensor', tensor, text);
  }
  if (p.pipeline === undefined) take('pipeline', 1, 'no pipeline parallelism');
  if (p.microBatchSize === undefined) take('microBatchSize', 1, 'micro-batch 1');
  if (p.recompute === undefined) take('recompute', 'selective', 'selective activation recompute (Korthikanti et al. 2022)');
  // Korthikanti et al. 2022 pair selective recompute with sequence parallelism: activations drop by t.
  if (p.sequenceParallel === undefined && (p.tensor ?? 1) > 1) take('sequenceParallel', true, 'sequence parallelism alongside tensor parallelism (Korthikanti et al. 2022)');
  const replica = replicaOf(p);
  // Layouts compared are planned on one cluster and one batch: the GPUs of whole replicas of each, a batch each one's ranks divide.
  const compared = comparedLayouts(p, perNode);
  // "tp 0" leaves no replica to count GPUs from: the protocol refuses the size, not a cluster of 0 nodes the bot made.
  const holds = compared.map((x) => replicaOf(x) * (x.data ?? 1)).reduce(lcm);
  if (p.nodes === undefined && p.gpus === undefined && isComputedCount(holds)) {
    const of = p.layouts !== undefined ? `whole replicas of each of the ${p.layouts.length} layouts compared` : p.data === undefined ? 'one model replica' : 'the stated parallel sizes';
    if (holds % perNode === 0) take('nodes', holds / perNode, `${holds / perNode} node${holds === perNode ? '' : 's'}: the GPUs of ${of}`);
    else take('gpus', holds, `${countOf(holds, 'GPU')}: ${of}`);
  }
  // Megatron-Core runs use it (NeMo's and Megatron's GPT recipes pass --use-distributed-optimizer); the search
  // answers pick it too, so a stated layout is judged as the searched ones are. Not on one replica of the weights
  // (DP × CP = 1), where it shards nothing and the planner says so.
  const shardedOver = (p.data ?? Math.floor((p.gpus ?? (p.nodes ?? 1) * perNode) / replica)) * (p.context ?? 1);
  if (shardingOf(p) === undefined && isComputedCount(shardedOver) && shardedOver > 1) take('distributedOptimizer', true, 'the distributed optimizer (optimizer states sharded over data parallelism, as Megatron-Core recipes run)');
  if (p.globalBatchSize === undefined) {
    const gpus = p.gpus ?? (p.nodes ?? 1) * perNode;
    const dataOf = (x: AskParameters): number => x.data ?? Math.max(1, Math.floor(gpus / replicaOf(x)));
    // A multiple of one micro-batch per data-parallel rank, the least this layout (and each compared that runs) runs.
    const step = runsOn(compared, gpus).map((x) => dataOf(x) * (x.microBatchSize ?? 1)).reduce(lcm);
    const batch = batchNear(p, gpus, step, { why: 'layout', ranks: dataOf(p) });
    if (isComputedBatch(batch)) take('globalBatchSize', batch.sequences, defaultBatchNote(batch));
  }
}

/** A layout's model-parallel GPUs: TP × PP × CP. */
const replicaOf = (p: AskParameters): number => (p.tensor ?? 1) * (p.pipeline ?? 1) * (p.context ?? 1);

/** Least common multiple of two counts; NaN where either is no whole count above 0 (a refused "tp 0"), which isComputedCount then refuses. */
function lcm(a: number, b: number): number {
  if (!Number.isInteger(a) || !Number.isInteger(b) || a <= 0 || b <= 0) return Number.NaN;
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  return (a / gcd(a, b)) * b;
}

/**
 * The layouts of `layouts` that `gpus` GPUs run: whole replicas of each (TP × PP × CP, times the DP stated) fill them.
 * One that does not is refused (its fix said, layout-remedy.ts), so its data-parallel size, a fraction rounded down, must
 * not move the batch the others share: GPT-3's published 1,536 on 1,024 GPUs with TP 8 · PP 8, never 1,584 for a PP 7
 * beside it. All of them where none runs: each is refused whatever the batch.
 */
function runsOn(layouts: readonly AskParameters[], gpus: number): AskParameters[] {
  const runs = layouts.filter((x) => gpus % replicaOf(x) === 0 && (x.data === undefined || replicaOf(x) * x.data === gpus));
  return runs.length > 0 ? runs : [...layouts];
}

/**
 * Each layout a question compares (compared-layouts.ts) with its default TP and no pipeline where it states none, as
 * its own plan takes them; the question's own layout alone otherwise.
 */
function comparedLayouts(p: AskParameters, perNode: number): AskParameters[] {
  if (p.layouts === undefined) return [p];
  return p.layouts.map((layout) => {
    const x = withLayout(p, layout);
    return { ...x, tensor: x.tensor ?? defaultTensor(x, perNode).tensor, pipeline: x.pipeline ?? 1 };
  });
}

/**
 * The TP a fixed layout takes when it states none, and why: within one NVLink domain (at most 8, Megatron's usual),
 * dividing the GPUs the question names over the sizes it states (PP 4 on 8 GPUs leaves TP 2: TP 8 would refuse a
 * layout the question never asked for), and splitting the model's heads (GPT-3 Small's 12 go over 4 ranks, not 8).
 */
function defaultTensor(p: AskParameters, perNode: number): { tensor: number; text: string } {
  const gpus = clusterGpusOf(p);
  const sizes: [string, number | undefined][] = [['PP', p.pipeline], ['CP', p.context], ['DP', p.data]];
  const stated = sizes.flatMap(([name, size]) => (size !== undefined && size > 1 ? [[name, size] as const] : []));
  const others = stated.reduce((x, [, size]) => x * size, 1);
  const room = gpus !== undefined && gpus % others === 0 ? gpus / others : gpus;
  const byGpus = [8, 4, 2, 1].find((t) => t <= perNode && (room === undefined || room % t === 0)) ?? 1;
  const shape = modelShapeOf(p);
  const tensor = [8, 4, 2, 1].find((t) => t <= byGpus && (shape === undefined || splitsOver(shape, t))) ?? 1;
  const over = room === gpus ? '' : ` over ${stated.map(([name, size]) => `${name} ${size}`).join(' · ')}`;
  const text = tensor < byGpus && shape !== undefined
    ? `tensor parallel ${tensor} (the largest that splits the model's ${shape.attentionHeads} attention heads evenly)`
    : gpus !== undefined && tensor < Math.min(8, perNode)
      ? `tensor parallel ${tensor} (the largest that divides the ${gpus} GPU${gpus === 1 ? '' : 's'} asked about${over})`
      : `tensor parallel ${tensor} (one NVLink domain)`;
  return { tensor, text };
}

/**
 * The step a default batch is a multiple of on `gpus` GPUs: the data-parallel size left when model
 * parallelism takes the largest power of two (≤ 64) dividing them, so that some TP × PP × CP split can
 * divide the batch (on 1000 GPUs, 125: 1024 sequences would leave no split).
 */
function batchStep(gpus: number | undefined): number {
  if (gpus === undefined) return 1;
  let modelParallel = 1;
  while (modelParallel < 64 && gpus % (modelParallel * 2) === 0) modelParallel *= 2;
  return gpus / modelParallel;
}

/**
 * Why a default global batch has the size it has, decided where it is chosen and carried to the sentence that
 * says it: about 4M tokens (`tokens`); one sequence per GPUS_PER_DEFAULT_SEQUENCE GPUs, more than that on a large
 * cluster (`cluster`); or one step of the multiple it is rounded to, above either aim (`layout`: one micro-batch
 * on each of a fixed layout's data-parallel `ranks`; `split`: the data-parallel `ranks` batchStep leaves).
 */
export type DefaultBatchWhy = { why: 'tokens' } | { why: 'cluster' } | { why: 'layout'; ranks: number } | { why: 'split'; ranks: number }
  | { why: 'published'; model: string; published: number };

/** A default global batch: its sequences, their length, and why it is that size. */
export type DefaultBatch = { sequences: number; seqLength: number } & DefaultBatchWhy;

/**
 * Sequences a default batch aims at, and which aim: the model's published batch at its own sequence length (GPT-3
 * 175B's 1,536), else about 4M tokens, or one per GPUS_PER_DEFAULT_SEQUENCE GPUs where that is more.
 */
function batchAim(p: AskParameters, gpus: number | undefined): { sequences: number; why: DefaultBatchWhy } {
  const facts = modelFactsOf(p);
  if (facts?.publishedGlobalBatchSize !== undefined && seqLengthOf(p) === modelSeqLengthOf(p)) {
    return { sequences: facts.publishedGlobalBatchSize, why: { why: 'published', model: facts.name, published: facts.publishedGlobalBatchSize } };
  }
  const tokens = DEFAULT_BATCH_TOKENS / seqLengthOf(p);
  const cluster = (gpus ?? 0) / GPUS_PER_DEFAULT_SEQUENCE;
  return cluster > tokens ? { sequences: cluster, why: { why: 'cluster' } } : { sequences: tokens, why: { why: 'tokens' } };
}

/**
 * The multiple of `step` nearest the aim, at least one step. Rounding moves the aim by less than a half; a
 * single step more than that above it is the least `step` allows, and `floor` says why.
 */
function batchNear(p: AskParameters, gpus: number | undefined, step: number, floor: DefaultBatchWhy): DefaultBatch {
  const aim = batchAim(p, gpus);
  const sequences = step * Math.max(1, Math.round(aim.sequences / step));
  const why = sequences === step && step > 1.5 * aim.sequences ? floor : aim.why;
  return { sequences, seqLength: seqLengthOf(p), ...why };
}

/**
 * The global batch a search question takes when it states none: the model's published batch where its source
 * states one, else about 4M tokens a step (Touvron et al. 2023, Llama 2 §2.2) in sequences of the model's length,
 * a multiple some split of the cluster's GPUs divides when the cluster is known (batchStep); with why, for
 * defaultBatchNote. The CLI's `nodes` takes the same.
 */
export function defaultBatch(p: AskParameters): DefaultBatch {
  const gpus = clusterGpusOf(p);
  // A published batch is the model's own hyperparameter: taken as it is, on any cluster (the search finds the splits
  // that divide it, or says none does), so that every question about the model plans the same batch.
  const aim = batchAim(p, gpus);
  // A cluster computed from a bad value (0 nodes) takes no default at all: the protocol's refusal of it is the answer.
  const sane = gpus === undefined || isComputedCount(gpus);
  if (aim.why.why === 'published' && sane && (gpus === undefined || somePipelineSplits(aim.sequences, gpus, modelShapeOf(p)?.layers))) {
    return { sequences: aim.sequences, seqLength: seqLengthOf(p), ...aim.why };
  }
  const step = batchStep(gpus);
  return batchNear(p, gpus, withTwos(step, batchAim(p, gpus).sequences), { why: 'split', ranks: step });
}

/**
 * Whether some data-parallel size divides both the batch and the GPUs and leaves a model-parallel size a pipeline of
 * at most one stage per layer can take: its odd factor as pipeline stages (tensor and context sizes are powers of two).
 * MT-NLG's 1,920 on 2,240 GPUs: DP 8 leaves 280 = 8 × 35 (35 stages of 105 layers); Llama 2 7B's 1,024 on 1,000 GPUs
 * leaves at least 125 = 5³ stages of 32 layers: no split, so that batch is moved to one the GPUs divide.
 */
function somePipelineSplits(batch: number, gpus: number, layers: number | undefined): boolean {
  for (let d = 1; d <= Math.min(batch, gpus); d++) {
    if (batch % d !== 0 || gpus % d !== 0) continue;
    let odd = gpus / d;
    while (odd % 2 === 0) odd /= 2;
    if (odd <= (layers ?? Infinity)) return true;
  }
  return false;
}

/** How far a search's default batch may move from its aim to gain factors of two, so that more data-parallel sizes divide it. */
const DEFAULT_BATCH_SLACK = 0.1;

/**
 * `step` times the largest power of two whose multiple nearest `aim` stays within DEFAULT_BATCH_SLACK of it: on 2,240
 * GPUs (step 35), 2,240 = 35 × 64 sequences rather than 2,065 = 35 × 59, which few data-parallel sizes divide.
 */
function withTwos(step: number, aim: number): number {
  const nearest = (unit: number): number => unit * Math.max(1, Math.round(aim / unit));
  let unit = step;
  while (Math.abs(nearest(unit * 2) - aim) <= DEFAULT_BATCH_SLACK * aim) unit *= 2;
  return unit;
}

/**
 * Whether a count computed from the question is one to take: finite and positive. One computed from a bad value
 * ("tp 0", "on 0 nodes", a sequence length of 0) is NaN, Infinity or 0; the default is then not taken, and the
 * protocol's refusal of the bad field is the answer (issue-words.ts words it), not "global batch Infinity sequences".
 */
const isComputedCount = (x: number): boolean => Number.isFinite(x) && x > 0;

/** Whether a default batch is one to take (isComputedCount): not on a cluster, layout or length the protocol refuses. */
export const isComputedBatch = (b: DefaultBatch): boolean => isComputedCount(b.sequences) && isComputedCount(b.seqLength);

/** How far a batch asked in tokens may move to be a multiple of a power of two (GPT-3's "3.2M" is 1536 × 2048 = 3.15M). */
const BATCH_ROUNDING = 0.05;

/**
 * Sequences per step for a batch asked in tokens: the nearest multiple of the largest power of two
 * within BATCH_ROUNDING of it, so that power-of-two data-parallel sizes divide it ("4M tokens" of 2048 is
 * 2048 sequences, not 1953, which only DP 1 divides on a power-of-two cluster).
 */
function roundBatch(sequences: number): number {
  for (let step = 2 ** 14; step > 1; step /= 2) {
    const batch = Math.max(step, Math.round(sequences / step) * step);
    if (Math.abs(batch - sequences) <= BATCH_ROUNDING * sequences) return batch;
  }
  return Math.max(1, Math.round(sequences));
}

/** Sequences as the batch note counts them: "1953.1" for a fractional count, "1953" for a whole one. */
const sequencesText = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** Tokens per sequence: the stated length, else the model's, else GPT-3's 2048. */
export const seqLengthOf = (p: AskParameters): number => p.seqLength ?? modelSeqLengthOf(p) ?? 2048;

/** "each of the 8 data-parallel ranks", "the one data-parallel rank". */
const onRanks = (ranks: number): string => (ranks === 1 ? 'the one data-parallel rank' : `each of the ${ranks.toLocaleString('en-US')} data-parallel ranks`);

/** How an answer says it took the default global batch, and why it is that size. */
export function defaultBatchNote(b: DefaultBatch): string {
  const head = `global batch ${countOf(b.sequences, 'sequence')}`;
  const tokens = compactCount(b.sequences * b.seqLength);
  switch (b.why) {
    case 'tokens': {
      // Moved from 4M tokens to a multiple more data-parallel sizes divide (withTwos): said, with the tokens it makes.
      const moved = Math.abs(b.sequences * b.seqLength - DEFAULT_BATCH_TOKENS) > 0.01 * DEFAULT_BATCH_TOKENS;
      return moved
        ? `${head} (${tokens} tokens: about the 4M Llama 2 trained with, rounded so that more data-parallel sizes divide it)`
        : `${head} (about 4M tokens, as Llama 2 trained)`;
    }
    case 'cluster':
      return `${head} (${tokens} tokens: one sequence per ${GPUS_PER_DEFAULT_SEQUENCE} GPUs, more than the usual 4M tokens on a cluster this large, as Llama 3 405B trained with 2,048 sequences on 16,384 H100s)`;
    case 'layout': return `${head} (${tokens} tokens: one micro-batch on ${onRanks(b.ranks)}, the least this layout runs)`;
    case 'split': return `${head} (${tokens} tokens: one sequence on ${onRanks(b.ranks)}, the least some split of these GPUs divides)`;
    case 'published':
      return b.sequences === b.published
        ? `${head} (${tokens} tokens: ${b.model}'s published batch)`
        : `${head} (${tokens} tokens: near ${b.model}'s published ${countOf(b.published, 'sequence')}, rounded so that data-parallel sizes of these GPUs divide it)`;
  }
}
