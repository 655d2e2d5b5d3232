import { defaultSystemForGpu, gpuById, networkById, systemById } from '@trainplan/presets';
import { defaultPrecision, INTERACTIVE_TOKEN_SECONDS, INTERACTIVE_TTFT_SECONDS } from '@trainplan/protocol';
import { countOf, days, formatSeconds, GB, toDays, toMs, lcm as wholeLcm } from '@trainplan/units';
import { compactCount } from './format.ts';
import { modelFactsOf, modelSeqLengthOf, modelShapeOf, splitsOver } from './model-of.ts';
import { KILO_COUNT } from './lexicon/numbers.ts';
import type { AskParameters, DefaultUsed, IntentName } from './question.ts';
import { shardingOf } from './sharding.ts';
import { withLayout } from './compared-layouts.ts';
import { fillSpeculative } from './speculative.ts';
import { lengthsWithinContext, outputWithinContext } from './serving-context.ts';
import { clusterGpusOf, gpusPerNodeOf } from './cluster-of.ts';
import { batchNear, defaultBatch, defaultBatchNote, isComputedBatch, isComputedCount, seqLengthOf, tokenBatch } from './default-batch.ts';

export { clusterGpusOf, gpusPerNodeOf } from './cluster-of.ts';
export { DEFAULT_BATCH_TOKENS, deadlineBatchFor, defaultBatch, defaultBatchNote, isComputedBatch, seqLengthOf, type DefaultBatch, type DefaultBatchWhy } from './default-batch.ts';

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
/** A collective's message when none is given, and its GPU count: one DGX node. */
export const DEFAULT_COLLECTIVE_BYTES = GB(1);
export const DEFAULT_COLLECTIVE_GPUS = 8;
/** A serving question's lengths when it gives none: a 2,048-token prompt and 512 generated tokens (the CLI's `inference` example). */
export const DEFAULT_PROMPT_TOKENS = 2048;
export const DEFAULT_OUTPUT_TOKENS = 512;

const TRAINING_INTENTS: ReadonlySet<IntentName> = new Set(['nodes', 'cheapest', 'time', 'config', 'memory', 'estimate']);

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
    // Rounded to the cluster's GPUs where the search plans on them (the layout searched): a goal's search plans sizes of its
    // own, and a fixed layout's refusal names what to change.
    const onCluster = !GOAL_INTENTS.has(intent) && !hasFixedConfiguration(p) && p.data === undefined;
    const batch = tokenBatch(p, p.batchTokens, onCluster ? clusterGpusOf(p) : undefined);
    take('globalBatchSize', batch.sequences, batch.note);
  }
  const budget = assumedTokens(p);
  if ((intent === 'nodes' || intent === 'cheapest' || intent === 'time' || intent === 'config') && p.tokens === undefined && budget !== undefined) {
    take('tokens', budget.tokens, budget.text);
  }
  // A budget alone is a goal of its own ("how many nodes on 1.7M GPU-hours", "with a $2M budget"): no deadline is assumed.
  if (intent === 'nodes' && p.deadlineSeconds === undefined && p.gpuHours === undefined && p.costBudget === undefined) {
    take('deadlineSeconds', DEFAULT_DEADLINE_SECONDS, `a ${toDays(DEFAULT_DEADLINE_SECONDS)}-day deadline`);
  }
  if ((intent === 'time' || intent === 'config' || (intent === 'estimate' && searchesLayout(intent, stated))) && p.nodes === undefined && p.gpus === undefined) {
    take('nodes', DEFAULT_NODES, `${countOf(DEFAULT_NODES, 'node')} (no cluster size given)`);
  }
  takeDefaultPrecision(p, take);
  sayDefaultNetwork(p, used);

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

/**
 * The training tokens a plan takes where the question gives none: the model's published budget, else 20 a parameter
 * (Hoffmann et al. 2022), with how it was taken; undefined where the model is not known. The widget's link carries them too.
 */
export function assumedTokens(p: AskParameters): { tokens: number; text: string } | undefined {
  const model = modelFactsOf(p);
  if (model === undefined) return undefined;
  if (model.defaultTrainingTokens !== undefined) {
    return { tokens: model.defaultTrainingTokens, text: `${compactCount(model.defaultTrainingTokens)} training tokens (${model.name}'s published budget${wholePretraining(p)})` };
  }
  const tokens = CHINCHILLA_TOKENS_PER_PARAMETER * model.parameters;
  const why = model.published ? `${model.name} states none` : `× the ${compactCount(model.parameters)} parameters asked`;
  return { tokens, text: `${compactCount(tokens)} training tokens (20 per parameter, Hoffmann et al. 2022; ${why}${wholePretraining(p)})` };
}

/** A sequence length from which a run past the model's own is a long-context stage (32k, k 1,024 in a length). */
const LONG_CONTEXT_TOKENS = 32 * KILO_COUNT;

/**
 * Said after a budget taken by default for a sequence of LONG_CONTEXT_TOKENS or more, longer than the model's own: that
 * budget is a whole pretraining, where a long-context stage trains on far fewer tokens (Llama 3 grew its context from 8K to
 * 128K over about 800B, Dubey et al. 2024, arXiv:2407.21783 §3.4.2). No default of its own is invented: the answer says how
 * to give one (QA: "at 128k" was charged Llama 3 70B's whole 15T tokens, 3,205 days, unsaid).
 */
function wholePretraining(p: AskParameters): string {
  const own = modelSeqLengthOf(p);
  if (p.seqLength === undefined || p.seqLength < LONG_CONTEXT_TOKENS || own === undefined || p.seqLength <= own) return '';
  return `: a whole pretraining, here at ${p.seqLength.toLocaleString('en-US')}-token sequences; say e.g. "800B tokens" for a long-context stage`;
}

/**
 * The network between nodes a training plan takes when none is named, said among the assumptions (QA: it shaped every
 * multi-node figure unsaid). Said, not set: the plan takes it from the node type as before, and a GPU compared keeps its own.
 */
function sayDefaultNetwork(p: AskParameters, used: DefaultUsed[]): void {
  if (p.network !== undefined) return;
  const system = p.system === undefined ? undefined : systemById(p.system);
  const id = system?.network ?? defaultSystemForGpu(p.gpu ?? DEFAULT_GPU)?.network;
  if (id === undefined) return;
  const whose = system === undefined ? "the GPU's usual fabric" : "the node's own fabric";
  used.push({ field: 'network', value: id, text: `network: ${id}, ${whose} (${networkById(id)?.name ?? id}; no network named)` });
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
  if (p.concurrency === undefined && p.globalBatchSize !== undefined) take('concurrency', p.globalBatchSize, `${countOf(p.globalBatchSize, 'concurrent request')} per replica (the batch size asked)`);
  // "max context 512": a context the default lengths overrun, neither given: both cut to fit it, in their proportion (serving-context.ts).
  const cut = lengthsWithinContext(p, DEFAULT_PROMPT_TOKENS, DEFAULT_OUTPUT_TOKENS);
  if (cut !== undefined) {
    take('promptTokens', cut.prompt, cut.texts[0]);
    take('outputTokens', cut.output, cut.texts[1]);
  }
  const output = p.outputTokens ?? DEFAULT_OUTPUT_TOKENS;
  // "32k context": the window a request fills, its prompt and what it generates. The worst case, and said as one: a
  // window is a bound on requests, not their length (QA: "max context of 8k" planned 197 requests of 7,680-token prompts unsaid).
  if (p.promptTokens === undefined && p.seqLength !== undefined && p.seqLength > output) {
    const prompt = p.seqLength - output;
    take('promptTokens', prompt, `a ${prompt.toLocaleString('en-US')}-token prompt (the ${p.seqLength.toLocaleString('en-US')}-token context asked, less the ${output.toLocaleString('en-US')} generated: `
      + 'the worst case, every request filling the window; say a prompt length to plan typical requests)');
  }
  fillPrompt(p, take, lengths);
  // A context stated beside a prompt bounds the output too: the default cut to fit it (serving-context.ts).
  const within = p.outputTokens === undefined ? outputWithinContext(p, DEFAULT_OUTPUT_TOKENS) : undefined;
  if (within !== undefined) take('outputTokens', within.tokens, within.text);
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
  // A number of tokens to generate ("generate 1T tokens of synthetic data"): a batch job no one waits on, bounded by none.
  if (p.tokens !== undefined && p.maxFirstTokenSeconds === undefined && p.maxTokenSeconds === undefined) return;
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
    // A replica of one GPU: its node, data parallel over all of it. A wider one ("tp 8 pp 4 zero 1") takes two replicas, below
    // (QA: one node was taken under 32 GPUs of TP 8 · PP 4, and the layout refused as not dividing the bot's own 8 GPUs).
    if (p.nodes === undefined && p.gpus === undefined && p.data === undefined && replicaOf(p) === 1) take('nodes', 1, `1 node, data parallel over its ${perNode} GPUs (${zero}; one GPU would shard nothing)`);
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
  // ZeRO and the distributed optimizer shard over data parallelism: two replicas at least where they are asked, so that they
  // shard something (one replica would hold every state whole; Rajbhandari et al. 2020 partition over the data-parallel ranks).
  const sharded = p.zeroStage !== undefined || p.distributedOptimizer === true;
  const replicas = sharded ? 2 : 1;
  const holds = compared.map((x) => replicaOf(x) * (x.data ?? replicas)).reduce(lcm);
  if (p.nodes === undefined && p.gpus === undefined && isComputedCount(holds)) {
    const shardedBy = p.zeroStage !== undefined ? `ZeRO-${p.zeroStage}` : 'the distributed optimizer';
    const of = p.layouts !== undefined ? `whole replicas of each of the ${p.layouts.length} layouts compared` : p.data !== undefined ? 'the stated parallel sizes'
      : sharded ? `two model replicas of ${replicaOf(p)} GPUs each (${shardedBy} shards over data parallelism; one replica would shard nothing)` : 'one model replica';
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
  return wholeLcm(a, b);
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
