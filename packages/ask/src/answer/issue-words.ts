import { countOf } from '@trainplan/units';
import type { FieldIssue } from '@trainplan/protocol';
import { formatIssue } from '@trainplan/protocol';
import type { AnswerKind } from './answer-types.ts';

/**
 * A protocol's refusal of a request the bot built, worded for the chat user who asked: the wire field names what
 * they said ("requestsPerSecond: expected a number > 0, got 0" → "a request rate must be above 0 requests/s").
 * A field with no words here is named by its path in lower-case words ("model.layers" → "model layers"), never as
 * the wire spells it.
 */

/** What a wire field is in a question's words, and the unit its bounds are in: a noun counted ("token": "1 token", "2 tokens"), or as written after the number ("requests/s"). */
interface FieldWords {
  name: string;
  noun?: string;
  unit?: string;
}

/** By the issue's path, array indices dropped ("batches[0]" → "batches"). */
const WORDS: Readonly<Record<string, FieldWords>> = {
  // Serving (the inference request).
  requestsPerSecond: { name: 'a request rate', unit: 'requests/s' },
  maxDecodeSecondsPerToken: { name: 'a time per output token', unit: 's' },
  maxPrefillSeconds: { name: 'a time to first token', unit: 's' },
  promptTokens: { name: 'a prompt', noun: 'token' },
  outputTokens: { name: 'an output length', noun: 'token' },
  sharedPrefixTokens: { name: 'a shared prefix', noun: 'token' },
  batches: { name: 'the concurrent requests', unit: 'per replica' },
  tensor: { name: 'TP (tensor parallelism)' },
  pipeline: { name: 'PP (pipeline parallelism)' },
  gpus: { name: 'the GPU count', noun: 'GPU' },
  precision: { name: 'the weights\' precision' },
  kvCachePrecision: { name: 'the KV cache precision' },
  batching: { name: 'the batching' },
  'speculative.draftModel': { name: 'the draft model' },
  'speculative.draftTokens': { name: 'the draft tokens', unit: 'a step' },
  'speculative.acceptanceRate': { name: 'an acceptance rate' },
  // Training (scenario, search and nodes requests).
  model: { name: 'the model' },
  'cluster.gpu': { name: 'the GPU' },
  'cluster.network': { name: 'the network' },
  parallelism: { name: 'the parallel layout' },
  'parallelism.tensor': { name: 'TP (tensor parallelism)' },
  'parallelism.pipeline': { name: 'PP (pipeline parallelism)' },
  'parallelism.context': { name: 'CP (context parallelism)' },
  'parallelism.data': { name: 'DP (data parallelism)' },
  'parallelism.virtualStages': { name: 'virtual pipeline stages' },
  'parallelism.sequenceParallel': { name: 'SP (sequence parallelism)' },
  'parallelism.recompute': { name: 'recompute' },
  'parallelism.recomputeLayers': { name: 'recompute' },
  'parallelism.distributedOptimizer': { name: 'the distributed optimizer' },
  'parallelism.zeroStage': { name: 'the ZeRO stage' },
  'parallelism.schedule': { name: 'the pipeline schedule' },
  'parallelism.overlapTensorParallelComm': { name: 'TP communication overlap' },
  'training.precision': { name: 'the precision' },
  'training.attentionKernel': { name: 'the attention kernel' },
  'training.globalBatchSize': { name: 'a global batch', noun: 'sequence' },
  'training.microBatchSize': { name: 'a micro-batch', noun: 'sequence' },
  'training.seqLength': { name: 'a sequence length', noun: 'token' },
  'training.tokens': { name: 'the training tokens', noun: 'token' },
  'training.dropout': { name: 'dropout' },
  // The search's constraints: the question's own settings, each held exactly (search-request.ts constraintsOf).
  'constraints.tensorSizes': { name: 'TP (tensor parallelism)' },
  'constraints.pipelineSizes': { name: 'PP (pipeline parallelism)' },
  'constraints.contextSizes': { name: 'CP (context parallelism)' },
  'constraints.virtualStageCounts': { name: 'virtual pipeline stages' },
  'constraints.microBatchSizes': { name: 'a micro-batch', noun: 'sequence' },
  'constraints.recompute': { name: 'recompute' },
  'constraints.sequenceParallel': { name: 'SP (sequence parallelism)' },
  'constraints.sharding': { name: 'the optimizer sharding' },
  tokens: { name: 'the training tokens', noun: 'token' },
  nodes: { name: 'the node count', noun: 'node' },
  'cluster.nodes': { name: 'the node count', noun: 'node' },
  // Not a wire field: the racks a question names, which it sends as their GPUs (whole-counts.ts).
  racks: { name: 'the rack count', noun: 'rack' },
  'cluster.gpus': { name: 'the GPU count', noun: 'GPU' },
  'cluster.gpusPerNode': { name: 'GPUs per node' },
  days: { name: 'a deadline', noun: 'day' },
  gpuHours: { name: 'a GPU-hour budget', unit: 'GPU-hours' },
  pricePerGpuHour: { name: 'a price per GPU-hour' },
  budget: { name: 'a budget' },
  // A collective.
  size: { name: 'a message size', noun: 'byte' },
  op: { name: 'the collective' },
  algorithm: { name: 'the algorithm' },
  gpu: { name: 'the GPU' },
  system: { name: 'the system' },
  network: { name: 'the network' },
  gpusPerNode: { name: 'GPUs per node' },
};

/** The words of a wire field ("training.globalBatchSize": a global batch, counted in sequences), for the checks ask makes itself (whole-counts.ts). */
export const fieldWords = (path: string): Readonly<FieldWords> | undefined => WORDS[path];

/** A field with no words in WORDS, named by its path in lower-case words: "constraints.fooBars[0]" → "constraints foo bars". */
const pathWords = (path: string): string =>
  path.replace(/\[\d+\]/g, '').split('.').filter((s) => s !== '').map((s) => s.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()).join(' ');

/** The protocol's range message: "expected a number > 0, got 0", "expected an integer from 1 to 1,024, got 2048". */
// An upper bound may carry its unit and human form ("≤ 1,099,511,627,776 bytes (1.00 TiB)"): the chat words its own.
const RANGE = /^expected (a number|an integer) (?:(>|≥|≤) (-?[\d,.]+)|from (-?[\d,.]+) to (-?[\d,.]+))(?: [a-z/]+(?: \([^)]*\))?)?, got (.+)$/;

/**
 * A value past a bound said back as asked: grouped ("2,000,000 asked"), as JavaScript writes one past its exact digits ("1e+308
 * asked"), or, past a double's largest (a count of 309 digits and more reads as Infinity), that it is: never "Infinity".
 */
export function askedWords(x: number): string {
  if (!Number.isFinite(x)) return `a number past ${Number.MAX_VALUE.toPrecision(2)} asked`;
  return `${String(x).includes('e') ? String(x) : x.toLocaleString('en-US', { maximumFractionDigits: 20 })} asked`;
}

/** "a request rate must be above 0 requests/s", "TP must be at most 1,024 (2,048 asked)"; undefined when the message is no range. */
function rangeWords(words: FieldWords, message: string): string | undefined {
  const m = RANGE.exec(message);
  if (m === null) return undefined;
  const [, noun, op, bound, from, to, gotText = ''] = m;
  // The protocol groups large numbers it says back ("got 100,000").
  const got = gotText.replace(/,/g, '');
  // "1 token", "1,024 tokens", "0 requests/s", "1,024": the bound as counted in the question's words.
  const counted = (x: string | undefined): string => {
    const n = Number((x ?? '').replace(/,/g, ''));
    return words.noun !== undefined ? countOf(n, words.noun) : `${n.toLocaleString('en-US')}${words.unit === undefined ? '' : ` ${words.unit}`}`;
  };
  const range = op === '>' ? `above ${counted(bound)}` : op === '≥' ? `at least ${counted(bound)}` : op === '≤' ? `at most ${counted(bound)}`
    : `from ${Number((from ?? '').replace(/,/g, '')).toLocaleString('en-US')} to ${counted(to)}`;
  // A count past a double (Infinity) is no fraction: it is said too large (askedWords).
  const whole = noun === 'an integer' && Number.isFinite(Number(got)) && !Number.isInteger(Number(got)) ? 'a whole number, ' : '';
  // Under a lower bound the asker knows what they gave (0, or less); past an upper one it is said back.
  const asked = op === '≤' || (op === undefined && Number(got) > Number((to ?? '').replace(/,/g, ''))) ? ` (${Number.isNaN(Number(got)) ? `${got} asked` : askedWords(Number(got))})` : '';
  return `${words.name} must be ${whole}${range}${asked}`;
}

/** The protocol's refusal of a field only continuous batching plans (inference.ts CONTINUOUS_ONLY), asked with static batching. */
const CONTINUOUS_ONLY = /: give batching "continuous", or leave \S+ out$/;

/** One issue in a chat user's words; a field with none, named by its path in words (pathWords). */
function issueWords(issue: FieldIssue): string {
  const words = WORDS[issue.path.replace(/\[\d+\]/g, '')];
  if (words === undefined) return formatIssue({ ...issue, path: pathWords(issue.path) });
  if (CONTINUOUS_ONLY.test(issue.message)) {
    return `static batching cannot plan ${words.name}: only continuous batching does; ask without "static batching", or without ${words.name}`;
  }
  return rangeWords(words, issue.message) ?? `${words.name}: ${issue.message}`;
}

/**
 * Issues in a chat user's words. A NaN or Infinity is no value anyone typed, and a field missing (or a cluster of
 * neither nodes nor GPUs) is one the bot could not derive from a bad one ("on 0 nodes" leaves no default global
 * batch, "tp 0" no replica to count GPUs of: defaults.ts): either is left out beside the field that caused it.
 */
export function issuesWords(issues: readonly FieldIssue[]): string[] {
  const typed = issues.filter((i) => !/, got (?:-?Infinity|NaN)$/.test(i.message) && !/^missing required field|, got neither$/.test(i.message));
  return (typed.length > 0 ? typed : issues).map(issueWords);
}

/**
 * A refusal's message for a chat user: an invalid request's issues, or an indivisible layout's ("tp 3" for 64 heads),
 * in words, joined as the protocol joins them; any other failure (out of memory) keeps its message.
 */
export function refusalWords(result: { reason: string; message: string; issues?: readonly FieldIssue[] }): string {
  const issues = result.issues ?? [];
  return (result.reason !== 'invalid' && result.reason !== 'indivisible') || issues.length === 0 ? result.message : issuesWords(issues).join('; ');
}

/**
 * The protocol's reasons that refuse a request as asked: figures out of range ('invalid'), a layout that does not divide
 * the model ('indivisible'), an algorithm the machine cannot run ('unavailable'). The others (out of memory, no cluster
 * meets the deadline, the search budget spent) answer the question, though not as hoped.
 */
const REFUSING_REASONS: ReadonlySet<string> = new Set(['invalid', 'indivisible', 'unavailable']);

/** The kind of reply a protocol failure makes: a refusal of the question as asked, or an answer that it does not work. */
export const failureKind = (reason: string): AnswerKind => (REFUSING_REASONS.has(reason) ? 'refusal' : 'answer');
