import { runInference, type InferenceResponseJson } from '@trainplan/protocol';

/**
 * Published serving measurements: NVIDIA NIM for LLMs, benchmarking guide 1.0.0, "Performance"
 * (https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance), Llama-3.3-70b-instruct results, NIM
 * 1.8.0 (TensorRT-LLM underneath), 2 × H100 80G, FP8, TP 2. AIPerf holds a fixed number of requests in
 * flight (a closed loop: a client sends its next request when its previous one ends), so the concurrency
 * is the batch the server decodes until it saturates. Its throughput is output tokens per second over all
 * clients. Llama 3.3 70B has Llama 3.1 70B's shape, which is the `llama3-70b` preset's (80 layers, 8,192
 * wide, 64 heads, 8 key/value heads).
 */
export const NIM_SOURCE = {
  title: 'NVIDIA NIM for LLMs benchmarking guide 1.0.0, "Performance": Llama-3.3-70b-instruct, NIM 1.8.0, 2 × H100 80G, FP8, TP 2',
  url: 'https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance',
  model: 'llama3-70b',
  gpu: 'h100-sxm',
  tensor: 2,
  precision: 'fp8',
} as const;

export interface ServingRow {
  readonly promptTokens: number;
  readonly outputTokens: number;
  readonly concurrency: number;
  /** Mean time to first token, as published. */
  readonly ttftMs: number;
  /** Mean inter-token latency, as published. */
  readonly itlMs: number;
  /** Output tokens per second over all clients, as published. */
  readonly tokensPerSecond: number;
}

const table = (promptTokens: number, outputTokens: number, rows: readonly (readonly [number, number, number, number])[]): ServingRow[] =>
  rows.map(([concurrency, ttftMs, itlMs, tokensPerSecond]) => ({ promptTokens, outputTokens, concurrency, ttftMs, itlMs, tokensPerSecond }));

/** The 5,000-in / 500-out table whole, and the first row of the 500-in / 2,000-out table (the rest is not in our copy). */
export const NIM_ROWS: readonly ServingRow[] = [
  ...table(5000, 500, [
    [1, 406.77, 18.58, 51.67], [5, 546.7, 21.83, 218.48], [25, 688.69, 38.75, 623.4], [50, 834.51, 59.73, 814.37],
    [100, 7996.25, 92.91, 917.26], [150, 34794.22, 92.86, 920.9], [200, 61680.22, 93.06, 920.54], [250, 88605.32, 93.2, 920.12],
  ]),
  ...table(500, 2000, [[1, 47.77, 18.91, 52.85]]),
];

/**
 * A row whose first token comes more than ten times later than the same table's at concurrency 1 has requests
 * queueing for admission: the server decodes fewer sequences than the clients keep in flight, so the concurrency
 * is not its batch. Here the 5,000-token table's TTFT goes 0.41, 0.55, 0.69, 0.83 s up to concurrency 50, then 8.0 s at 100.
 */
export function saturated(row: ServingRow): boolean {
  const alone = NIM_ROWS.find((r) => r.promptTokens === row.promptTokens && r.outputTokens === row.outputTokens && r.concurrency === 1);
  return alone !== undefined && row.ttftMs > 10 * alone.ttftMs;
}

/** The sequences a saturated server decodes at once: tokens per second × seconds per token (Little's law over the decode). */
export const runningSequences = (row: ServingRow): number => (row.tokensPerSecond * row.itlMs) / 1000;

export interface ServingPrediction {
  readonly ttftMs: number;
  readonly itlMs: number;
  /** A closed loop's rate: concurrency × O tokens each TTFT + (O − 1) × ITL. */
  readonly tokensPerSecond: number;
  /** The largest batch that fits: paged at the mean occupancy (continuous), or each sequence's full context reserved (static). */
  readonly maxBatchPaged: number;
  readonly maxBatchReserved: number;
}

/** The one point planned (no latency bound: the batch given is the best), or why there is none. */
function plan(row: ServingRow, batching: 'static' | 'continuous', batch: number) {
  const answer: InferenceResponseJson = runInference({
    model: NIM_SOURCE.model, cluster: { gpu: NIM_SOURCE.gpu }, precision: NIM_SOURCE.precision, promptTokens: row.promptTokens,
    outputTokens: row.outputTokens, tensor: [NIM_SOURCE.tensor], pipeline: [1], batches: [batch], batching,
  });
  if (!answer.ok || answer.best === undefined) throw new Error(`no ${batching} plan at batch ${batch} for ${JSON.stringify(row)}: ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.best;
}

/** The continuous-batching plan at the row's concurrency as the batch, on the source's GPUs, TP and precision. */
export function predictServing(row: ServingRow): ServingPrediction {
  const point = plan(row, 'continuous', row.concurrency);
  // Every sequence's full context reserved (a static plan's KV cache a sequence) beside an in-flight engine's activations, those of
  // one iteration (the continuous point's): a static batch's own largest batch also prefills all its prompts in one pass.
  const reserved = plan(row, 'static', 1);
  const runtime = point.totalBytesPerGpu - point.weightsBytesPerGpu - point.kvCacheBytesPerGpu - (point.activationBytesPerGpu ?? 0);
  const reservedBatch = Math.floor((point.capacityBytes - point.weightsBytesPerGpu - runtime - (point.activationBytesPerGpu ?? 0)) / reserved.kvCacheBytesPerGpu);
  const ttftMs = point.prefillSeconds * 1000;
  const itlMs = point.decodeStepSeconds * 1000;
  return {
    ttftMs, itlMs,
    tokensPerSecond: (row.concurrency * row.outputTokens) / ((ttftMs + (row.outputTokens - 1) * itlMs) / 1000),
    maxBatchPaged: point.maxBatch,
    maxBatchReserved: reservedBatch,
  };
}

/**
 * The continuous-batching iteration law with the measured costs in place of the model's: between two of a sequence's
 * tokens runs the decode step of concurrency 1 plus the prompts the other c − 1 slots admit, (c − 1)/O an iteration,
 * each prefilled whole at its measured cost (concurrency 1's TTFT); its own prompt is its time to first token, not
 * between its tokens (continuous-batching.ts interTokenSeconds). ITL(c) = ITL(1) + ((c − 1)/O)·TTFT(1). It tests the
 * law (whole prompts, their prefill hiding almost nothing under the decode) apart from the kernel costs; undefined
 * without a concurrency-1 row.
 */
export function iterationLawMs(row: ServingRow): number | undefined {
  const alone = NIM_ROWS.find((r) => r.promptTokens === row.promptTokens && r.outputTokens === row.outputTokens && r.concurrency === 1);
  return alone === undefined ? undefined : alone.itlMs + ((row.concurrency - 1) / row.outputTokens) * alone.ttftMs;
}
