import {
  inferenceBoundsText, inferenceFailureText, inferenceRequestJsonSchema, retryInference, runInferenceWithRemedy, type IdleFleetJson,
  type InferencePointJson, type InferenceResponseJson,
} from '@trainplan/protocol';
import { formatBytes, formatGrouped, formatLoad, formatPercent, formatSeconds, formatWaitSeconds } from '@trainplan/units';
import type { Command } from '../command.ts';
import { printError } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import { printAnswer, requestCommand } from '../request-command.ts';
import type { FlagSpec, FlagValues } from '../flags.ts';
import { renderTable } from '../format/table.ts';
import { costHeader, PRICE_CURRENCY } from '../format/price-currency.ts';
import { count, defined, machineFields, MACHINE_FLAGS, money, number, numberIn, tokenLength, UNIT } from '../search-flags.ts';
import { usageLine } from '../format/usage-line.ts';
import { DEFAULT_ACCEPTANCE_RATE, DEFAULT_DRAFT_TOKENS } from '@trainplan/ask';
import { assumedSpeculationLine, speculativeFields } from './inference-speculative.ts';

const SYNOPSIS = 'trainplan inference --model ID --gpu ID --prompt N --output N [--max-token-ms L] [--max-ttft-s S] '
  + '[--batching static|continuous] [--prefill-chunk N] [--shared-prefix N] [--rate R] [--draft-model ID [--draft-tokens N] [--acceptance A]] [--gpus N] [--gpu-memory-utilization F] [--precision bf16|fp16|fp8] [--kv-cache-precision P] [--price P] [--json]';

const FLAGS: Record<string, FlagSpec> = {
  ...MACHINE_FLAGS,
  prompt: { type: 'string', valueName: 'a token count' },
  output: { type: 'string', valueName: 'a token count' },
  precision: { type: 'string', valueName: 'fp16, bf16 or fp8' },
  'kv-cache-precision': { type: 'string', valueName: 'fp16, bf16 or fp8' },
  'max-token-ms': { type: 'string', valueName: 'milliseconds per generated token' },
  'max-ttft-s': { type: 'string', valueName: 'seconds to the first token' },
  batching: { type: 'string', valueName: 'static or continuous' },
  'prefill-chunk': { type: 'string', valueName: 'a token count' },
  'shared-prefix': { type: 'string', valueName: 'a token count' },
  rate: { type: 'string', valueName: 'requests per second' },
  'draft-model': { type: 'string', valueName: 'a model preset id', preset: 'model' },
  'draft-tokens': { type: 'string', valueName: 'a token count' },
  acceptance: { type: 'string', valueName: 'a fraction above 0 and at most 1' },
  gpus: { type: 'string', valueName: 'a count of GPUs' },
  price: { type: 'string', valueName: 'a price per GPU-hour' },
  'gpu-memory-utilization': { type: 'string', valueName: 'a fraction of each GPU\'s memory, above 0 and at most 1' },
};

const USAGE = `${usageLine(SYNOPSIS)}

Serving a model on one replica of TP × PP GPUs: prefill (time to first token) and decode latency,
KV-cache memory, the largest batch that fits, tokens/s per GPU, the throughput-versus-latency
frontier, and the best plan under the latency bounds.

Options:
  -m, --model ID         model preset id
  -g, --gpu ID           GPU or system preset id
      --prompt N         prompt tokens per sequence (2k = 2048, 1M = 1,048,576, as in --seq-length)
      --output N         generated tokens per sequence
      --max-token-ms L   latency bound per generated token, in ms
      --max-ttft-s S     bound on the time to first token, in s
      --batching B       static (default): each batch is prefilled together, then decoded;
                         continuous: prompts join as sequences finish, every iteration (vLLM)
      --prefill-chunk N  continuous only: prefill at most N prompt tokens an iteration (chunked
                         prefill, as vLLM's max_num_batched_tokens); default: a prompt whole
      --shared-prefix N  continuous only: every prompt opens with the same N tokens (a system
                         prompt), cached once and not prefilled again (vLLM's prefix caching)
      --rate R           continuous only: requests per second to serve; the best plan is then
                         the one needing the fewest GPUs, a first token's wait for a slot counted,
                         within --max-ttft-s or by default 2 s (MLPerf's Llama 2 70B server bound)
      --draft-model ID, --draft-tokens N, --acceptance A
                         speculative decoding: a draft model (e.g. llama3.2-1b) proposes N tokens a
                         step (default ${DEFAULT_DRAFT_TOKENS}), each accepted with chance A (default ${DEFAULT_ACCEPTANCE_RATE}; it depends on
                         the workload: measure yours), as trainplan ask and the widget assume; the
                         assumed line says; one pipeline stage only
      --gpus N           GPUs to serve on: only TP × PP shapes dividing N, as N / (TP · PP) replicas
      --gpu-memory-utilization F
                         the fraction of each GPU's memory the server may use, the rest left
                         free (vLLM's flag of that name, 0.9 there); default 1, all of it
      --precision P      weights and KV cache: bf16, fp16 or fp8; default: bf16, or fp16 on a GPU
                         without BF16 tensor cores (V100)
      --kv-cache-precision P
                         the KV cache's own format when not the weights': fp8 (vLLM's
                         --kv-cache-dtype fp8) holds twice the sequences, halves the cache's reads;
                         it needs no FP8 tensor cores (bf16 weights with it serve on an A100)
      --price P          price of one GPU-hour, e.g. 2.5 for US$2.50: adds what a million generated
                         tokens cost (and with --rate, an hour of the GPUs), in the same currency
      --gpus-per-node N, --network ID   override the system's
  -i, --input FILE|-     the whole request as JSON instead of flags
      --json             print the JSON answer
  -h, --help             show this help

Exit status: 0 a plan meets the latency bounds (without bounds: some TP × PP shape fits in memory);
1 no plan does (the report names the closest; stderr says why, and what to change: the bounds or
GPUs the closest plan needs, FP8 weights where they help); 2 usage error or invalid request.

Examples:
  trainplan inference --model llama3-70b --gpu h100-sxm --prompt 2048 --output 512 --max-token-ms 50
  trainplan inference --model llama3-70b --gpu h100-sxm --prompt 2048 --output 512 \\
      --batching continuous --gpus 16 --max-token-ms 50
  trainplan inference --model llama3-8b --gpu h100-sxm --prompt 6144 --output 512 \\
      --batching continuous --prefill-chunk 2048 --max-token-ms 30
  trainplan inference --model llama3-70b --gpu h100-sxm --prompt 2048 --output 512 \\
      --batching continuous --gpu-memory-utilization 0.9 --shared-prefix 1024
  trainplan inference --model llama3-8b --gpu h100-sxm --prompt 2048 --output 256 \\
      --batching continuous --rate 100 --max-token-ms 30 --max-ttft-s 1
  trainplan inference --model llama3-70b --gpu h100-sxm --prompt 2048 --output 512 \\
      --draft-model llama3.2-1b
  trainplan inference --model llama3-70b --gpu h100-sxm --prompt 2048 --output 512 \\
      --batching continuous --kv-cache-precision fp8 --price 2.5
`;

const REQUEST_FLAGS = ['model', 'gpu', 'prompt', 'output', 'precision', 'kv-cache-precision', 'max-token-ms', 'max-ttft-s', 'batching', 'prefill-chunk', 'shared-prefix', 'rate', 'draft-model', 'draft-tokens', 'acceptance', 'gpus', 'gpu-memory-utilization', 'price', 'gpus-per-node', 'network'];

const MS = 1000;
const bound = (field: 'maxDecodeSecondsPerToken' | 'maxPrefillSeconds') =>
  inferenceRequestJsonSchema.properties?.[field]?.maximum ?? Number.POSITIVE_INFINITY;
/** The request's bound per generated token is in seconds; --max-token-ms gives it in ms. */
const MAX_TOKEN_MS = bound('maxDecodeSecondsPerToken') * MS;

/** A latency bound in its flag's unit: "50", or with that unit after it ("50ms" to --max-token-ms, "2s" to --max-ttft-s), as --days takes "30d". */
const latency = (v: FlagValues, flag: 'max-token-ms' | 'max-ttft-s'): number | string | undefined =>
  numberIn(v, flag, flag === 'max-token-ms' ? UNIT.milliseconds : UNIT.seconds);

/**
 * A latency bound checked in its flag's unit: the request's per-token field is in seconds, so the
 * schema would answer --max-token-ms "-5" with "got -0.005" and "abc" with a bound of 3600 (seconds)
 * beside a flag in ms; and its "expected a number" would leave --max-ttft-s 2ms without its unit.
 */
function boundProblem(v: FlagValues, flag: 'max-token-ms' | 'max-ttft-s', unit: string, max: number): string | undefined {
  const x = latency(v, flag);
  if (x === undefined || (typeof x === 'number' && x > 0 && x <= max)) return undefined;
  return `--${flag}: expected ${unit} > 0 and ≤ ${max.toLocaleString('en-US')}, got "${String(v[flag])}"`;
}
const boundsProblem = (v: FlagValues): string | undefined =>
  boundProblem(v, 'max-token-ms', 'milliseconds', MAX_TOKEN_MS) ?? boundProblem(v, 'max-ttft-s', 'seconds', bound('maxPrefillSeconds'));
/** Significant figures of a rate: 0.0123 and 1.23 tokens/s stay readable instead of rounding to 0 and 1. */
const RATE_DIGITS = 3;
const rate = (x: number): string => formatGrouped(x, RATE_DIGITS);
const plural = (n: number, one: string, many: string): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function fromFlags(v: FlagValues): Record<string, unknown> {
  const perToken = latency(v, 'max-token-ms');
  return {
    ...machineFields(v),
    ...defined({
      promptTokens: tokenLength(v, 'prompt'),
      outputTokens: tokenLength(v, 'output'),
      precision: v.precision,
      kvCachePrecision: v['kv-cache-precision'],
      batching: v.batching,
      gpus: count(v, 'gpus'),
      prefillChunkTokens: tokenLength(v, 'prefill-chunk'),
      requestsPerSecond: number(v, 'rate'),
      speculative: speculativeFields(v),
      sharedPrefixTokens: tokenLength(v, 'shared-prefix'),
      gpuMemoryUtilization: number(v, 'gpu-memory-utilization'),
      maxDecodeSecondsPerToken: typeof perToken === 'number' ? perToken / MS : perToken,
      maxPrefillSeconds: latency(v, 'max-ttft-s'),
      pricePerGpuHour: money(v, 'price'),
    }),
  };
}

/** What a million generated tokens cost on a point, with --price ("13.7"); a dash without a figure. */
const costCell = (p: InferencePointJson): string => (p.cost === undefined ? '—' : rate(p.cost.perMillionOutputTokens));

/** With one output token no token is decoded (the prefill yields it): no time per token is shown, a dash in its place. */
const perTokenCell = (p: InferencePointJson, outputTokens: number): string => (outputTokens > 1 ? formatSeconds(p.decodeStepSeconds) : '—');

/** The columns a request's tables carry beyond the figures every one has: a cost with --price, the GPUs a rate takes with --rate. */
interface Columns {
  readonly priced: boolean;
  readonly rated: boolean;
}

/** The GPUs a rate takes of a point (its load), a dash where no count of its replicas meets the first-token bound. */
const gpusCell = (p: InferencePointJson): string => (p.load === undefined ? '—' : formatGrouped(p.load.gpus));

// Both latencies as the headline says them (formatSeconds): a long prefill in minutes or hours ("24.4 min",
// not "1463 s"), a slow token in seconds ("1.46 s", not "1463.4 ms"), three figures whatever the unit.
const row = (p: InferencePointJson, columns: Columns, outputTokens: number): string[] => [
  String(p.tensor), String(p.pipeline), formatGrouped(p.batch), formatSeconds(p.prefillSeconds), perTokenCell(p, outputTokens),
  rate(p.tokensPerSecondPerGpu), ...(columns.rated ? [gpusCell(p)] : []),
  formatBytes(p.kvCacheBytesPerGpu), formatBytes(p.totalBytesPerGpu), formatGrouped(p.maxBatch),
  ...(columns.priced ? [costCell(p)] : []), '',
];
/**
 * The header. With a rate the headline's first token includes the wait for a slot (load.firstTokenSeconds) and the plan
 * is ranked by the GPUs the rate takes: the table's first token, a point's own prefill, is said to be without that wait,
 * and the GPUs are a column of their own.
 */
const header = (columns: Columns): string[] => [
  'TP', 'PP', 'batch', columns.rated ? 'first token (no queue)' : 'first token', 'per token', 'tokens/s/GPU', ...(columns.rated ? ['GPUs'] : []),
  'KV cache', 'memory', 'max batch', ...(columns.priced ? [costHeader('cost/M tokens')] : []), '',
];
/** A TP × PP shape that cannot serve: dashes in the figures, the reason in the last column. */
const unservable = (tensor: number, pipeline: number, message: string, columns: Columns): string[] =>
  [String(tensor), String(pipeline), ...Array<string>(header(columns).length - 3).fill('—'), message];

/** A table of points (or of shapes' rows), with a cost column when the request gave --price and a GPUs column with --rate. */
function pointTable(rows: readonly string[][], columns: Columns): string[] {
  const head = header(columns);
  return renderTable([head, ...rows], { align: [...head.slice(0, -1).map(() => 'right' as const), 'left'] });
}

/**
 * Under the tables with a rate: what their GPUs and first token are, beside the headline's; with a price, which GPUs a
 * row's cost is of (the protocol's cost: with a load, an hour of the GPUs the rate takes over the tokens the rate
 * generates in it, so their idle share is paid for; without one, the row's own GPUs at full load), since the two bases
 * would otherwise read as one (QA: a row that cannot serve the rate looked cheapest).
 */
const rateLegend = (columns: Columns): string[] => (columns.rated
  ? ['', 'GPUs: the fewest that serve the rate as replicas of the row, the first token within its bound with',
    'the wait for a slot (— where no count does); first token (no queue): without that wait',
    ...(columns.priced ? ['cost/M tokens: of the GPUs the rate takes, idle share included; where GPUs is —, of the row\'s own GPUs at full load'] : [])]
  : []);

/**
 * The latency bounds a request sets, in words ("≤ 30.0 ms per token"), or undefined when it sets none.
 * `--input -` may carry any JSON (null, a number): runInference names what is wrong with it.
 */
const boundsText = (request: unknown): string | undefined =>
  (typeof request === 'object' && request !== null ? inferenceBoundsText(request) : undefined);

/**
 * The best plan in words: "TP 8 · PP 1 · batch 64 · continuous batching", and on the request's GPUs
 * "2 replicas of TP 4 · PP 1 · batch 64 each · static batching", with the tokens/s of all of them.
 */
function bestText(p: InferencePointJson, outputTokens: number): string {
  const prefill = [
    ...(p.prefillChunkTokens === undefined ? [] : [`prefill in chunks of ${formatGrouped(p.prefillChunkTokens)} tokens`]),
    ...(p.sharedPrefixTokens === undefined ? [] : [`a ${formatGrouped(p.sharedPrefixTokens)}-token prefix shared and cached`]),
  ].join(', ');
  const spec = p.speculation === undefined ? ''
    : ` · speculative decoding: ${rate(p.speculation.tokensPerStep)} tokens a step (${p.speculation.draftTokens} drafted, ${formatPercent(p.speculation.acceptanceRate, 0)} accepted)`;
  const kv = p.kvCachePrecision === undefined ? '' : ` · ${p.kvCachePrecision.toUpperCase()} KV cache`;
  const batching = `${p.batching ?? 'static'} batching${prefill === '' ? '' : ` (${prefill})`}${kv}${spec}`;
  const perGpu = `${rate(p.tokensPerSecondPerGpu)} tokens/s/GPU`;
  const perToken = [
    ...(outputTokens > 1 ? [`${formatSeconds(p.decodeStepSeconds)} per token`] : [`the token in ${formatSeconds(p.prefillSeconds)}`]),
    // The report's first cost: its currency said here (the GPUs' hourly cost with --rate follows on the next line).
    // With a rate the cost is of the GPUs it takes, partly idle (the next line says how loaded), not of this throughput.
    ...(p.cost === undefined ? [] : [`${rate(p.cost.perMillionOutputTokens)} per million generated tokens (${PRICE_CURRENCY}${p.load === undefined ? '' : ', at the rate\'s load'})`]),
  ].join(', ');
  if (p.replicas === undefined) return `TP ${p.tensor} · PP ${p.pipeline} · batch ${formatGrouped(p.batch)} · ${batching}: ${perGpu}, ${perToken}`;
  const gpus = p.replicas * p.gpus;
  return `${plural(p.replicas, 'replica', 'replicas')} of TP ${p.tensor} · PP ${p.pipeline} · batch ${formatGrouped(p.batch)} each · ${batching}: `
    + `${perGpu} (${rate(p.tokensPerSecondPerGpu * gpus)} tokens/s on the ${plural(gpus, 'GPU', 'GPUs')}), ${perToken}`;
}

/**
 * With --rate: "20 requests/s take 3 replicas (24 GPUs), 80% loaded: 12.0 ms on average for a slot, the first
 * token in 250 ms".
 */
function loadText(p: InferencePointJson): string[] {
  const load = p.load;
  if (load === undefined) return [];
  return [`${rate(load.requestsPerSecond)} requests/s take ${plural(load.replicas, 'replica', 'replicas')} (${plural(load.gpus, 'GPU', 'GPUs')}), `
    + `${formatLoad(load.utilization)} loaded: ${formatWaitSeconds(load.queueSeconds)} on average for a slot, the first token in ${formatSeconds(load.firstTokenSeconds)}`
    + `${p.cost?.perHour === undefined ? '' : `; their GPUs cost ${rate(p.cost.perHour)} an hour`}`, ...lightLoadText(p)];
}

/**
 * Under half loaded, a replica's slots are mostly empty: ρ·b requests in flight on average (Little's law: the busy
 * share of its b slots), so the batch's per-token time and tokens/s per GPU shown are a ceiling, not what it runs at.
 */
function lightLoadText(p: InferencePointJson): string[] {
  const load = p.load;
  if (load === undefined || load.utilization >= 0.5) return [];
  const inFlight = load.utilization * p.batch;
  return [`  at ${formatPercent(load.utilization, 0)} load a replica has about ${inFlight < 1 ? 'one or none' : rate(inFlight)} of its ${formatGrouped(p.batch)} slots `
    + 'busy on average: the per-token time above is its full batch\'s, a ceiling (a token comes sooner at the few it runs), and its tokens/s per GPU the full batch\'s too'];
}

/**
 * What holds the best plan's batch where it is. At the largest batch that fits, memory: "batch 131 is the most that fits
 * in memory: per GPU, the weights (32.9 GiB), its KV cache (25.6 GiB) and the activations of one forward pass over
 * 268,288 tokens (18.9 GiB; static batching prefills the batch's prompts together), with the runtime's 2 GiB: 79.4 GiB
 * of 79.6 GiB, too little left for another sequence". Below it, the bounds (or, with a rate, the GPUs it takes).
 */
function batchBoundText(p: InferencePointJson, bounds: string | undefined): string[] {
  if (p.batch < p.maxBatch && p.chunkBatchLimit !== undefined && p.batch >= p.chunkBatchLimit) {
    return [`batch ${formatGrouped(p.batch)} of the ${formatGrouped(p.maxBatch)} that fit in memory: the ${formatGrouped(p.prefillChunkTokens ?? 0)}-token `
      + 'prefill chunk holds it there, its prompts prefilled no faster than its sequences finish (a larger --prefill-chunk lifts it)'];
  }
  if (p.batch < p.maxBatch) {
    return bounds === undefined ? [] : [`batch ${formatGrouped(p.batch)} of the ${formatGrouped(p.maxBatch)} that fit in memory: the bounds (${bounds}) hold it there`];
  }
  if (p.activationBytesPerGpu === undefined || p.forwardTokens === undefined) return [];
  const runtime = p.totalBytesPerGpu - p.weightsBytesPerGpu - p.kvCacheBytesPerGpu - p.activationBytesPerGpu;
  const pass = p.batching === 'continuous' ? 'an iteration\'s decode and admitted prompts' : 'static batching prefills the batch\'s prompts together';
  return [`batch ${formatGrouped(p.batch)} is the most that fits in memory: per GPU, the weights (${formatBytes(p.weightsBytesPerGpu)}), its KV cache `
    + `(${formatBytes(p.kvCacheBytesPerGpu)}) and the activations of one forward pass over ${formatGrouped(p.forwardTokens)} tokens `
    + `(${formatBytes(p.activationBytesPerGpu)}; ${pass}), with the runtime's ${formatBytes(runtime)}: ${formatBytes(p.totalBytesPerGpu)} of `
    + `${formatBytes(p.usableBytesPerGpu ?? p.capacityBytes)}, too little left for another sequence`];
}

/** "each GPU may use 71.6 GiB of its 79.6 GiB (90%)", when the request holds memory back (gpuMemoryUtilization). */
function usableText(a: Extract<InferenceResponseJson, { ok: true }>): string[] {
  const p = a.best ?? a.byShape.flatMap((s) => (s.ok ? [s.largestBatch] : []))[0];
  if (p?.usableBytesPerGpu === undefined) return [];
  return [`each GPU may use ${formatBytes(p.usableBytesPerGpu)} of its ${formatBytes(p.capacityBytes)} (${formatPercent(p.usableBytesPerGpu / p.capacityBytes, 0)}): the largest batches fit in that`];
}

/**
 * Where the best plan meets the bounds only with its replicas kept under half busy (the answer's idleFleet, said first among the
 * warnings), it is not headed as the best: "only replicas under 50% loaded meet the bounds (≤ 2.00 s to the first token, 50 requests/s)".
 */
const idleHeadline = (idle: IdleFleetJson, bounds: string | undefined): string =>
  `only replicas under ${formatPercent(idle.loadFloor, 0)} loaded meet the bounds${bounds === undefined ? '' : ` (${bounds})`}`;

/** Under an idle fleet's load: what serves the rate at a real load (its remedy, in flag terms for a request from flags). */
const idleRemedyText = (a: Extract<InferenceResponseJson, { ok: true }>): string[] =>
  (a.idleFleet?.remedy === undefined ? [] : [a.idleFleet.remedy.message]);

/**
 * The report; `bounds` is the request's latency bounds in words (boundsText), absent when it sets none; `rated` when
 * the request gives a rate (the tables then show the GPUs it takes; without `rated`, when some point carries a load).
 */
export function formatInferenceReport(a: Extract<InferenceResponseJson, { ok: true }>, bounds?: string, rated?: boolean): string {
  const headline = bounds === undefined ? 'highest throughput (no latency bound given)' : `best under the bounds (${bounds})`;
  const shown = [...a.frontier, ...a.byShape.flatMap((s) => (s.ok ? [s.largestBatch] : []))];
  const columns: Columns = { priced: shown.some((p) => p.cost !== undefined), rated: rated ?? shown.some((p) => p.load !== undefined) };
  const lines = [
    `serving ${plural(a.promptTokens, 'prompt token', 'prompt tokens')} + ${plural(a.outputTokens, 'output token', 'output tokens')} per sequence`,
    ...usableText(a),
    ...(a.warnings ?? []).map((w) => `⚠ ${w}`),
    // Where no shape serves at all, the first warning above says so (as `unservable`): no headline restates it.
    ...(a.best ? [`${a.idleFleet === undefined ? headline : idleHeadline(a.idleFleet, bounds)}: ${bestText(a.best, a.outputTokens)}`,
      ...loadText(a.best), ...idleRemedyText(a), ...batchBoundText(a.best, bounds)]
      : a.unservable === undefined ? [`no plan meets the latency bounds${bounds === undefined ? '' : ` (${bounds})`}${a.closest ? `: ${a.closest.why}` : ''}`] : []),
    '',
    'largest batch per TP × PP:',
    ...pointTable(a.byShape.map((s) => (s.ok ? row(s.largestBatch, columns, a.outputTokens) : unservable(s.tensor, s.pipeline, s.message, columns))), columns),
    // No shape serves (unservable), so no point lies on the frontier: a header over an empty table would say
    // nothing the warning above has not, so the section is left out.
    ...(a.frontier.length === 0 ? [] : ['', 'throughput-versus-latency frontier:', ...pointTable(a.frontier.map((p) => row(p, columns, a.outputTokens)), columns)]),
    ...rateLegend(columns),
  ];
  return `${lines.join('\n')}\n`;
}

export const inferenceCommand: Command = requestCommand({
  name: 'inference',
  summary: 'serving latency, KV cache, largest batch and tokens/s per GPU for TP and PP choices',
  synopsis: SYNOPSIS,
  usage: USAGE,
  flags: FLAGS,
  requestFlags: REQUEST_FLAGS,
  fromFlags,
  missing: {
    prompt: 'the prompt tokens per sequence, e.g. --prompt 2048',
    output: 'the generated tokens per sequence, e.g. --output 512',
    // Speculative decoding: --draft-tokens or --acceptance asks for it, and the draft is never assumed (inference-speculative.ts).
    'draft-model': 'the draft model\'s preset id, e.g. --draft-model llama3.2-1b',
  },
  check: boundsProblem,
  answer(request, v, io) {
    // The answer with its remedy where it has no plan, as the API gives it (and --json prints it).
    const answer = runInferenceWithRemedy(request);
    const bounds = boundsText(request);
    // FP8 weights refused on a GPU without FP8 tensor cores: the protocol's message says what serves instead.
    // γ and α taken by default are said as search's assumed batch is: above the report, or on stderr beside the JSON.
    const assumed = assumedSpeculationLine(v);
    const shown = printAnswer(io, v, answer, (a: Extract<InferenceResponseJson, { ok: true }>) =>
      `${assumed === undefined ? '' : `${assumed}\n`}${formatInferenceReport(a, bounds, typeof request.requestsPerSecond === 'number')}`);
    if (!shown) return EXIT.usage;
    if (v.json === true && assumed !== undefined) io.stderr(`trainplan: ${assumed}\n`);
    if (!shown.best) {
      // No shape serves at all (memory, divisibility, or none divides --gpus): the latency bounds are not to blame.
      const unservable = shown.unservable === undefined ? undefined : (io.inFlagTerms?.(shown.unservable) ?? shown.unservable);
      // The report names the closest plan too, but stderr is what a script, or a reader of --json, sees: it says why and what to
      // change, the answer's remedy with its fields written as the flags that set them (a request from flags) or as in the JSON.
      printError(io, inferenceFailureText(shown, request, { fromFlags: io.inFlagTerms !== undefined, unservable, bounds }, retryInference(request)));
      return EXIT.infeasible;
    }
    return EXIT.ok;
  },
});
