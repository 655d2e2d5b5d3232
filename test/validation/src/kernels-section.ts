import { causalTileFraction, COMPUTE_CALIBRATION } from '@trainplan/planner';
import { longAttentionLines } from './attention-long.ts';
import {
  attentionPoints, attentionRunToRun, calibrationChecks, elementwiseFractions, flashBlockFit, headCountRatio, fp8ForwardTimeRatio, loadFirstH200Run, loadMeasuredKernels, MEASURED_GPUS, MODELLED_ELEMENTWISE, planShapeScores, sustained, waveSweep,
  type MeasuredGpu, type MeasuredKernels, type ShapeModelScore,
} from './kernels-measured.ts';
import { loadTrainingRows } from './ground-truth.ts';
import { kernelCases } from './kernel-cases.ts';
import { LLAMA405_RELEASES } from './llama405-dgxc.ts';
import { outOfSampleSummary, scoreLlama405 } from './out-of-sample-section.ts';
import { scoreAll, summarise, type CalibrationOverrides } from './score.ts';
import type { ValidationSection } from './sections.ts';

const NAMES: Record<MeasuredGpu, string> = { 'h100-sxm': 'H100 SXM', h200: 'H200' };
const pct = (x: number, digits = 1): string => `${(x * 100).toFixed(digits)}%`;
const signed = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const HOPPER = COMPUTE_CALIBRATION.hopper;
const range = (xs: readonly number[]): string => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

/** The driver version nvidia-smi printed (its CSV's second field). */
const driverOf = (data: MeasuredKernels): string => data.environment.nvidiaSmi.split('\n')[1]?.split(',')[1]?.trim() ?? 'unknown';

/** The largest relative error of any checked GEMM against its fp32 product, over every measured GPU. */
export const worstRelativeError = (): number =>
  Math.max(...MEASURED_GPUS.flatMap((gpu) => loadMeasuredKernels(gpu).gemm.flatMap((r) => (r.relErr === undefined ? [] : [r.relErr]))));

/** A source's measured FP8 step over its BF16 step, averaged over its GPU counts. */
export function fp8OverBf16(): { gpt3: number; llama405: number } {
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const gpt3 = loadTrainingRows().filter((r) => r.id.startsWith('dgxc-24.11-GPT-3-175B-'));
  const step = (precision: string) => mean(gpt3.filter((r) => r.precision === precision).map((r) => r.measured.step_time_s!));
  const llama = LLAMA405_RELEASES.flatMap((r) => Object.values(r.steps).map((s) => s.fp8 / s.bf16));
  return { gpt3: step('FP8') / step('BF16'), llama405: mean(llama) };
}

/**
 * The FP8 what-if: the FP8 GEMM fraction tied to the 16-bit one by the ratio the H100's kernels measured, instead of
 * fitted on its own, and what that does to the rows in and out of sample.
 */
export function fp8WhatIf(): {
  fraction: number;
  inSample: { before: number; after: number };
  gpt3Fp8Bias: { before: number; after: number };
  llama405Fp8: { before: number; after: number };
  fp8OverBf16: { gpt3: number; llama405: number };
} {
  const plan = planShapeScores('h100-sxm');
  const fraction = Math.round(HOPPER.gemmPeakFraction * (plan.fp8.fraction / plan.bf16.fraction) * 100) / 100;
  const overrides: CalibrationOverrides = { hopper: { fp8GemmPeakFraction: fraction } };
  const score = (o: CalibrationOverrides) => {
    const rows = scoreAll(o);
    const gpt3 = rows.filter((r) => r.id.startsWith('dgxc-24.11-GPT-3-175B-FP8'));
    return { mape: summarise(rows).overall.mape, bias: gpt3.reduce((s, r) => s + r.error, 0) / gpt3.length };
  };
  const before = score({});
  const after = score(overrides);
  return {
    fraction,
    inSample: { before: before.mape, after: after.mape },
    gpt3Fp8Bias: { before: before.bias, after: after.bias },
    llama405Fp8: { before: outOfSampleSummary(scoreLlama405(), 'fp8').mape, after: outOfSampleSummary(scoreLlama405(overrides), 'fp8').mape },
    fp8OverBf16: fp8OverBf16(),
  };
}

/** The worst error over both GPUs and kernels of the modelled causal-over-full time between two lengths, with or without the block cost. */
function causalError(from: number, to: number, withBlocks: boolean): number {
  const points = MEASURED_GPUS.flatMap((gpu) => attentionPoints(gpu)).filter((p) => p.seqLength >= from && p.seqLength <= to);
  return Math.max(...points.map((p) => Math.abs(p.causalOverFull / (withBlocks ? p.modelCausalOverFull : causalTileFraction(p.seqLength)) - 1)));
}

function shapeRow(gpu: MeasuredGpu, s: ShapeModelScore, flat: ShapeModelScore): string {
  return `| ${NAMES[gpu]} | ${s.group} | ${s.n} | ${s.fraction.toFixed(3)} | ${pct(s.mape)} | ${pct(s.worst)} (${s.worstId}) | ${pct(flat.mape)} | ${pct(flat.worst)} |`;
}

export const kernelsSection: ValidationSection = {
  name: 'kernels',
  run() {
    const h100 = loadMeasuredKernels('h100-sxm');
    const h200 = loadMeasuredKernels('h200');
    const gemmCaseCount = kernelCases().gemm.length;
    const env = h100.environment;
    const checks = calibrationChecks('h100-sxm', h100);
    const shapes = MEASURED_GPUS.map((gpu) => ({ gpu, quantised: planShapeScores(gpu), flat: planShapeScores(gpu, undefined, false), waves: waveSweep(gpu) }));
    const whatIf = fp8WhatIf();
    const attention = attentionPoints('h100-sxm').filter((p) => p.seqLength >= 4096);
    const seqs = [...new Set(attention.map((p) => p.seqLength))];
    const at = (s: number, backend: string) => attention.find((p) => p.seqLength === s && p.backend === backend)!;
    const ratio = (c: (typeof checks)[number]) => c.calibrated / c.measured;
    const gemmCheck = checks.find((c) => c.constant === 'gemmPeakFraction')!;
    const fp8Check = checks.find((c) => c.constant === 'fp8GemmPeakFraction')!;
    const attentionCheck = checks.find((c) => c.constant === 'attentionPeakFraction')!;
    const cudnnBlock = flashBlockFit('h100-sxm', 'CUDNN_ATTENTION', h100);
    const fa2Block = flashBlockFit('h100-sxm', 'FLASH_ATTENTION', h100);
    const h200Block = flashBlockFit('h200', 'CUDNN_ATTENTION');
    const h200First = loadFirstH200Run();
    const h200FirstBlock = flashBlockFit('h200', 'CUDNN_ATTENTION', h200First);
    const h200RunToRun = attentionRunToRun('h200', h200First, h200);
    const headsRatio = headCountRatio();
    const launch = checks.find((c) => c.constant === 'kernelOverhead')!;
    const h100Shapes = shapes[0]!;
    const fp8Gpt3 = fp8ForwardTimeRatio('h100-sxm', 'gpt3-175b.tp4.T2048', h100);
    const fp8Llama = fp8ForwardTimeRatio('h100-sxm', 'llama3.1-405b.tp8.T4096', h100);
    // The calibrated constants' FP8 over BF16 time for a large GEMM: the peaks' ratio over the fractions' (quantisation alike).
    const fp8Calibrated = (HOPPER.gemmPeakFraction / HOPPER.fp8GemmPeakFraction) / 2;
    const elementwise = MEASURED_GPUS.map((gpu) => ({ gpu, rows: elementwiseFractions(gpu) }));

    const markdown = [
      '## Kernels measured on an H100 and an H200 (test/validation/kernels/measure.py)',
      '',
      `The kernels trainplan costs, timed alone on one ${env.name} and one NVIDIA H200 lent to this project (PyTorch ${env.torch}, CUDA ${env.cuda}, `
      + `driver ${driverOf(h100)}, ${h100.measuredAt.slice(0, 10)}). The GEMMs are the shapes layer-time.ts costs for the published plans kernel-cases.ts `
      + 'lists (GPT-3 175B at TP 8 and TP 4, MT-NLG 530B, BLOOM 176B, a 6.7B GPT on one GPU, Llama 3 8B and 70B, Llama 3.1 70B and 405B, '
      + 'Nemotron-4 15B and 340B), each pass with its own operand '
      + 'layout (forward, input gradient, weight gradient into fp32), FP8 for the Hopper plans, plus a size sweep and a wave sweep. Timing: '
      + 'CUDA events through triton.testing.do_bench, median, L2 flushed between repeats, random inputs; the first case of each kind is '
      + `checked against an fp32 product (relative error at most ${worstRelativeError().toExponential(1)}). The raw output is kernels/h100-sxm.json and `
      + `kernels/h200.json; \`npm run kernel-cases\` writes the cases and the script's header says how to rerun it on a GPU. The H200 was `
      + `timed on ${h200.measuredAt.slice(0, 10)} (driver ${driverOf(h200)}), `
      + `${h200.gemm.length === gemmCaseCount ? 'every one' : `${h200.gemm.length}`} of the ${gemmCaseCount} GEMM cases.`,
      '',
      '### The Hopper constants against the kernels alone (H100)',
      '',
      'The Hopper constants are fitted end to end on training steps (calibration.ts); the kernels here run alone. A constant above its '
      + 'kernel\'s own rate would be unphysical, and the ratio says how much of the step the fit attributes to something other than the kernel.',
      '',
      '| constant | calibrated | kernel alone | calibrated ÷ kernel | kernel measured as |',
      '|---|---|---|---|---|',
      ...checks.map((c) => `| ${c.label} | ${c.calibrated.toFixed(2)} | ${c.measured.toFixed(2)} | ${ratio(c).toFixed(2)} | ${c.how} |`),
      '',
      ...MEASURED_GPUS.map((gpu) => {
        const s = sustained(loadMeasuredKernels(gpu));
        return `- Sustained, ${NAMES[gpu]}: 8192³ BF16 products back to back for 20 s ran at ${s.firstTflops.toFixed(0)} TFLOP/s in the first second `
          + `and ${s.tflops.toFixed(0)} TFLOP/s over the second half, at an SM clock of ${s.smClockMHz} MHz and ${s.powerW.toFixed(0)} W (limit 700 W, `
          + 'boost clock 1,980 MHz): under a GEMM load the GPU runs at its power limit, well under its boost clock.';
      }),
      `- The 16-bit GEMM constant sits at ${ratio(gemmCheck).toFixed(2)} of what its kernels reach alone, the share of a training step the fit `
      + 'charges to what runs beside them (communication kernels sharing the SMs, synchronisation) without separating it. Attention, '
      + `costed per thread block since 2026-11-28, sits at ${ratio(attentionCheck).toFixed(2)} of its kernel's long-sequence rate: the bounded `
      + 'refit puts it at or just under that ceiling (calibration.ts), and inside whole layers attention at 8,192 tokens takes about its time alone (the '
      + 'next section).',
      `- The flash launch model: cuDNN's causal rates from 2,048 to 32,768 tokens fit r · k̄ / (k̄ + c) over 1 + ½·S/B, k̄ the key tiles a `
      + 'query tile meets, c a thread block\'s fixed cost in key tiles, B the launch\'s blocks and S the SMs (the last wave of unequal causal '
      + `blocks half full: half a wave, not fitted), with r ${cudnnBlock.fraction.toFixed(2)} and c ${cudnnBlock.overheadTiles} tiles (worst point `
      + `${pct(cudnnBlock.worst)}); FlashAttention-2's with r ${fa2Block.fraction.toFixed(2)} and c ${fa2Block.overheadTiles} (worst ${pct(fa2Block.worst)}); `
      + `on the H200, cuDNN gives c ${h200Block.overheadTiles} (worst ${pct(h200Block.worst)}), and ${h200FirstBlock.overheadTiles} (worst `
      + `${pct(h200FirstBlock.worst)}) on its first run (kernels/h200.run1.json, ${h200First.measuredAt.slice(0, 10)}), whose causal points differ from the `
      + `second's by up to ${pct(h200RunToRun)}: the fits' misses are of the size of a run's own scatter. It predicts what it was not fitted on: 8 heads' `
      + `per-head time at 8,192 tokens over 64 heads' ${headsRatio.model.toFixed(2)}, measured ${headsRatio.measured.map((x) => x.toFixed(2)).join(' and ')} `
      + `(H100, H200); one rate for every launch says 1.00. trainplan costs launches so since 2026-11-28 (layer-time.ts, c = ${HOPPER.attentionBlockOverheadTiles} `
      + 'on Hopper).',
      `- FP8: the fitted constant is ${ratio(fp8Check).toFixed(2)} of the FP8 kernels' rate, a wider margin than 16-bit's. FP8 GEMMs run at `
      + `${(fp8Check.measured * 2 / gemmCheck.measured).toFixed(2)}× the 16-bit ones here, and the shape model predicts them as well (table below). `
      + `What-if, the FP8 fraction tied to the 16-bit one by that measured ratio (${HOPPER.gemmPeakFraction} × ${fp8Check.measured.toFixed(3)} ÷ `
      + `${gemmCheck.measured.toFixed(3)} = ${whatIf.fraction}) instead of fitted: Llama 3.1 405B FP8 (out of sample) MAPE ${pct(whatIf.llama405Fp8.before)} → `
      + `${pct(whatIf.llama405Fp8.after)}, but the in-sample GPT-3 175B FP8 rows' mean error ${signed(whatIf.gpt3Fp8Bias.before)} → `
      + `${signed(whatIf.gpt3Fp8Bias.after)} and the in-sample MAPE ${pct(whatIf.inSample.before)} → ${pct(whatIf.inSample.after)}. The two FP8 sources `
      + `disagree about what an FP8 step costs beyond its GEMMs (GPT-3 175B's FP8 step is ${whatIf.fp8OverBf16.gpt3.toFixed(2)} of its BF16 step, `
      + `Llama 3.1 405B's ${whatIf.fp8OverBf16.llama405.toFixed(2)}, on the same machine and software). On the H100, the four linears of a layer `
      + `in FP8 take ${fp8Gpt3.toFixed(2)} of their BF16 time on GPT-3 175B's shapes as those rows ran (TP 4, 2,048 tokens) and `
      + `${fp8Llama.toFixed(2)} on Llama 3.1 405B's (TP 8, CP 2), where the calibrated constants give both ${fp8Calibrated.toFixed(2)}. The GEMMs `
      + 'differ less between the two than the steps do, even if they were the whole step: the rest lies outside them (likely Transformer '
      + 'Engine\'s casts and scaling, which trainplan does not cost). Not adopted: the FP8 constant stays fitted.',
      `- The per-kernel cost fitted for Hopper, ${launch.calibrated.toFixed(0)} µs, is what one eager PyTorch launch costs the host here `
      + `(${launch.measured.toFixed(1)} µs); the GPU runs the same tiny kernel in ${h100.launch.graphUs.toFixed(1)} µs from a CUDA graph.`,
      '',
      '### The shape model: tile and wave quantisation',
      '',
      'With one fraction per precision (the median the GEMMs imply), how well the kernel model predicts each GEMM\'s time from its shape. '
      + 'The last two columns score the same model with the last wave\'s idle SMs not charged.',
      '',
      '| GPU | GEMMs | n | fraction | MAPE | worst | MAPE, waves not quantised | worst |',
      '|---|---|---|---|---|---|---|---|',
      ...shapes.flatMap(({ gpu, quantised, flat }) => [shapeRow(gpu, quantised.bf16, flat.bf16), shapeRow(gpu, quantised.fp8, flat.fp8)]),
      '',
      ...shapes.map(({ gpu, waves }) => `- Wave sweep, ${NAMES[gpu]} (M 8,192, K 4,096, N from 1,024 to 8,192 in steps of 256): the model's efficiency `
        + `moves ${pct(waves.predictedSwing)} from one step to the next on average, the measured rate ${pct(waves.measuredSwing)}, and the two `
        + `moves correlate at ${waves.correlation.toFixed(2)}.`),
      `- The shape model predicts the plan GEMMs within ${pct(h100Shapes.quantised.bf16.mape)} on average, but the wave sawtooth it charges is not `
      + 'there on Hopper, as if cuBLAS split the last wave\'s work among all the SMs (a persistent, stream-K-style schedule: Osama et al., '
      + 'PPoPP 2023). Its worst rows are 2,048-token GEMMs it charges a partly idle last wave. Scored without wave quantisation the error is '
      + `${pct(h100Shapes.flat.bf16.mape)} (worst ${pct(h100Shapes.flat.bf16.worst)}). trainplan keeps it: the Hopper constants were fitted with it, and `
      + 'a refit without it changes the training rows\' MAPE by a tenth of a point (calibration.ts).',
      '',
      '### Flash attention (H100, one sequence, 16 heads of 128)',
      '',
      '| tokens | cuDNN: fraction of peak | cuDNN: causal ÷ full time | cuDNN: backward ÷ forward | FlashAttention-2: fraction of peak | FA2: causal ÷ full | FA2: backward ÷ forward | trainplan: causal ÷ full |',
      '|---|---|---|---|---|---|---|---|',
      ...seqs.map((s) => {
        const c = at(s, 'CUDNN_ATTENTION');
        const f = at(s, 'FLASH_ATTENTION');
        return `| ${s.toLocaleString('en-US')} | ${c.causalFraction.toFixed(2)} | ${c.causalOverFull.toFixed(2)} | ${c.backwardOverForward.toFixed(2)} `
          + `| ${f.causalFraction.toFixed(2)} | ${f.causalOverFull.toFixed(2)} | ${f.backwardOverForward.toFixed(2)} | ${c.modelCausalOverFull.toFixed(3)} |`;
      }),
      '',
      '- Fractions count causal forward + backward work as layer-time.ts does (4·s²·d per head forward over the causal tiles, 2.5× backward).',
      `- Causal over full time: ${range(attention.filter((p) => p.seqLength >= 16384).map((p) => p.causalOverFull))} `
      + `from 16k tokens on, ${range(attention.filter((p) => p.seqLength === 4096).map((p) => p.causalOverFull))} at 4k. layer-time.ts charges the `
      + 'share of 128 × 128 tiles on or below the diagonal, (T + 1) / 2T for T tiles a side, each launch\'s blocks with their fixed cost: a '
      + 'causal block meets half the key tiles a full one does, so it pays its fixed cost over fewer, and the full launch\'s equal blocks '
      + `leave only the plain quantisation of B blocks over S SMs. That gives ${at(4096, 'CUDNN_ATTENTION').modelCausalOverFull.toFixed(2)} `
      + `at 4k (the tiles alone, ${causalTileFraction(4096).toFixed(2)}) and ${at(32768, 'CUDNN_ATTENTION').modelCausalOverFull.toFixed(2)} at 32k, a ratio the `
      + `block cost was not fitted on. Over both GPUs and kernels it is within ${pct(causalError(8192, 8192, true))} at 8k, where the tiles alone `
      + `miss by up to ${pct(causalError(8192, 8192, false))}, and within ${pct(causalError(16384, 32768, true))} from 16k, where they were closer `
      + `(${pct(causalError(16384, 32768, false))}).`,
      `- Backward over forward time: ${range(attention.map((p) => p.backwardOverForward))}, where layer-time.ts takes 2.5 (five matmuls to two at one rate).`,
      `- PyTorch's FlashAttention-2 reaches ${(at(8192, 'FLASH_ATTENTION').causalFraction / at(8192, 'CUDNN_ATTENTION').causalFraction).toFixed(2)} of `
      + `cuDNN's rate at 8k on Hopper; the calibrated Hopper constant (${HOPPER.attentionPeakFraction}) is cuDNN's long-sequence rate, which `
      + 'Transformer Engine uses in the NeMo runs it was fitted on. At 1,024 tokens cuDNN\'s causal backward runs slower than at 2,048 (another '
      + 'kernel choice), so the per-block fit starts at 2,048 tokens.',
      '',
      ...longAttentionLines(),
      '',
      '### Element-wise kernels (a 16,384 × 8,192 BF16 tensor; bytes: each input read once, each output written once)',
      '',
      `| kernel | ${MEASURED_GPUS.map((g) => `${NAMES[g]} TB/s | fraction of HBM`).join(' | ')} |`,
      `|---|${MEASURED_GPUS.map(() => '---|---').join('|')}|`,
      ...elementwise[0]!.rows.map((row, i) => `| ${row.id}${(MODELLED_ELEMENTWISE as readonly string[]).includes(row.id) ? '' : ' (not in the median)'} | `
        + `${elementwise.map(({ rows }) => `${(rows[i]!.bytesPerSecond / 1e12).toFixed(2)} | ${rows[i]!.fraction.toFixed(2)}`).join(' | ')} |`),
      '',
      `- The calibrated ${HOPPER.hbmFraction} sits under the median, between PyTorch's LayerNorm and its streaming kernels; the fit's lower bound `
      + 'holds it there (fit.ts).',
    ];
    const gemmCases = kernelCases().gemm;
    const blockWorst = Math.max(cudnnBlock.worst, fa2Block.worst, h200Block.worst);
    return {
      markdown,
      readme: [
        `- Kernels timed on a real H100 and H200 (\`test/validation/kernels/measure.py\`: ${gemmCases.length} GEMMs, `
        + `${gemmCases.filter((g) => g.group === 'plan').length} of them the published plans' shapes and the rest size and wave sweeps; flash attention; `
        + `element-wise kernels): the kernel model's shape terms predict each H100 plan GEMM within ${pct(h100Shapes.quantised.bf16.mape)} (BF16, MAPE; `
        + `FP8 ${pct(h100Shapes.quantised.fp8.mape)}) given one fraction per precision, ${pct(h100Shapes.flat.bf16.mape)} without the wave quantisation `
        + 'Hopper\'s cuBLAS does not show (kept: the constants were fitted with it). Each fitted Hopper constant over its kernel\'s own rate: GEMM '
        + `${ratio(gemmCheck).toFixed(2)}, FP8 ${ratio(fp8Check).toFixed(2)}, attention ${ratio(attentionCheck).toFixed(2)}; the fitted `
        + `${launch.calibrated.toFixed(0)} µs per kernel is one eager PyTorch launch (${launch.measured.toFixed(1)} µs). Flash attention from 2k to 32k `
        + `tokens fits one rate, a fixed cost per thread block (${cudnnBlock.overheadTiles} key tiles, cuDNN on the H100) and half a wave of tail within `
        + `${pct(blockWorst)} (cuDNN and FlashAttention-2, H100 and H200), which predicts what it was not fitted on: causal over full time at 8k `
        + `within ${pct(causalError(8192, 8192, true))} where the tiles alone miss by up to ${pct(causalError(8192, 8192, false))}, and 8 heads' `
        + `per-head time over 64 heads' (${headsRatio.model.toFixed(2)}, measured ${headsRatio.measured.map((x) => x.toFixed(2)).join(' and ')}).`,
      ],
      summary: [
        `H100 kernels: plan GEMM shape model MAPE ${pct(h100Shapes.quantised.bf16.mape)} (without wave quantisation ${pct(h100Shapes.flat.bf16.mape)}); `
        + `calibrated/kernel GEMM ${ratio(gemmCheck).toFixed(2)}, FP8 ${ratio(fp8Check).toFixed(2)}, attention ${ratio(attentionCheck).toFixed(2)}`,
      ],
    };
  },
};
