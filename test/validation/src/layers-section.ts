import { COMPUTE_CALIBRATION, type ComputeCalibration } from '@trainplan/planner';
import { gpuById } from '@trainplan/presets';
import { kernelCases, type LayerCase } from './kernel-cases.ts';
import { attentionPoints, elementwiseFractions, median, MODELLED_ELEMENTWISE, type MeasuredGpu } from './kernels-measured.ts';
import {
  kernelAloneCalibration, layerComparisons, loadMeasuredLayers, type LayerComparison, type LayerSplit, type MeasuredLayers,
} from './layers-measured.ts';
import { scoreAll, summarise, type CalibrationOverrides } from './score.ts';
import type { ValidationSection } from './sections.ts';

const ms = (x: number): string => x.toFixed(2);
const ratio = (x: number): string => x.toFixed(2);
const range = (xs: readonly number[]): string => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
const signed = (x: number): string => `${x < 0 ? '−' : '+'}${Math.abs(x).toFixed(2)}`;
const signedRange = (xs: readonly number[]): string => `${signed(Math.min(...xs))} to ${signed(Math.max(...xs))}`;

/** What the report says of whole layers, as numbers (the tests hold the report to them). */
export interface LayerFindings {
  /** Fused layers: measured forward + backward over the planner's layer at the kernels' own rates. */
  readonly overKernelAlone: readonly number[];
  readonly overKernelAloneForward: readonly number[];
  /** Fused layers: measured over the planner's layer at the calibrated Hopper constants. */
  readonly overCalibrated: readonly number[];
  /** Flash-attention layers (fused): measured over modelled time, by kind of kernel. */
  readonly byKind: { readonly [K in keyof LayerSplit]: readonly number[] };
  /** Flash layers (fused): measured over modelled attention time, at 8,192 tokens and at fewer. */
  readonly attentionLong: readonly number[];
  readonly attentionShort: readonly number[];
  /** The same at fewer tokens without the block cost: one rate at every length, cuDNN's at 8,192 tokens. */
  readonly attentionShortOneRate: readonly number[];
  /** Flash layers under 8,192 tokens: the attention launch's thread blocks and measured over modelled time. */
  readonly attentionShortByBlocks: readonly { readonly id: string; readonly blocks: number; readonly ratio: number }[];
  /** Eager over fused time, unfused-attention layers and flash layers; the largest difference between the two runs. */
  readonly eagerOverFused: { readonly unfused: readonly number[]; readonly flash: readonly number[] };
  /** Fused layers: the GPU's idle time between kernels, forward (ms) and per kernel over forward + backward (µs). */
  readonly idleForwardMs: readonly number[];
  readonly idlePerKernelUs: readonly number[];
  /** Llama 3 8B's compiled SwiGLU backward: its time and its bandwidth as a fraction of HBM's. */
  readonly swigluBackward: { readonly ms: number; readonly fractionOfHbm: number };
  /** The element-wise kernels' share of the planner's layer at the calibrated constants (fused, median). */
  readonly elementwiseShare: number;
  readonly worstSpread: number;
}

/** Sequences from which the flash-attention kernels reach their rate (the attention table above). */
const LONG_TOKENS = 8192;

/** One thread block per query tile of 128 tokens, per head and sequence (FlashAttention-2 §3.3). */
const flashBlocks = (c: LayerCase): number => c.microBatch * c.heads * Math.ceil(c.seqLength / 128);

/** The kernel-alone constants as attention was costed before its block cost: one rate at every length, cuDNN's at 8,192 tokens. */
function oneRateCalibration(gpu: MeasuredGpu): ComputeCalibration {
  const at8k = attentionPoints(gpu).find((p) => p.seqLength === LONG_TOKENS && p.backend === 'CUDNN_ATTENTION')!;
  return { ...kernelAloneCalibration(gpu), attentionPeakFraction: at8k.causalFraction, attentionBlockOverheadTiles: 0 };
}

export function layerFindings(gpu: MeasuredGpu = 'h100-sxm', runs = loadMeasuredLayers(gpu), rows = layerComparisons(gpu, runs)): LayerFindings {
  const fused = rows.filter((r) => r.variant === 'fused');
  const flash = fused.filter((r) => r.kase.attention === 'flash');
  const kind = (k: keyof LayerSplit) => flash.map((r) => r.measuredSplit[k] / r.modelSplit[k]);
  const attention = (some: readonly LayerComparison[]) => some.map((r) => r.measuredSplit.attention / r.modelSplit.attention);
  const short = flash.filter((r) => r.kase.seqLength < LONG_TOKENS);
  const eagerOverFused = (some: readonly LayerComparison[]) => some.flatMap((f) => {
    const eager = rows.find((r) => r.variant === 'eager' && r.kase.id === f.kase.id);
    return eager ? [eager.measuredMs / f.measuredMs] : [];
  });
  return {
    overKernelAlone: fused.map((r) => r.measuredMs / r.kernelAloneMs),
    overKernelAloneForward: fused.map((r) => r.measuredForwardMs / r.kernelAloneForwardMs),
    overCalibrated: fused.map((r) => r.measuredMs / r.calibratedMs),
    byKind: { gemm: kind('gemm'), attention: kind('attention'), other: kind('other') },
    attentionLong: attention(flash.filter((r) => r.kase.seqLength >= LONG_TOKENS)),
    attentionShort: attention(short),
    attentionShortOneRate: attention(layerComparisons(gpu, runs, oneRateCalibration(gpu)).filter((r) => r.variant === 'fused' && short.some((x) => x.kase.id === r.kase.id))),
    attentionShortByBlocks: short.map((r) => ({ id: r.kase.id, blocks: flashBlocks(r.kase), ratio: r.measuredSplit.attention / r.modelSplit.attention }))
      .sort((a, b) => a.blocks - b.blocks),
    eagerOverFused: { unfused: eagerOverFused(fused.filter((r) => r.kase.attention === 'unfused')), flash: eagerOverFused(flash) },
    idleForwardMs: fused.map((r) => r.idleForwardMs),
    idlePerKernelUs: fused.map((r) => (r.idleMs / r.kernels) * 1e3),
    swigluBackward: swigluBackward(gpu, runs),
    elementwiseShare: median(fused.map((r) => r.calibratedSplit.other / r.calibratedMs)),
    worstSpread: Math.max(...rows.map((r) => r.spread)),
  };
}

/** The case whose compiled SwiGLU backward the report quotes: one GPU, the widest MLP run whole. */
const SWIGLU_CASE = 'llama3-8b.tp1.b1.s8192';

/**
 * Its SwiGLU backward kernel (Inductor's, named for silu_backward) from the fused runs' profiles: bytes are fc1's output
 * (2f wide) and the gradient (f wide) read once, fc1's output gradient (2f wide) written once, 16-bit.
 */
function swigluBackward(gpu: MeasuredGpu, runs: readonly MeasuredLayers[]): { ms: number; fractionOfHbm: number } {
  const kase = kernelCases().layers.find((c) => c.id === SWIGLU_CASE)!;
  const times = runs.map((run) => {
    const row = run.layers.find((l) => l.id === SWIGLU_CASE && l.variant === 'fused');
    const kernel = row?.profile.topKernels.find(([name]) => /silu_backward/.test(name));
    if (!kernel) throw new Error(`no SwiGLU backward kernel in ${SWIGLU_CASE}'s profile`);
    return kernel[1];
  });
  const ms = times.reduce((a, b) => a + b, 0) / times.length;
  const bytes = 2 * (2 + 1 + 2) * kase.microBatch * kase.seqLength * kase.ffn;
  return { ms, fractionOfHbm: bytes / (ms * 1e-3) / gpuById(gpu)!.hbmBandwidth };
}

function label(r: LayerComparison): string {
  const k = r.kase;
  return `${k.model} TP ${k.tensor}, ${k.microBatch} × ${k.seqLength.toLocaleString('en-US')} tokens`;
}

/** Hopper rows' MAPE with the HBM fraction at what element-wise kernels reach inside a layer, the rest as calibrated. */
export function elementwiseWhatIf(f: LayerFindings): { hbmFraction: number; before: number; after: number } {
  const hbmFraction = kernelAloneCalibration().hbmFraction / median(f.byKind.other);
  const mape = (overrides: CalibrationOverrides) =>
    summarise(scoreAll(overrides).filter((r) => r.estimate.resolved.gpu === 'h100-sxm')).overall.mape;
  return { hbmFraction, before: mape({}), after: mape({ hopper: { hbmFraction } }) };
}

/** One layer on the H200 beside the same layer on the H100: measured (fused, mean of the runs) and as the planner costs each. */
export interface GpuPairRow {
  readonly h200: LayerComparison;
  readonly measured: number;
  readonly calibrated: number;
  readonly measuredOther: number;
  readonly calibratedOther: number;
  readonly measuredGemm: number;
}

/**
 * The H200 has the H100's tensor cores and clocks and 1.43× its HBM bandwidth (4.8 against 3.35 TB/s, the datasheets
 * in @trainplan/hardware): the planner's H200 layer differs from its H100 layer only in the memory-bound kernels.
 */
export function h200OverH100(h100Rows = layerComparisons('h100-sxm'), h200Rows = layerComparisons('h200')): GpuPairRow[] {
  const h100 = h100Rows.filter((r) => r.variant === 'fused');
  return h200Rows.filter((r) => r.variant === 'fused').map((h200) => {
    const base = h100.find((r) => r.kase.id === h200.kase.id)!;
    return {
      h200,
      measured: h200.measuredMs / base.measuredMs,
      calibrated: h200.calibratedMs / base.calibratedMs,
      measuredOther: h200.measuredSplit.other / base.measuredSplit.other,
      calibratedOther: h200.calibratedSplit.other / base.calibratedSplit.other,
      measuredGemm: h200.measuredSplit.gemm / base.measuredSplit.gemm,
    };
  });
}

/** The H200 subsection, from its runs' comparisons and each layer's H200 ÷ H100 (computed once, in layersSection). */
function h200Markdown(runs: MeasuredLayers[], rows: LayerComparison[], pairs: readonly GpuPairRow[]): string[] {
  const f = layerFindings('h200', runs, rows);
  const env = runs[0]!.environment;
  const alone = kernelAloneCalibration('h200');
  const pick = (g: (p: GpuPairRow) => number) => pairs.map(g);
  const flashPairs = pairs.filter((p) => p.h200.kase.attention === 'flash');
  // The modelled element-wise kernels alone (kernels section): each one's H200 time over its H100 time, and the median share of HBM.
  const modelled = (gpu: MeasuredGpu) => elementwiseFractions(gpu).filter((r) => (MODELLED_ELEMENTWISE as readonly string[]).includes(r.id));
  const [h100Alone, h200Alone] = [modelled('h100-sxm'), modelled('h200')];
  const aloneRatios = h100Alone.map((r) => r.bytesPerSecond / h200Alone.find((x) => x.id === r.id)!.bytesPerSecond);
  const hbmShare = { h100: median(h100Alone.map((r) => r.fraction)), h200: median(h200Alone.map((r) => r.fraction)) };
  return [
    '### The same layers on one H200',
    '',
    `The same script twice on one ${env.name} (PyTorch ${env.torch}, CUDA ${env.cuda}, ${runs[0]!.measuredAt.slice(0, 10)}; the runs differ by at most `
    + `${(f.worstSpread * 100).toFixed(1)}%), files kernels/layers-h200.json and kernels/layers-h200.run2.json. The planner's layer is costed at the H200's `
    + `own kernel rates (GEMM ${alone.gemmPeakFraction.toFixed(2)}, attention ${alone.attentionPeakFraction.toFixed(2)} with `
    + `${alone.attentionBlockOverheadTiles.toFixed(2)} key tiles a thread block, HBM ${alone.hbmFraction.toFixed(2)}: the kernels section's H200 file) and at `
    + 'the calibrated Hopper constants, which were fitted on H100 steps only. The H200 has the H100\'s tensor cores and 1.43× its HBM bandwidth, '
    + 'so at the calibrated constants, one set for Hopper, the planner\'s H200 layer differs from its H100 layer only in its memory-bound '
    + 'kernels (the last column). The two runs differ by as much as the GPUs do on one layer: the medians, not single layers, carry the comparison.',
    '',
    '| one GPU\'s layer | measured, fused (ms) | planner, kernels\' rates (ms) | measured ÷ that | planner, calibrated (ms) | measured ÷ that | H200 ÷ H100, measured | H200 ÷ H100, planner (calibrated) |',
    '|---|---|---|---|---|---|---|---|',
    ...pairs.map((p) => { const r = p.h200; return `| ${label(r)} | ${ms(r.measuredMs)} | ${ms(r.kernelAloneMs)} | ${ratio(r.measuredMs / r.kernelAloneMs)} | `
      + `${ms(r.calibratedMs)} | ${ratio(r.measuredMs / r.calibratedMs)} | ${ratio(p.measured)} | ${ratio(p.calibrated)} |`; }),
    '',
    `- As on the H100: a whole layer takes ${ratio(median(f.overKernelAlone))}× (${range(f.overKernelAlone)}) the planner's sum of its kernels at `
    + `their own rates, the GEMMs ${ratio(median(f.byKind.gemm))}× theirs and the element-wise kernels ${ratio(median(f.byKind.other))}× `
    + `(${range(f.byKind.other)}); at the calibrated constants measured ÷ predicted is ${ratio(median(f.overCalibrated))} (${range(f.overCalibrated)}): `
    + `the constants fitted on H100 steps ${Math.max(...f.overCalibrated) < 1 ? 'charge every H200 layer more than it takes alone too' : 'charge some H200 layers less than they take alone'}.`,
    `- H200 over H100, layer by layer: measured ${ratio(median(pick((p) => p.measured)))} (${range(pick((p) => p.measured))}), the planner `
    + `${ratio(median(pick((p) => p.calibrated)))} (${range(pick((p) => p.calibrated))}). The faster memory buys about what the planner says, `
    + 'a few per cent of a compute-bound layer, but less of it in the element-wise kernels than the planner charges: in the flash layers they '
    + `take ${ratio(median(flashPairs.map((p) => p.measuredOther)))} (${range(flashPairs.map((p) => p.measuredOther))}) of their H100 time, where `
    + `the calibrated planner charges ${ratio(median(flashPairs.map((p) => p.calibratedOther)))} (their traffic over 1.43× the bandwidth, `
    + 'with a fixed cost per kernel). The kernels alone say why: over one contiguous tensor they reach a smaller share of the H200\'s bandwidth '
    + `(median ${ratio(hbmShare.h200)}) than of the H100's (${ratio(hbmShare.h100)}), so they take ${range(aloneRatios)} of their H100 time (kernels `
    + `section). The GEMMs take ${ratio(median(pick((p) => p.measuredGemm)))} (${range(pick((p) => p.measuredGemm))}) of theirs.`,
  ];
}

export const layersSection: ValidationSection = {
  name: 'layers',
  run() {
    const runs = loadMeasuredLayers();
    const rows = layerComparisons('h100-sxm', runs);
    const f = layerFindings('h100-sxm', runs, rows);
    const hbmWhatIf = elementwiseWhatIf(f);
    const fused = rows.filter((r) => r.variant === 'fused');
    const eagerOf = (r: LayerComparison) => rows.find((e) => e.variant === 'eager' && e.kase.id === r.kase.id);
    const alone = kernelAloneCalibration();
    const hopper = COMPUTE_CALIBRATION.hopper;
    const env = runs[0]!.environment;
    const flash = fused.filter((r) => r.kase.attention === 'flash');
    const h200Runs = loadMeasuredLayers('h200');
    const h200Rows = layerComparisons('h200', h200Runs);
    const h200Pairs = h200OverH100(rows, h200Rows);
    const markdown = [
      '## Whole layers on one H100 and one H200 (test/validation/kernels/layer.py)',
      '',
      `One GPU's share of each published plan's transformer layer (the plans of the kernel cases above without context parallelism), run whole on `
      + `one ${env.name} (PyTorch ${env.torch}, CUDA ${env.cuda}, ${runs[0]!.measuredAt.slice(0, 10)}), forward and forward + backward: Megatron-LM's `
      + 'layer on one tensor-parallel rank with its collectives left out, so nothing but its kernels runs. "Fused" compiles the element-wise '
      + 'steps Megatron fuses (bias-dropout-add, bias-GeLU, SwiGLU, rotary, scale-mask-softmax) into one kernel each with torch.compile; '
      + '"eager" runs them as plain PyTorch ops. Flash layers run cuDNN\'s fused attention, as Transformer Engine does on Hopper. Two runs, '
      + `one after the other; the table gives their mean (they differ by at most ${(f.worstSpread * 100).toFixed(1)}%). Kernel time by kind comes from `
      + 'torch.profiler over one more forward + backward. The raw output is kernels/layers-h100-sxm.json and kernels/layers-h100-sxm.run2.json.',
      '',
      `The planner's layer (layer-time.ts, no sequence parallelism, bf16) is costed twice: at the kernels' own rates from the section above `
      + `(GEMM ${alone.gemmPeakFraction.toFixed(2)}, attention ${alone.attentionPeakFraction.toFixed(2)} with ${alone.attentionBlockOverheadTiles} key tiles a `
      + `thread block, HBM ${alone.hbmFraction.toFixed(2)}, `
      + `${(alone.kernelOverhead * 1e6).toFixed(1)} µs a kernel, the GPU's own gap from a CUDA graph: a busy GPU hides the host's launches), and at `
      + `the calibrated Hopper constants (GEMM ${hopper.gemmPeakFraction}, attention ${hopper.attentionPeakFraction}, HBM ${hopper.hbmFraction}, `
      + `${(hopper.kernelOverhead * 1e6).toFixed(0)} µs), fitted end to end on multi-GPU training steps.`,
      '',
      '| one GPU\'s layer | attention | measured, fused (ms) | eager (ms) | planner, kernels\' rates (ms) | measured ÷ that | planner, calibrated (ms) | measured ÷ that |',
      '|---|---|---|---|---|---|---|---|',
      ...fused.map((r) => `| ${label(r)} | ${r.kase.attention} | ${ms(r.measuredMs)} | ${ms(eagerOf(r)?.measuredMs ?? Number.NaN)} | `
        + `${ms(r.kernelAloneMs)} | ${ratio(r.measuredMs / r.kernelAloneMs)} | ${ms(r.calibratedMs)} | ${ratio(r.measuredMs / r.calibratedMs)} |`),
      '',
      '### By kind of kernel (flash layers, fused; measured ÷ the planner at the kernels\' rates)',
      '',
      '| one GPU\'s layer | GEMMs (ms) | ÷ planner | attention (ms) | ÷ planner | element-wise and the rest (ms) | ÷ planner |',
      '|---|---|---|---|---|---|---|',
      ...flash.map((r) => `| ${label(r)} | ${ms(r.measuredSplit.gemm)} | ${ratio(r.measuredSplit.gemm / r.modelSplit.gemm)} | `
        + `${ms(r.measuredSplit.attention)} | ${ratio(r.measuredSplit.attention / r.modelSplit.attention)} | `
        + `${ms(r.measuredSplit.other)} | ${ratio(r.measuredSplit.other / r.modelSplit.other)} |`),
      '',
      `- A whole layer takes ${ratio(median(f.overKernelAlone))}× (${range(f.overKernelAlone)}) what the planner's sum of its kernels gives at their `
      + `own rates, forward + backward, and ${ratio(median(f.overKernelAloneForward))}× (${range(f.overKernelAloneForward)}) forward alone: before any `
      + 'communication, the kernel model leaves about a tenth of a layer out, most of it in the backward pass.',
      `- The GEMMs are not where: in a layer they take ${ratio(median(f.byKind.gemm))}× (${range(f.byKind.gemm)}) their modelled time, a little faster `
      + `than the median plan GEMM timed alone with its L2 flushed. Attention takes ${range(f.attentionLong)}× its modelled time at `
      + `${LONG_TOKENS.toLocaleString('en-US')} tokens and ${range(f.attentionShort)}× at 2,048–4,096, costed as its launch runs (a thread block's `
      + `fixed cost of ${alone.attentionBlockOverheadTiles} key tiles, fitted on the kernels above, and half a wave of tail); at one rate for every `
      + `length it would be ${range(f.attentionShortOneRate)}× there. What is left at short sequences still follows the launch's size, fewest thread `
      + `blocks slowest (${f.attentionShortByBlocks.map((b) => `${b.blocks.toLocaleString('en-US')} blocks ${ratio(b.ratio)}×`).join(', ')}): small `
      + 'launches lose more than the half wave charged.',
      `- The element-wise kernels are: ${ratio(median(f.byKind.other))}× (${range(f.byKind.other)}) what their traffic at ${alone.hbmFraction.toFixed(2)} `
      + 'of HBM bandwidth gives. Their operands are strided views (SwiGLU\'s two halves of fc1\'s output, rotary on the query and key slices of '
      + `the QKV output): Llama 3 8B's compiled SwiGLU backward takes ${ms(f.swigluBackward.ms)} ms, ${ratio(f.swigluBackward.fractionOfHbm)} of HBM `
      + 'bandwidth (the files\' topKernels). Transformer Engine\'s own fused kernels may do better; none could be run here.',
      `- The training rows cannot tell: element-wise kernels are ${(f.elementwiseShare * 100).toFixed(0)}% of the planner's layer, and with the HBM `
      + `fraction at the rate they reach in a layer (${alone.hbmFraction.toFixed(2)} ÷ ${ratio(median(f.byKind.other))} = ${hbmWhatIf.hbmFraction.toFixed(2)}, `
      + `under the fit's lower bound) the Hopper rows' MAPE goes ${(hbmWhatIf.before * 100).toFixed(2)}% → ${(hbmWhatIf.after * 100).toFixed(2)}%. `
      + `trainplan keeps ${hopper.hbmFraction}: what the element-wise kernels take beyond it sits in the margin below.`,
      `- Between kernels: forward, the GPU runs them back to back (timed forward minus its profiled kernels, ${signedRange(f.idleForwardMs)} ms: `
      + 'the host queues ahead of the GEMMs); backward, it idles between them (eager autograd\'s host work or memory allocation: the profile '
      + 'does not say which), '
      + `${(median(f.idlePerKernelUs)).toFixed(0)} µs a kernel over the layer's forward and backward (median; ${f.idlePerKernelUs.map((x) => x.toFixed(0)).sort((a, b) => +a - +b).join(', ')}). `
      + `The Hopper fit's ${(hopper.kernelOverhead * 1e6).toFixed(0)} µs per kernel is of that size; the kernel-alone costing above charges the `
      + `${(alone.kernelOverhead * 1e6).toFixed(1)} µs a CUDA graph leaves, so this idle time is part of the gap in the first point.`,
      `- At the calibrated Hopper constants the planner charges more than every whole layer takes: measured ÷ calibrated ${ratio(median(f.overCalibrated))} `
      + `(${range(f.overCalibrated)}). The fit, made on multi-GPU steps, leaves ${((1 / median(f.overCalibrated) - 1) * 100).toFixed(0)}% of a layer's `
      + 'compute for what those steps run beside the layer\'s kernels and trainplan does not cost one by one (communication kernels sharing the '
      + 'SMs, synchronisation, Transformer Engine\'s casts), and it is never faster than the layer run with nothing beside it.',
      `- Fusing Megatron's element-wise steps saves most where attention is unfused and its scale-mask-softmax and dropout run over the whole `
      + `score matrix: eager ÷ fused ${range(f.eagerOverFused.unfused)} there, ${range(f.eagerOverFused.flash)} in the flash layers, where `
      + 'compiling them gains nothing on balance.',
      '',
      ...h200Markdown(h200Runs, h200Rows, h200Pairs),
    ];
    return {
      markdown,
      readme: [
        `- Whole layers run on that H100 (\`test/validation/kernels/layer.py\`: one GPU's share of ${fused.length} published plans' layers, no `
        + `communication): a layer takes ${ratio(median(f.overKernelAlone))}× (${range(f.overKernelAlone)}) the planner's sum of its kernels at their `
        + `own rates, the miss in element-wise kernels over strided operands (${ratio(median(f.byKind.other))}× their traffic time) and idle gaps `
        + `in the backward pass, not in the GEMMs (${ratio(median(f.byKind.gemm))}×); at the calibrated Hopper constants the planner charges `
        + `${Math.max(...f.overCalibrated) < 1 ? 'every layer more than it takes' : 'some layers less than they take'} alone (measured ÷ predicted ${ratio(median(f.overCalibrated))}, ${range(f.overCalibrated)}), the margin the fit `
        + 'leaves for what multi-GPU steps run beside the kernels.',
        `- The same layers on an H200 (1.43× the H100's HBM bandwidth, the same tensor cores) take ${ratio(median(h200Pairs.map((p) => p.measured)))}× `
        + `their H100 time at the median (${range(h200Pairs.map((p) => p.measured))}), where the planner says `
        + `${ratio(median(h200Pairs.map((p) => p.calibrated)))}× (${range(h200Pairs.map((p) => p.calibrated))}).`,
      ],
      summary: [
        `whole layers (H100)    ${fused.length} plans  measured ÷ kernel model ${ratio(median(f.overKernelAlone))}  ÷ calibrated ${ratio(median(f.overCalibrated))}`,
        `whole layers (H200)    ${h200Pairs.length} plans  H200 ÷ H100 measured ${ratio(median(h200Pairs.map((p) => p.measured)))}  planner ${ratio(median(h200Pairs.map((p) => p.calibrated)))}`,
      ],
    };
  },
};
