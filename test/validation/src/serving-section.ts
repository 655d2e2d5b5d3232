import { COMPUTE_CALIBRATION } from '@trainplan/planner';
import { FP8_OVER_16_BIT_GEMM_RATE } from '@trainplan/search';
import { iterationLawMs, NIM_ROWS, NIM_SOURCE, predictServing, runningSequences, saturated, type ServingPrediction, type ServingRow } from './nim-serving.ts';
import type { ValidationSection } from './sections.ts';
import { FIRST_TOKEN_ROWS, predictFirstTokenMs, predictThroughput, THROUGHPUT_ROWS, TRTLLM_SOURCE, type Machine } from './trtllm-serving.ts';

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const n = (x: number) => Math.round(x).toLocaleString('en-US');

export interface ServingScore {
  readonly row: ServingRow;
  readonly predicted: ServingPrediction;
  readonly ttftError: number;
  readonly itlError: number;
  readonly throughputError: number;
}

/** Every row below saturation, predicted and scored (signed relative errors). */
export function scoreServing(): ServingScore[] {
  return NIM_ROWS.filter((r) => !saturated(r)).map((row) => {
    const p = predictServing(row);
    return { row, predicted: p, ttftError: p.ttftMs / row.ttftMs - 1, itlError: p.itlMs / row.itlMs - 1, throughputError: p.tokensPerSecond / row.tokensPerSecond - 1 };
  });
}

const meanAbs = (xs: readonly number[]) => xs.reduce((a, x) => a + Math.abs(x), 0) / xs.length;
/** The span of the errors' sizes, "3–24%" (rounded to whole per cent). */
const range = (errors: readonly number[]) => {
  const sizes = errors.map((e) => Math.round(Math.abs(e) * 100));
  return `${Math.min(...sizes)}–${Math.max(...sizes)}%`;
};

const machine = (r: Machine): string => `${r.model === 'llama2-7b' ? 'Llama 2 7B' : 'Llama 2 70B'}, ${r.gpu === 'h100-sxm' ? 'H100' : 'A100'} ${r.precision.toUpperCase()}, TP ${r.tensor}`;

/** TensorRT-LLM's batch-1 first tokens and static-batch throughputs, predicted (signed relative errors). */
export function scoreTrtllm() {
  return {
    firstToken: FIRST_TOKEN_ROWS.map((row) => {
      const predictedMs = predictFirstTokenMs(row);
      return { row, predictedMs, error: predictedMs / row.ttftMs - 1 };
    }),
    throughput: THROUGHPUT_ROWS.map((row) => {
      const predicted = predictThroughput(row);
      return { row, predicted, error: predicted / row.tokensPerSecondPerGpu - 1 };
    }),
  };
}

function trtllmMarkdown(): { markdown: string[]; summary: string; readme: string } {
  const { firstToken, throughput } = scoreTrtllm();
  const byLength = (p: number) => firstToken.filter((s) => s.row.promptTokens === p);
  const longDecodes = throughput.filter((s) => s.row.model === 'llama2-70b' && s.row.outputTokens === 2048);
  const close = throughput.filter((s) => !longDecodes.includes(s));
  const markdown = ['### Static batching and the first token: TensorRT-LLM', '',
    `Source: ${TRTLLM_SOURCE.title} (${TRTLLM_SOURCE.url}): a batch prefilled together and decoded to its end. The prediction is`,
    '`trainplan inference` with static batching at the row\'s batch and TP; throughput is b × O tokens over the batch\'s prefill (which',
    'gives the first token) and O − 1 decode steps, per GPU.', '',
    '| model, GPU, TP | prompt | first token measured | predicted | error |', '|---|---|---|---|---|',
    ...firstToken.map((s) => `| ${machine(s.row)} | ${n(s.row.promptTokens)} | ${ms(s.row.ttftMs)} ms | ${ms(s.predictedMs)} ms | ${pct(s.error)} |`),
    '', '| model, GPU, TP | batch | prompt + output | tokens/s/GPU measured | predicted | error |', '|---|---|---|---|---|---|',
    ...throughput.map((s) => `| ${machine(s.row)} | ${s.row.batch} | ${n(s.row.promptTokens)} + ${n(s.row.outputTokens)} | ${n(s.row.tokensPerSecondPerGpu)} | ${n(s.predicted)} | ${pct(s.error)} |`),
    '', 'Reading the errors:',
    `- A 2,048-token prompt\'s prefill: A100 FP16 within ${byLength(2048).filter((s) => s.row.gpu === 'a100-80gb').map((s) => pct(s.error)).join(' and ')} (the Ampere constants, fitted on`,
    `  training runs, carry over); H100 FP8 ${byLength(2048).filter((s) => s.row.gpu === 'h100-sxm').map((s) => pct(s.error)).join(' and ')}: slow, as against NIM above (the FP8 GEMM efficiency, a serving engine's unmeasured here).`,
    `- A 128-token prompt is a few milliseconds of fixed costs (launches, all-reduces, the first decode), which the model gets off by ${range(byLength(128).map((s) => s.error))}.`,
    `- Throughput: the Llama 2 7B rows (no GQA) and the 70B rows with 128 output tokens are within ${Math.ceil(Math.max(...close.map((s) => Math.abs(s.error))) * 100)}%. The 70B rows that decode`,
    `  2,048 tokens are predicted ${longDecodes.map((s) => (1 + s.error).toFixed(1)).sort().join(', ')}× too fast. Llama 2 70B shares each key/value head among 8 query heads (GQA), which the model`,
    '  reads once per group. These v0.6.1 measurements predate TensorRT-LLM\'s XQA generation kernel for MQA/GQA ("2.4x more Llama-70B',
    '  throughput within the same latency budget", the project\'s news of 2024-01-30); a kernel reading the cache once per query head',
    '  moves 8 times the bytes, which long decodes of large batches are bound by. The model describes the engines after it.', ''];
  const fp16 = firstToken.filter((s) => s.row.gpu === 'a100-80gb');
  const longPrefill = (gpu: string) => byLength(2048).filter((s) => s.row.gpu === gpu).map((s) => pct(s.error)).join(' and ');
  const slower = longDecodes.map((s) => 1 + s.error);
  const readme = '- Against TensorRT-LLM\'s published static-batching runs (Llama 2 7B and 70B), the first token of a 2,048-token prompt is '
    + `${longPrefill('a100-80gb')} on A100 FP16 and ${longPrefill('h100-sxm')} on H100 FP8 (the FP8 GEMM efficiency again, see NIM); the Llama 2 7B rows and `
    + `the 70B rows with 128 output tokens are within ${Math.ceil(Math.max(...close.map((s) => Math.abs(s.error))) * 100)}% in throughput, while Llama 2 `
    + `70B's long decodes ran ${Math.min(...slower).toFixed(1)}–${Math.max(...slower).toFixed(1)}× slower than predicted on those engines, which predate `
    + 'TensorRT-LLM\'s GQA generation kernel (XQA).';
  return { markdown, readme, summary: `TensorRT-LLM first token: A100 FP16 MAE ${(meanAbs(fp16.map((s) => s.error)) * 100).toFixed(1)}%, H100 FP8 MAE ${(meanAbs(firstToken.filter((s) => s.row.gpu === 'h100-sxm').map((s) => s.error)) * 100).toFixed(1)}%; throughput MAE ${(meanAbs(throughput.map((s) => s.error)) * 100).toFixed(1)}%` };
}


export const servingSection: ValidationSection = {
  name: 'serving',
  run() {
    const markdown = ['## Serving: continuous batching against NVIDIA NIM', '',
      `Source: ${NIM_SOURCE.title} (${NIM_SOURCE.url}). The prediction is \`trainplan inference\` with \`--batching continuous\`,`,
      'the concurrency as the batch, TP 2 · PP 1, FP8 weights and KV cache. The predicted throughput is the closed loop\'s: concurrency ×',
      'output tokens over (TTFT + (output − 1) × ITL), which gives the published throughput back from the published TTFT and ITL',
      '(51.6 against 51.67 tokens/s at concurrency 1). No target is set for serving; the figures are reported as measured.', '',
      '| prompt + output | concurrency | TTFT measured | predicted | error | ITL measured | predicted | error | tokens/s measured | predicted | error |',
      '|---|---|---|---|---|---|---|---|---|---|---|'];
    const scores = scoreServing();
    const alone = scores.filter((s) => s.row.concurrency === 1);
    for (const s of scores) {
      const p = s.predicted;
      markdown.push(`| ${n(s.row.promptTokens)} + ${n(s.row.outputTokens)} | ${s.row.concurrency} | ${ms(s.row.ttftMs)} ms | ${ms(p.ttftMs)} ms | ${pct(s.ttftError)} `
        + `| ${ms(s.row.itlMs)} ms | ${ms(p.itlMs)} ms | ${pct(s.itlError)} | ${n(s.row.tokensPerSecond)} | ${n(p.tokensPerSecond)} | ${pct(s.throughputError)} |`);
    }
    const itl = meanAbs(scores.map((s) => s.itlError));
    const ttft = meanAbs(scores.map((s) => s.ttftError));
    const rate = meanAbs(scores.map((s) => s.throughputError));
    const full = NIM_ROWS.filter(saturated);
    const capacity = predictServing(full[0]!);
    const running = full.map(runningSequences);
    markdown.push('', `Mean absolute error over these ${scores.length} rows: ITL ${(itl * 100).toFixed(1)}%, TTFT ${(ttft * 100).toFixed(1)}%, throughput ${(rate * 100).toFixed(1)}%.`, '',
      'Reading the errors:',
      '- Per token at concurrency 1 the step is the weights streaming from HBM (35 GB per GPU in FP8), which the roofline gets within a few per cent.',
      '- The first token at concurrency 1 is one prompt\'s prefill. Serving costs FP8 GEMMs at the 16-bit constant times the FP8 kernels\' measured',
      `  rate over the 16-bit ones' (${COMPUTE_CALIBRATION.hopper.gemmPeakFraction} × ${FP8_OVER_16_BIT_GEMM_RATE.toFixed(3)} = ${(COMPUTE_CALIBRATION.hopper.gemmPeakFraction * FP8_OVER_16_BIT_GEMM_RATE).toFixed(2)} of the FP8 peak; search serving-calibration.ts), not training's fitted`,
      `  ${COMPUTE_CALIBRATION.hopper.fp8GemmPeakFraction}, which carries Transformer Engine's casts and scaling: ${range(alone.map((s) => s.ttftError))} slow here (21–30% with training's, 2026-11-30). TensorRT-LLM`,
      '  can also run the prompt\'s attention in FP8 with an FP8 KV cache, which the model keeps in 16 bits.',
      '- Under load the time between a sequence\'s tokens is the decode step plus the (c − 1)/O prompts the other sequences admit in each iteration, each prefilled whole, so the',
      '  prefill\'s error carries into it. With the measured costs in its place (concurrency 1\'s ITL and TTFT) the same law gives:', '',
      '| concurrency | ITL measured | law with measured costs: ITL(1) + ((c − 1)/O)·TTFT(1) | error |', '|---|---|---|---|',
      ...scores.filter((s) => s.row.promptTokens === 5000 && s.row.concurrency > 1).map((s) => {
        const law = iterationLawMs(s.row)!;
        return `| ${s.row.concurrency} | ${ms(s.row.itlMs)} ms | ${ms(law)} ms | ${pct(law / s.row.itlMs - 1)} |`;
      }),
      '',
      '  The law holds within a few per cent, as it should if each prompt is prefilled whole in one iteration (TensorRT-LLM\'s default,',
      '  chunked context off; the NIM\'s own setting is not published), hiding almost none of it under the decode\'s weight reads, as the',
      '  model has it: the error under load is the prefill\'s kernel cost.',
      '- At concurrency 25 and 50 the predicted TTFT is low while the concurrency-1 one is high: there the measured first token also',
      '  waits behind other prompts admitted ahead of it, a queue the model leaves out (it waits out one running iteration only).', '',
      `From concurrency ${full[0]!.concurrency} on the time to first token is seconds (${full.map((r) => `${(r.ttftMs / 1000).toFixed(0)} s`).join(', ')}) and the rate stays at`,
      `${full.map((r) => n(r.tokensPerSecond)).join(', ')} tokens/s: requests queue, and the server decodes ${running.map((r) => r.toFixed(0)).join(', ')} sequences at once`,
      '(tokens/s × seconds per token). These rows are not scored. The model\'s largest batch at 5,000 + 500 tokens is',
      `${capacity.maxBatchPaged} with a paged cache holding each sequence\'s mean occupancy (vLLM\'s admission) and ${capacity.maxBatchReserved} with every sequence\'s`,
      'full context reserved, which is what TensorRT-LLM\'s default GUARANTEED_NO_EVICT scheduler does. TensorRT-LLM also gives the KV cache',
      `only 0.9 of the memory left after the weights by default (\`free_gpu_memory_fraction\`), about ${Math.round(0.9 * capacity.maxBatchReserved)} sequences, against the`,
      `${Math.round(Math.max(...running))} measured; the NIM\'s own settings are not published.`, '');
    const trt = trtllmMarkdown();
    markdown.push(...trt.markdown);
    const loaded = scores.filter((s) => s.row.promptTokens === 5000 && s.row.concurrency > 1);
    const concurrencies = scores.map((s) => s.row.concurrency);
    const lawWorst = Math.max(...loaded.map((s) => Math.abs(iterationLawMs(s.row)! / s.row.itlMs - 1)));
    return {
      markdown,
      readme: [
        `- Serving (continuous batching) against NVIDIA NIM's published Llama 3.3 70B FP8 runs on 2 H100 (TP 2), concurrency `
        + `${Math.min(...concurrencies)}–${Math.max(...concurrencies)}: alone, a token within ${range(alone.map((s) => s.itlError))} (the weights streaming `
        + `from HBM); the prompt's prefill is ${range(alone.map((s) => s.ttftError))} slow (FP8 GEMMs at the 16-bit constant times the FP8 kernels' `
        + `measured ratio; 21–30% with training's fitted FP8 constant on 2026-11-30), and under load that error carries into the time per token (${loaded.map((s) => pct(s.itlError)).join(', ')} at concurrency `
        + `${loaded.map((s) => s.row.concurrency).join(', ')}; ${(itl * 100).toFixed(1)}% on average over ${scores.length} rows, throughput `
        + `${(rate * 100).toFixed(1)}%). The iteration law itself, fed the measured prefill, gives the measured time per token within `
        + `${(lawWorst * 100).toFixed(1)}%.`,
        trt.readme,
      ],
      summary: [trt.summary, `NIM Llama 3.3 70B FP8 TP2, ${scores.length} rows: ITL MAE ${(itl * 100).toFixed(1)}%, TTFT MAE ${(ttft * 100).toFixed(1)}%, throughput MAE ${(rate * 100).toFixed(1)}%`],
    };
  },
};
