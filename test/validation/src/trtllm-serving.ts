import { runInference, type InferenceResponseJson } from '@trainplan/protocol';

/**
 * Published static-batching measurements: NVIDIA TensorRT-LLM, docs/source/performance.md ("Performance of
 * TensorRT-LLM"), as of v0.6.1: gptSessionBenchmark, which prefills a batch together and decodes it to the end
 * (static batching). First-token latency at batch 1 is v0.5's, throughput (output tokens/s per GPU) v0.6.1's.
 * The engines were built for Llama 2 7B and 70B (the `llama2-7b`, `llama2-70b` presets), H100 with FP8
 * weights and KV cache (`--enable_fp8 --fp8_kv_cache`), A100 in FP16.
 */
export const TRTLLM_SOURCE = {
  title: 'NVIDIA TensorRT-LLM, docs/source/performance.md (v0.5 first-token latency, v0.6.1 throughput), gptSessionBenchmark',
  url: 'https://github.com/NVIDIA/TensorRT-LLM/blob/138f96d45f90b9667426f7c47297d8c06bafac73/docs/source/performance.md',
} as const;

export interface Machine { readonly model: 'llama2-7b' | 'llama2-70b'; readonly gpu: 'h100-sxm' | 'a100-80gb'; readonly precision: 'fp8' | 'fp16'; readonly tensor: number }

export interface FirstTokenRow extends Machine { readonly promptTokens: number; readonly ttftMs: number }
export interface ThroughputRow extends Machine { readonly batch: number; readonly promptTokens: number; readonly outputTokens: number; readonly tokensPerSecondPerGpu: number }

const H100_7B: Machine = { model: 'llama2-7b', gpu: 'h100-sxm', precision: 'fp8', tensor: 1 };
const A100_7B: Machine = { model: 'llama2-7b', gpu: 'a100-80gb', precision: 'fp16', tensor: 1 };
const h100_70b = (tensor: number): Machine => ({ model: 'llama2-70b', gpu: 'h100-sxm', precision: 'fp8', tensor });
const a100_70b = (tensor: number): Machine => ({ model: 'llama2-70b', gpu: 'a100-80gb', precision: 'fp16', tensor });

/** "Low Latency": batch 1, time to the first token. */
export const FIRST_TOKEN_ROWS: readonly FirstTokenRow[] = [
  { ...H100_7B, promptTokens: 128, ttftMs: 7 }, { ...H100_7B, promptTokens: 2048, ttftMs: 36 },
  { ...h100_70b(4), promptTokens: 128, ttftMs: 26 }, { ...h100_70b(4), promptTokens: 2048, ttftMs: 109 },
  { ...A100_7B, promptTokens: 128, ttftMs: 16 }, { ...A100_7B, promptTokens: 2048, ttftMs: 133 },
  { ...a100_70b(4), promptTokens: 128, ttftMs: 47 }, { ...a100_70b(4), promptTokens: 2048, ttftMs: 377 },
];

const tp = (m: Machine, batch: number, promptTokens: number, outputTokens: number, tokensPerSecondPerGpu: number): ThroughputRow =>
  ({ ...m, batch, promptTokens, outputTokens, tokensPerSecondPerGpu });

/** "Peak Throughput", the Llama rows. */
export const THROUGHPUT_ROWS: readonly ThroughputRow[] = [
  tp(H100_7B, 768, 128, 128, 19_694), tp(H100_7B, 112, 128, 2048, 6818), tp(H100_7B, 80, 2048, 128, 2244), tp(H100_7B, 48, 2048, 2048, 2740),
  tp(h100_70b(2), 1024, 128, 128, 2657), tp(h100_70b(4), 480, 128, 2048, 1486), tp(h100_70b(2), 96, 2048, 128, 306), tp(h100_70b(2), 64, 2048, 2048, 547),
  tp(A100_7B, 384, 128, 128, 5586), tp(A100_7B, 60, 128, 2048, 1928), tp(A100_7B, 52, 2048, 128, 591), tp({ ...A100_7B, tensor: 2 }, 64, 2048, 2048, 782),
  tp(a100_70b(4), 1280, 128, 128, 670), tp(a100_70b(4), 240, 128, 2048, 525), tp(a100_70b(4), 120, 2048, 128, 79),
];

/** The static plan at the row's batch (no bound: the batch given is the best). */
function plan(m: Machine, batch: number, promptTokens: number, outputTokens: number) {
  const answer: InferenceResponseJson = runInference({
    model: m.model, cluster: { gpu: m.gpu }, precision: m.precision, promptTokens, outputTokens, tensor: [m.tensor], pipeline: [1], batches: [batch],
  });
  if (!answer.ok || answer.best === undefined) throw new Error(`no static plan for ${m.model} on ${m.gpu} at batch ${batch}: ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.best;
}

/** The predicted first-token latency of a batch-1 row, in ms. */
export const predictFirstTokenMs = (r: FirstTokenRow): number => plan(r, 1, r.promptTokens, 1).prefillSeconds * 1000;

/**
 * The predicted output tokens/s per GPU of a static batch: b·O tokens over the batch's prefill (which yields the
 * first token) and O − 1 decode steps, on TP GPUs.
 */
export function predictThroughput(r: ThroughputRow): number {
  const p = plan(r, r.batch, r.promptTokens, r.outputTokens);
  return (r.batch * r.outputTokens) / (p.prefillSeconds + (r.outputTokens - 1) * p.decodeStepSeconds) / r.tensor;
}
