import { COMPUTE_CALIBRATION } from '@trainplan/planner';
import { describe, expect, it } from 'vitest';
import {
  GPUS, gpuSummary, nvidiaPerfSection, profileFor, scoreNvidiaPerf, SOURCE_MAPE_TARGET, WORST_ROW_GUARD,
} from '../src/nvidia-perf-section.ts';
import { MACHINES, PUBLISHED_RUNS, PUBLISHED_SOURCES, publishedRow, stepSecondsOf } from '../src/nvidia-perf-summary.ts';
import { VALIDATION_SECTIONS } from '../src/sections.ts';

/**
 * NVIDIA's published Blackwell and H100 FP8 throughput (Megatron-Bridge and NeMo performance tables): rows no constant
 * was fitted on, Blackwell on Hopper's constants, with the gradients reduced in 16 bits as the recipes set it. Each GPU is
 * held to issue #2's 8% MAPE target for a source where it meets it (GB200, B200), and to its worst row as measured when
 * the section was added, rounded up to the next 5%, where it missed it then (B200, H100).
 */
const rows = scoreNvidiaPerf();
const section = nvidiaPerfSection.run();

describe('out of sample: NVIDIA\'s published Blackwell and FP8 throughput', () => {
  it('scores every verified row: 6 on GB200, 8 on B200, 12 on H100, each on its own GPU', () => {
    // Counted by hand in nvidia-perf-summary.ts: GB200 2 Megatron-Bridge + 4 NeMo 25.04; B200 2 + 6 NeMo 25.02;
    // H100 5 Megatron-Bridge + 1 NeMo 25.02 + 6 NeMo 24.07.
    expect(rows).toHaveLength(26);
    expect(GPUS.map((gpu) => rows.filter((r) => r.run.gpu === gpu).length)).toEqual([6, 8, 12]);
    for (const r of rows) {
      expect(r.scored.estimate.resolved.gpu).toBe(r.run.gpu);
      expect(r.scored.estimate.resolved.network).toBe(MACHINES[r.run.gpu].network);
    }
  });

  it('reads a published throughput as the step time it implies: gbs · s / (tokens/s/GPU · GPUs)', () => {
    // Llama 3 8B on 8 GB200 (Megatron-Bridge 25.11): 128 × 8,192 = 1,048,576 tokens a step at 31,508 × 8 = 252,064
    // tokens/s is 4.160 s.
    const llama8b = PUBLISHED_RUNS[0]!;
    expect(llama8b.tokensPerSecondPerGpu).toBe(31508);
    expect(stepSecondsOf(llama8b)).toBeCloseTo(4.15997, 4);
    expect(publishedRow(llama8b, 0).measured.step_time_s).toBe(stepSecondsOf(llama8b));
  });

  it('each GPU\'s MAPE, recomputed from the published tokens/s and the estimate\'s own tokens/s, is the section\'s', () => {
    // Step-time error from throughputs: predicted step / published step − 1 = published tokens/s ÷ predicted tokens/s − 1,
    // with the predicted tokens/s per GPU the estimate's cluster throughput over the run's GPUs.
    for (const gpu of GPUS) {
      const mine = rows.filter((r) => r.run.gpu === gpu)
        .map((r) => r.run.tokensPerSecondPerGpu / (r.scored.estimate.tokensPerSecond / r.run.gpus) - 1);
      const mape = mine.reduce((s, e) => s + Math.abs(e), 0) / mine.length;
      const bias = mine.reduce((s, e) => s + e, 0) / mine.length;
      expect(gpuSummary(rows, gpu).mape).toBeCloseTo(mape, 12);
      expect(gpuSummary(rows, gpu).bias).toBeCloseTo(bias, 12);
      expect(section.markdown.join('\n')).toContain(`| ${mine.length} | ${(100 * mape).toFixed(1)}% |`);
    }
  });

  // GB200: 7.55% when the section was added. B200: 9.7% then, with Megatron's fp32 main gradients; 6.8% with the 16-bit
  // reduction its recipes set (NeMo's performance scripts, Megatron-Bridge's configs: nvidia-perf-summary.ts).
  it.each(['gb200', 'b200'] as const)('%s meets the target of a source: MAPE ≤ 8%%', (gpu) => {
    expect(gpuSummary(rows, gpu).mape).toBeLessThanOrEqual(SOURCE_MAPE_TARGET);
    expect(section.markdown.join('\n')).toMatch(new RegExp(`^\\| ${gpu === 'gb200' ? 'GB200' : 'B200'} \\|.*\\| target ≤ 8\\.0% met \\(asserted\\)`, 'm'));
  });

  // B200 missed the 8% target when the section was added: MAPE 9.7% (2026-11-29), worst row Nemotron-4 340B at +20.4%;
  // the guard is that worst rounded up to the next 5%, 25%, kept now that it meets the target. H100 (FP8) misses it:
  // MAPE 8.7% then (8.1% with the recipes' 16-bit gradients), worst row GPT-3 175B (NeMo 25.02) at +25.7% (+24.7%);
  // guard 30%. docs/validation.md says the same.
  it.each([['b200', 0.25], ['h100-sxm', 0.3]] as const)('%s: no row beyond %f (regression guard)', (gpu, bound) => {
    expect(WORST_ROW_GUARD[gpu]).toBe(bound);
    for (const r of rows.filter((x) => x.run.gpu === gpu)) expect(Math.abs(r.scored.error)).toBeLessThanOrEqual(bound);
  });

  it('h100-sxm misses the 8% target, and the section says so', () => {
    expect(gpuSummary(rows, 'h100-sxm').mape).toBeGreaterThan(SOURCE_MAPE_TARGET);
    expect(section.markdown.join('\n')).toMatch(/^\| H100 \|.*\| target ≤ 8\.0% \*\*missed\*\*/m);
  });

  it('runs every row with the gradients fused into a 16-bit buffer, as each source\'s recipe reduces them, and says where that was read', () => {
    for (const [i, run] of PUBLISHED_RUNS.entries()) {
      expect(profileFor(run).scenario(publishedRow(run, i)).training.gradientAccumulation).toBe('fused-16-bit');
      expect(profileFor(run).assumptions).toContain(PUBLISHED_SOURCES[run.source].gradients);
    }
    const md = section.markdown.join('\n');
    for (const source of Object.values(PUBLISHED_SOURCES)) expect(md).toContain(`Gradients reduced in ${source.gradients}.`);
    expect(PUBLISHED_SOURCES['nemo-24.07'].gradients).toContain('The 24.07 table\'s own recipes were not read');
  });

  it('the 16-bit gradients halve each row\'s held gradients against Megatron\'s fp32 main gradients (ZeRO-3\'s are 16-bit either way)', () => {
    const fp32 = scoreNvidiaPerf('fused');
    rows.forEach((r, i) => {
      const [sixteen, thirtyTwo] = [r.scored.estimate.memory.gradientsBytes, fp32[i]!.scored.estimate.memory.gradientsBytes];
      if (r.run.fsdp) expect(sixteen).toBe(thirtyTwo);
      else expect(Math.abs(2 * sixteen - thirtyTwo)).toBeLessThanOrEqual(1);
    });
  });

  it('the Blackwell constants are Hopper\'s, as the section says', () => {
    expect(COMPUTE_CALIBRATION.blackwell).toBe(COMPUTE_CALIBRATION.hopper);
    expect(section.markdown.join('\n')).toContain('its Blackwell constants are Hopper\'s');
  });

  it('lists every row, and each row trainplan puts out of memory with its peak against the GPU\'s capacity', () => {
    const md = section.markdown.join('\n');
    expect(section.markdown.filter((l) => / \| (GB200|B200|H100) \| /.test(l))).toHaveLength(rows.length);
    const tight = rows.filter((r) => !r.scored.fits);
    // Llama 3.1 405B on 256 GB200 (TP 4 · PP 16 · VP 4). Nemotron-4 340B on 128 H100 (TP 8 · PP 8 · VP 12) was out of
    // memory too with Megatron's fp32 main gradients, and fits with the 16-bit ones its recipe reduces in.
    expect(tight.map((r) => `${r.run.model} ${r.run.gpu}`)).toEqual(['llama3.1-405b gb200']);
    expect(md).toContain('Out of memory in trainplan (1 row)');
    expect(section.markdown.filter((l) => l.startsWith('- ') && l.includes('trainplan\'s peak'))).toHaveLength(1);
    const fp32 = scoreNvidiaPerf('fused');
    expect(fp32.filter((r) => !r.scored.fits).map((r) => `${r.run.model} ${r.run.gpu}`)).toEqual(['llama3.1-405b gb200', 'nemotron4-340b h100-sxm']);
    expect(section.markdown.filter((l) => l.startsWith('- Fits only with the recipe\'s 16-bit gradients: Nemotron-4 340B on 128 H100'))).toHaveLength(1);
  });

  it('Llama 3.1 405B puts the embedding and the loss in the pipeline split; FSDP runs as ZeRO-3', () => {
    const i405 = PUBLISHED_RUNS.findIndex((r) => r.model === 'llama3.1-405b');
    const p405 = profileFor(PUBLISHED_RUNS[i405]!).scenario(publishedRow(PUBLISHED_RUNS[i405]!, i405)).parallelism!;
    expect([p405.embeddingInPipelineSplit, p405.lossInPipelineSplit, p405.distributedOptimizer]).toEqual([true, true, true]);
    const iFsdp = PUBLISHED_RUNS.findIndex((r) => r.fsdp);
    const pFsdp = profileFor(PUBLISHED_RUNS[iFsdp]!).scenario(publishedRow(PUBLISHED_RUNS[iFsdp]!, iFsdp)).parallelism!;
    expect([pFsdp.zeroStage, pFsdp.distributedOptimizer]).toEqual([3, undefined]);
  });

  it('is a section of docs/validation.md, right after the Llama 3.1 405B one', () => {
    const names = VALIDATION_SECTIONS.map((s) => s.name);
    expect(names.indexOf('nvidia-perf')).toBe(names.indexOf('out-of-sample') + 1);
  });
});
