import { describe, expect, it } from 'vitest';
import { iterationLawMs, NIM_ROWS, predictServing, runningSequences, saturated } from '../src/nim-serving.ts';
import { scoreServing, scoreTrtllm } from '../src/serving-section.ts';

/**
 * Continuous batching against NVIDIA NIM's published Llama 3.3 70B FP8 TP 2 measurements (docs/validation.md,
 * "Serving"). No accuracy target is set for serving; the error guards hold the report's measured figures
 * (ITL 15.1%, TTFT 19.3% mean absolute error) so that a change which worsens them is seen.
 */
const ITL_GUARD = 0.16;
const TTFT_GUARD = 0.2;

describe('serving validation: NIM, Llama 3.3 70B, FP8, TP 2 on 2 H100', () => {
  it('the rows scored are those whose first token is not queued: the 5,000-token table up to concurrency 50, and the 500-token row', () => {
    expect(NIM_ROWS.filter((r) => !saturated(r)).map((r) => [r.promptTokens, r.concurrency])).toEqual([[5000, 1], [5000, 5], [5000, 25], [5000, 50], [500, 1]]);
  });

  it('the published throughput is the closed loop\'s: concurrency × output over TTFT + (output − 1) × ITL, within 1 %', () => {
    for (const r of NIM_ROWS.filter((row) => !saturated(row))) {
      const loop = (r.concurrency * r.outputTokens) / ((r.ttftMs + (r.outputTokens - 1) * r.itlMs) / 1000);
      expect(Math.abs(loop / r.tokensPerSecond - 1)).toBeLessThan(0.01);
    }
  });

  it('alone, a token is the FP8 weights streaming from HBM: within 10 % of the measured inter-token latency', () => {
    for (const s of scoreServing().filter((x) => x.row.concurrency === 1)) expect(Math.abs(s.itlError)).toBeLessThan(0.1);
  });

  it('the iteration law, with the measured decode step and prefill, gives the measured time per token within 5 %', () => {
    const rows = NIM_ROWS.filter((r) => !saturated(r) && r.concurrency > 1);
    expect(rows.length).toBe(3);
    for (const r of rows) expect(Math.abs(iterationLawMs(r)! / r.itlMs - 1)).toBeLessThan(0.05);
  });

  it('the per-token latency grows with the concurrency, as measured', () => {
    const rows = NIM_ROWS.filter((r) => r.promptTokens === 5000 && !saturated(r));
    const predicted = rows.map((r) => predictServing(r).itlMs);
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i]!.itlMs).toBeGreaterThan(rows[i - 1]!.itlMs);
      expect(predicted[i]).toBeGreaterThan(predicted[i - 1]!);
    }
  });

  it('mean absolute errors stay at the report\'s: ITL and TTFT', () => {
    const scores = scoreServing();
    const mae = (xs: number[]) => xs.reduce((a, x) => a + Math.abs(x), 0) / xs.length;
    expect(mae(scores.map((s) => s.itlError))).toBeLessThan(ITL_GUARD);
    expect(mae(scores.map((s) => s.ttftError))).toBeLessThan(TTFT_GUARD);
  });

  it('the largest batch the model fits is no smaller than the ~86 sequences the saturated server decoded at once', () => {
    const full = NIM_ROWS.filter(saturated);
    const ran = Math.max(...full.map(runningSequences));
    expect(ran).toBeGreaterThan(80);
    const p = predictServing(full[0]!);
    expect(p.maxBatchReserved).toBeGreaterThanOrEqual(ran);
    expect(p.maxBatchPaged).toBeGreaterThan(p.maxBatchReserved);
  });
});

describe('serving validation: TensorRT-LLM static batching (Llama 2 7B and 70B on A100 FP16 and H100 FP8)', () => {
  const { firstToken, throughput } = scoreTrtllm();

  it('a 2,048-token prompt on A100 in FP16: the first token within 10 %, the training-fitted Ampere constants carrying over', () => {
    const rows = firstToken.filter((s) => s.row.gpu === 'a100-80gb' && s.row.promptTokens === 2048);
    expect(rows).toHaveLength(2);
    for (const s of rows) expect(Math.abs(s.error)).toBeLessThan(0.1);
  });

  it('a 2,048-token prompt on H100 in FP8 is predicted slow, by at most the report\'s 27 % (the FP8 prefill gap NIM shows too)', () => {
    const rows = firstToken.filter((s) => s.row.gpu === 'h100-sxm' && s.row.promptTokens === 2048);
    expect(rows).toHaveLength(2);
    for (const s of rows) {
      expect(s.error).toBeGreaterThan(0); // met when fixed: update the report's reading
      expect(s.error).toBeLessThan(0.3);
    }
  });

  it('Llama 2 7B (no GQA): every static-batch throughput within 25 %', () => {
    const rows = throughput.filter((s) => s.row.model === 'llama2-7b');
    expect(rows).toHaveLength(8);
    for (const s of rows) expect(Math.abs(s.error)).toBeLessThan(0.25);
  });

  it('Llama 2 70B decoding 2,048 tokens is predicted far faster than these pre-XQA engines ran: the known GQA gap, held', () => {
    const rows = throughput.filter((s) => s.row.model === 'llama2-70b' && s.row.outputTokens === 2048);
    expect(rows).toHaveLength(3);
    for (const s of rows) expect(s.error).toBeGreaterThan(0.5);
    for (const s of throughput.filter((x) => x.row.model === 'llama2-70b' && x.row.outputTokens === 128)) expect(Math.abs(s.error)).toBeLessThan(0.25);
  });
});
