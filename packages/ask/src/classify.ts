import { ASKS_MOST_CONCURRENT, costUnit, SERVING_WORDS } from './lexicon/serving.ts';
import type { AskParameters, IntentName } from './question.ts';
import { ASKS_OF_HOSTING, ASKS_OF_USERS, ASKS_TO_HOST, GPU_HOURS_WORD } from './lexicon/user-load.ts';
import { asksOptimizerStates } from './lexicon/optimizer-states.ts';

/**
 * The intent of a question from its wording, checked in a fixed order so that each phrasing has one
 * reading: a named collective wins, then serving (its words or figures: "serve", "TTFT", "2k prompt"), then a cluster's price with no model (rate), then memory, then "how many days" (time), then "cheapest" and "how
 * much would it cost" with no cluster, before "how many nodes", then a deadline with no cluster (nodes) or on a stated
 * cluster (time), then durations, then configurations, then estimates.
 */
const HELP = /^\s*(?:help|\?+|hi|hello|hey|usage|examples?|what can you do\??)?\s*$/;
const MEMORY = /\b(?:memory|mem|hbm|vram|fits?|oom|out of memory|how much (?:gpu )?ram)\b/;
/**
 * "How many GPU-hours", and as the GPU's name or the node counts them: "how many H100-hours", "how many A100 GPU-hours",
 * "how many node-hours" (QA: those were read as a nodes question with a default 30-day deadline).
 */
export const GPU_HOURS_COUNT = /\bhow many (?:[a-z]{1,3}\d{2,4}[a-z]*[\s-]*(?:gpu[\s-]*)?|gpu[\s-]*|node[\s-]*)hours\b/;
/** "How many node-hours": GPU-hours over the GPUs a node holds, said beside them. */
export const NODE_HOURS_COUNT = /\bhow many node[\s-]*hours\b/;
const TIME_COUNT = /\bhow many (?:days|weeks|hours|months)\b/;
/** "How many tokens can I train on 64 H100 in 2 weeks": the tokens a cluster trains in a time, a time question turned round. */
export const TOKENS_COUNT = /\bhow many (?:training )?tokens\b|\bhow much (?:training )?data\b/;
// "cheapest", "most cost-effective", "lowest cost", "minimize the cost": the time–cost curve's cheapest size.
const CHEAPEST = /\b(?:cheapest|least expensive|lowest[\s-]*(?:cost|price)|most (?:cost|price)[\s-]*(?:effective|efficient)|cost[\s-]*(?:optimal|effective|efficient)|min(?:imum|imal|imi[sz]e|imi[sz]ing)?\s+(?:the\s+)?(?:total\s+)?(?:cost|spend|gpu[\s-]*hours))\b|\b(?:fewest|least) gpu[\s-]*hours\b/;
// "how much would it cost", "how much to train", "what's the cost", "cost to train", "cost of llama3-70b", "training cost": with no
// cluster, the cheapest (or, with a deadline, the nodes that meet it). "Cost of" and "cost to train" are one question: were
// "cost of" left to the model-with-no-question-word reading below, it would plan a default 128 nodes, not the cheapest.
export const COST = /\bhow much\b.*\bcosts?\b|\bhow much (?:money|to train|for training)\b|\bcosts? (?:to train|of|for)\b|\btraining costs?\b|\bhow expensive\b|\bwhat(?:'s| is| would be| will be)? the (?:total )?cost\b|\btotal cost\b/;
// "What does 530B cost", "what would training 70b cost", "what's the budget for 405b": read as COST once a model is named
// ("what does 128 H100 nodes cost a day", with none, is no training question).
// "What's the price of training …", "how much is a run of …", "budget for …" too (QA: answered with no word of a price).
export const WHAT_COST = /\bwhat (?:does|do|would|will)\b.*\bcosts?\b|\bwhat(?:'s| is| would be)? the (?:total )?budget\b|\bwhat(?:'s| is| would be)? the (?:total )?price of\b|\bhow much (?:is|would be|will be) (?:a|one|the) (?:training )?run\b|\bbudget for\b/;
// Instances and VMs count nodes too ("how many p5.48xlarge", "how many p5 instances": lexicon/instances.ts).
const NODES = /\bhow (?:many|much)\b.*\b(?:nodes?|gpus?|machines?|servers?|racks?|boxes|hardware|instances?|vms?|[abhv]100s?|[gb]?[bh]200s?|p[345][a-z]*(?:\.\d+xlarge)?|a[23]-\w+-8g)\b|\b(?:nodes?|gpus?) (?:do i|would i|will i|are) need(?:ed)?\b|\b(?:nodes?|gpus?) (?:needed|required)\b|\bnumber of (?:nodes|gpus)\b|\bcluster size\b|\bhow (?:big|large) (?:a|of a|the) cluster\b/;
const HOW_MUCH = /\bhow much\b/;
/** "How many kWh", "how many megawatt-hours", "how much CO2": energy or emissions asked, which no plan models. */
const ENERGY_COUNT = /\bhow (?:many|much)\s+(?:[kmg]?wh|(?:kilo|mega|giga)?watt[\s-]*hours?|joules?|energy|electricity|power|co2e?|carbon|emissions?)\b/;
/** "How many H100 …", "how many nodes": the cluster asked for, whatever else is named. */
const HOW_MANY_HARDWARE = /\bhow many\b/;
// "需要多久" / "多长时间" (Chinese), "何日" / "どのくらい" (Japanese): how long.
const TIME = /多久|多长时间|何日|どのくらい|どれくらい|\bhow long\b|\btime to train\b|\btraining time\b|\bwhen will\b|\bduration\b|\bhow fast (?:can|will|would|does)\b.*\btrain\b|\bdays to train\b/;
const CONFIG = /\b(?:best|optimal|fastest|recommended|ideal|good|right)\b.*\b(?:config(?:uration)?s?|setup|strateg(?:y|ies)|parallelism|layout|plan|split|sharding|settings?|mapping)\b|\bhow (?:should|do|would|to) (?:i |we )?(?:shard|paralleli[sz]e|split|configure|lay out|map)\b|\b(?:config(?:uration)?|strategy|parallelism) for\b|\bsearch\b|\boptimi[sz]e\b/;
const ESTIMATE = /\b(?:step[\s-]*time|mfu|hfu|throughput|tokens?\s*(?:\/|per)\s*s(?:ec(?:ond)?)?|tflop\/?s|tflops|estimate|how fast|speed|performance|iteration time)\b/;

/** Facts only a serving question states (lexicon/serving.ts). */
const SERVING_FIGURES = ['promptTokens', 'sharedPrefixTokens', 'outputTokens', 'maxTokenSeconds', 'maxFirstTokenSeconds', 'requestsPerSecond', 'concurrency', 'speculative', 'kvCachePrecision'] as const;

/**
 * Words of generating text, which only inference does: "generate", "generating", "text generation", "generation speed"
 * ("generated tokens" is a serving figure already, lexicon/serving.ts). Not a bare "generation" ("the H100 generation").
 */
const GENERATES = /\bgenerat(?:e|es|ing)\b|\b(?:text|token)[\s-]+generation\b|\bgeneration[\s-]+(?:speed|throughput|rate|latency|tokens?)\b/;
/** "can I run llama3-70b on a single H200", "running 8b on one GPU": running a model on GPUs, said of no training, is inference. */
const RUNS = /\b(?:run|runs|running)(?:\s+[^\s,;:.?!]+){1,5}?\s+(?:on|locally)\b/;
/** "batch 1", "batch size of 1", "bs=1", "bsz 1": one sequence at a time, a serving batch (no training step takes one sequence). */
const BATCH_OF_ONE = /\b(?:batch(?:[\s-]*size)?|bsz?)\s*(?:of|=|:|is)?\s*1\b(?![.\d])/;
/** Words of a question about training, or asking what only training has: with one, none of the above reads it as inference. */
const SAYS_TRAINING = /\b(?:train\w*|pre[\s-]*train\w*|epochs?|step[\s-]*times?|iterations?|mfu|hfu|global[\s-]*batch|backward|gradients?|how long|gpu[\s-]*hours?)\b/;
/** Words of training itself (not "how long" or GPU-hours, which a generation job is asked in too). */
const SAYS_TRAINING_ITSELF = /\b(?:train\w*|pre[\s-]*train\w*|fine[\s-]*tun\w*|epochs?|step[\s-]*times?|mfu|hfu|global[\s-]*batch|backward|gradients?)\b/;
/**
 * Weights in a format a model is served in, not trained in: INT8 ("int8", "int8 weights"), "fp8 weights", "8-bit weights",
 * SmoothQuant's W8A8 and weight-only W8A16, "quantized". Post-training quantization is an inference technique (Xiao et al.
 * 2023, SmoothQuant, W8A8; Dettmers et al. 2022, LLM.int8()); FP8 training says "fp8" or "in fp8", never "fp8 weights". A bare
 * "8-bit" is not one: "8-bit Adam" is a training optimizer's state. QA: "how fast is llama 2 70b on one B200 with int8 weights"
 * was planned as training, "needs 1.26 TiB per GPU".
 */
const SERVED_WEIGHTS = /\b(?:(?:int8|fp8|8[\s-]*bits?)[\s-]+weights?|int8|w8a(?:8|16)|quanti[sz](?:ed|ation))\b/;
/** Words asking how fast: with served weights and no training word, how fast it serves. */
const ASKS_SPEED = /\bhow fast\b|\bspeed\b|\bthroughput\b|\btok(?:en)?s?\s*(?:\/|per)\s*s(?:ec(?:ond)?)?\b/;

/** Facts only a training question states: a token budget, a deadline, a GPU-hour or money budget, training's memory savers. */
const TRAINING_FIGURES = ['tokens', 'tokensPerParameter', 'batchTokens', 'deadlineSeconds', 'gpuHours', 'costBudget', 'zeroStage', 'recompute', 'distributedOptimizer', 'microBatchSize'] as const;

/**
 * GPU-hours asked of hosting ("how many GPU-hours to host llama3-70b", "… for a month"), with no word of training itself and
 * no training figure but a span (the time served, as "for a month" is to a service): a service's GPU-hours, its GPUs over the
 * hours it is up, never a training run's. "GPU-hours" reads as training only where nothing says what they are spent on
 * (SAYS_TRAINING). QA: "how many GPU-hours to host llama3-70b" was planned as a 15T-token training run. The cue, or undefined.
 */
function hostingGpuHours(text: string, stated: AskParameters): string | undefined {
  const hosting = ASKS_TO_HOST.exec(text);
  if (hosting === null || !GPU_HOURS_WORD.test(text) || SAYS_TRAINING_ITSELF.test(text)) return undefined;
  if (TRAINING_FIGURES.some((field) => field !== 'deadlineSeconds' && stated[field] !== undefined)) return undefined;
  return `"${hosting[0].trim()}"`;
}

/**
 * Why a question with no serving word is read as inference, in its words ("generate"), or undefined: generating text,
 * running a model on GPUs, tokens/s at a batch of one, the most requests held at once ("max batch"), or the speed of weights
 * quantized to serve ("how fast … with int8 weights"), with a model named and no training word or figure. Throughput
 * asked with neither ("tokens per second of llama3-70b on 64 h100") stays training, said so (answer/training-throughput.ts).
 */
export function inferenceCue(text: string, stated: AskParameters): string | undefined {
  if (stated.model === undefined && stated.customModel === undefined) return undefined;
  // Generating a number of tokens ("generate 1T tokens of synthetic data … how long") is still inference: only a word of
  // training itself keeps it training (the serving answer gives the time to generate them).
  const generates = GENERATES.exec(text);
  if (generates !== null && !SAYS_TRAINING_ITSELF.test(text) && stated.deadlineSeconds === undefined) return `"${generates[0]}"`;
  // "Cost per million tokens", "what does a million output tokens cost": the unit serving is priced in (an API's price
  // list), never a training run's.
  const perMillion = costUnit(text);
  if (perMillion !== undefined && !SAYS_TRAINING_ITSELF.test(text)) return `"${perMillion.written}"`;
  // GPU-hours of hosting: before the training words, whose "GPU-hours" they hold.
  const hostingHours = hostingGpuHours(text, stated);
  if (hostingHours !== undefined) return hostingHours;
  if (SAYS_TRAINING.test(text) || TRAINING_FIGURES.some((field) => stated[field] !== undefined)) return undefined;
  // Hosting or a chat named: a served model's setting (QA: "keep llama3-70b active for 1M users" was planned as training on
  // 15T tokens). Only after the training words and figures: a token budget or "how long" says a run is asked, and the users
  // are context ("how many H100 hours for a llama3-70b chat model on 2T tokens", "… 1M users waiting" were read as serving
  // and their figures dropped unsaid).
  const hosting = ASKS_OF_HOSTING.exec(text);
  if (hosting !== null) return `"${hosting[0].trim()}"`;
  // Users or requests counted: who a served model answers, except in a configuration question, where they say who asked
  // for it ("the best parallel config for llama3-70b on 64 H100 that our users asked for" is a training layout; a serving
  // one says "serve", SERVING_WORDS).
  const users = ASKS_OF_USERS.exec(text);
  if (users !== null && !CONFIG.test(text)) return `"${users[0].trim()}"`;
  const cluster = stated.nodes !== undefined || stated.gpus !== undefined || stated.gpu !== undefined;
  if (cluster && RUNS.test(text)) return `"run" a model on GPUs`;
  const one = BATCH_OF_ONE.exec(text);
  if (one !== null) return `"${one[0]}"`;
  // "Max batch", "max concurrent sequences", "how many sequences fit": the requests a replica holds at once, which only
  // serving has (training's batch is a micro or global one, and a training word or figure returned above; fine-tuning's
  // batch, which SAYS_TRAINING leaves to the cues above, is training's too).
  const most = ASKS_MOST_CONCURRENT.exec(text);
  if (most !== null && !SAYS_TRAINING_ITSELF.test(text)) return `"${most[0]}"`;
  // "How fast is llama 2 70b on one B200 with int8 weights": the speed of weights quantized to serve, which is serving's.
  const weights = SERVED_WEIGHTS.exec(text);
  if (weights !== null && ASKS_SPEED.test(text)) return `"${weights[0]}"`;
  return undefined;
}

/** The (normalised) text asks for help itself, or says nothing: "", "help", "hi", "usage …". */
export const isHelpRequest = (text: string): boolean => HELP.test(text) || /^\s*(?:help|usage)\b/.test(text);

/** A question asking what a term is: "what is", "what's", "what are", "explain", "define", "what does … mean". */
export const ASKS_DEFINITION = /^(?:what(?:'s|s| is| are)|explain|define|describe|tell me about|what does\b.*\bmean\b)/;

/**
 * "What is MFU", "what's a kv cache", "define all-reduce": a definition, no plan (answer/concept-question.ts says so). Only
 * with no model and no number: "what is the step time of llama3-8b on 8 h100" is a planning question worded so.
 */
const asksDefinition = (text: string, stated: AskParameters): boolean =>
  ASKS_DEFINITION.test(text) && stated.model === undefined && stated.customModel === undefined && !/\d/.test(text);

/** A serving question by its words or figures ("serve", "TTFT", "2k prompt"). */
const saysServing = (text: string, stated: AskParameters): boolean => SERVING_WORDS.test(text) || SERVING_FIGURES.some((field) => stated[field] !== undefined);

/** How a question that says no serving word was read as one ("generate" …), said back in the answer; undefined otherwise. */
export function inferenceReading(text: string, stated: AskParameters): string | undefined {
  if (saysServing(text, stated)) return undefined;
  const cue = inferenceCue(text, stated);
  return cue === undefined ? undefined : `read as serving (inference), from ${cue} with no training word; say "train" (e.g. "training throughput of …") for training`;
}

export function classify(text: string, stated: AskParameters): IntentName {
  if (isHelpRequest(text) || asksDefinition(text, stated)) return 'help';
  if (stated.op !== undefined) return 'collective';
  if (saysServing(text, stated)) return 'serving';
  if (inferenceCue(text, stated) !== undefined) return 'serving';
  const cluster = stated.nodes !== undefined || stated.gpus !== undefined;
  // A price and a cluster with no model: what running it costs ("what does it cost per day to run 128 H100 nodes at $2/GPU-hour").
  if (cluster && stated.pricePerGpuHour !== undefined && stated.model === undefined && stated.customModel === undefined) return 'rate';
  // "Optimizer state space", "adam states size": the memory the states take (lexicon/optimizer-states.ts), never a search.
  if (MEMORY.test(text) || asksOptimizerStates(text)) return 'memory';
  // "How many GPU-hours" with no cluster: the fewest any cluster spends (the cheapest), not a default 128 nodes' own.
  if (!cluster && GPU_HOURS_COUNT.test(text)) return 'cheapest';
  if (TIME_COUNT.test(text) || GPU_HOURS_COUNT.test(text)) return 'time';
  // Before NODES, whose "how many … h100" it would match and plan for 15T tokens, dropping the 64 GPUs named.
  if (TOKENS_COUNT.test(text)) return 'time';
  // "Cheapest" on a stated cluster is its best configuration's (config, below).
  if (!cluster && CHEAPEST.test(text)) return 'cheapest';
  // The cost on a stated cluster is its time to train's; before NODES, which "how much" would match.
  if (COST.test(text) || (WHAT_COST.test(text) && (stated.model !== undefined || stated.customModel !== undefined))) return cluster ? 'time' : stated.deadlineSeconds === undefined && stated.gpuHours === undefined && stated.costBudget === undefined ? 'cheapest' : 'nodes';
  // "How much is / does … on 512 H100", "how much energy … on 512 H100": asked of the cluster named (its time, GPU-hours and
  // cost), never the nodes some default deadline needs, which NODES' "how much … h100" would read.
  if (cluster && HOW_MUCH.test(text) && !HOW_MANY_HARDWARE.test(text)) return 'time';
  // "How many kWh … on 64 H100": energy asked of the cluster named (said not modelled), never the nodes a default deadline
  // needs, which NODES' "how many … h100" read (the 64 GPUs were dropped for 48).
  if (cluster && ENERGY_COUNT.test(text)) return 'time';
  if (NODES.test(text)) return 'nodes';
  // A deadline or a budget (GPU-hours or money) with no cluster asks for the cluster that meets it ("nodes to train 70b
  // in 1.5 months", "best setup for 70b in 2 weeks"): any other reading would plan a default cluster and drop it.
  if ((stated.deadlineSeconds !== undefined || stated.gpuHours !== undefined || stated.costBudget !== undefined) && !cluster) return 'nodes';
  // A deadline on a stated cluster ("can I train 405b in a month on 8k H100", "is 2 weeks enough on 64 H100"): whether the
  // cluster trains the tokens in time, its time to train held to the deadline; a config or step-time reading would drop it.
  if (stated.deadlineSeconds !== undefined && cluster) return 'time';
  if (TIME.test(text)) return 'time';
  // "Which is the best split: tp 8 pp 8 or tp 4 pp 16": the layouts asked are compared (compared-layouts.ts), not searched past.
  if (CONFIG.test(text)) return stated.layouts === undefined ? 'config' : 'estimate';
  if (ESTIMATE.test(text)) return 'estimate';
  if (stated.model === undefined && stated.customModel === undefined) return 'help';
  // A model and a cluster with no question word: the fixed configuration if one was given, else the best one.
  return stated.tensor !== undefined || stated.pipeline !== undefined || stated.layouts !== undefined ? 'estimate' : 'config';
}
