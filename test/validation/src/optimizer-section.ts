import { ADAM_BYTES_PER_PARAMETER, COMPUTE_CALIBRATION, FP16_UNSCALE_BYTES, GRADIENT_CAST_BYTES, OPTIMIZER_PASS_BYTES } from '@trainplan/planner';
import { median } from './kernels-measured.ts';
import { hbmShare, loadMeasuredOptimizer, OPTIMIZER_BYTES_BEFORE, optimizerComparisons, type OptimizerComparison } from './optimizer-measured.ts';
import type { ValidationSection } from './sections.ts';
import { range, ratio } from './measured-runs.ts';

const ms = (x: number): string => x.toFixed(2);

/** Under this many parameters a GPU the passes timed alone show the host's launches (a call each, the norm's reductions). */
const LARGE_PARAMETERS = 5e8;
/** The zeroed buffer's bytes a parameter: Megatron's fp32 main_grad under bf16. */
const BUFFER_BYTES = 4;

/** Each pass's bytes over its time, as a fraction of the H200's datasheet HBM bandwidth. */
export function passShares(r: OptimizerComparison): Record<'norm' | 'adam' | 'copy' | 'cast' | 'unscale' | 'zero', number> {
  const share = (bytes: number, passMs: number) => hbmShare(r.kase.parameters, bytes, passMs);
  return {
    norm: share(OPTIMIZER_PASS_BYTES.norm, r.passMs.norm),
    adam: share(OPTIMIZER_PASS_BYTES.adam, r.passMs.adam),
    copy: share(OPTIMIZER_PASS_BYTES.copy, r.passMs.copy),
    cast: share(GRADIENT_CAST_BYTES, r.passMs.cast),
    unscale: share(FP16_UNSCALE_BYTES, r.passMs.unscale),
    zero: hbmShare(r.kase.bufferParameters, BUFFER_BYTES, r.passMs.zero),
  };
}

/** What the report says of the optimizer steps, as numbers (the tests hold the report to them). */
export interface OptimizerFindings {
  readonly overPredicted: readonly number[];
  readonly overPredictedBefore: readonly number[];
  /** The step's kernels' bytes over their GPU time, of HBM bandwidth. */
  readonly stepKernelShares: readonly number[];
  /** From LARGE_PARAMETERS on: the single-call passes timed alone (Adam, copy, cast, unscale), the norm's, and the memset's. */
  readonly streamingShares: readonly number[];
  readonly normShares: readonly number[];
  readonly zeroShares: readonly number[];
  /** What the host adds over the step's kernels (ms), and how far its step varies between the runs. */
  readonly hostOverKernelsMs: readonly number[];
  readonly worstHostSpread: number;
  readonly worstSpread: number;
  /** How far the norm timed alone differs between the runs, at worst (its host-bound launches). */
  readonly worstNormSpread: number;
}

export function optimizerFindings(rows = optimizerComparisons()): OptimizerFindings {
  const large = rows.filter((r) => r.kase.parameters >= LARGE_PARAMETERS).map(passShares);
  return {
    overPredicted: rows.map((r) => r.measuredMs / r.predictedMs),
    overPredictedBefore: rows.map((r) => r.measuredMs / r.predictedBeforeMs),
    stepKernelShares: rows.map((r) => hbmShare(r.kase.parameters, ADAM_BYTES_PER_PARAMETER, r.kernelsMs)),
    streamingShares: large.flatMap((s) => [s.adam, s.copy, s.cast, s.unscale]),
    normShares: rows.map((r) => passShares(r).norm),
    zeroShares: large.map((s) => s.zero),
    hostOverKernelsMs: rows.map((r) => r.hostStepMs - r.kernelsMs),
    worstHostSpread: Math.max(...rows.map((r) => r.hostSpread)),
    worstSpread: Math.max(...rows.map((r) => r.spread)),
    worstNormSpread: Math.max(...rows.map((r) => r.normSpread)),
  };
}

const label = (r: OptimizerComparison): string => {
  const k = r.kase;
  const plan = `TP ${k.tensor}${k.pipeline > 1 ? ` · PP ${k.pipeline}` : ''}${k.distributedOptimizer ? `, distributed over DP ${k.data}` : ''}`;
  return `${k.model}, ${plan}`;
};

export const optimizerSection: ValidationSection = {
  name: 'optimizer',
  run() {
    const runs = loadMeasuredOptimizer();
    const rows = optimizerComparisons(runs);
    const f = optimizerFindings(rows);
    const env = runs[0]!.environment;
    const hbm = COMPUTE_CALIBRATION.hopper.hbmFraction;
    const billions = rows.map((r) => r.kase.parameters / 1e9);
    const markdown = [
      '## The optimizer step on one H200 (test/validation/kernels/optimizer.py)',
      '',
      `What Megatron-LM runs after each global batch on the parameters one GPU updates, timed on one ${env.name} (PyTorch ${env.torch}, CUDA `
      + `${env.cuda}, ${runs[0]!.measuredAt.slice(0, 10)}): the global gradient norm over the fp32 gradients, PyTorch's fused multi-tensor Adam over `
      + 'fp32 master weights and moments (as Apex\'s FusedAdam), and the updated master weights cast into the bf16 weights, over the tensors of '
      + 'each plan\'s first pipeline stage (its linears, norms and embedding), cut by the data-parallel ranks where the optimizer is distributed; '
      + 'and the zeroing of the stage\'s whole fp32 gradient buffer that Megatron\'s data-parallel wrapper runs before the next step. "Measured" is '
      + 'the step\'s kernels on the GPU (torch.profiler) plus the zeroing; the norm, Adam and copy columns are each pass timed alone by the host\'s '
      + 'clock, launches included, so they add up to more than the kernels. Two runs, one after the other (measured differs by at most '
      + `${(f.worstSpread * 100).toFixed(1)}%, the norm timed alone by up to ${(f.worstNormSpread * 100).toFixed(0)}%); the table gives their mean. The raw output is kernels/optimizer-h200.run1.json and `
      + 'kernels/optimizer-h200.run2.json. The prediction is estimatePlan\'s breakdown.optimizerSeconds for the same plan on H200s '
      + `(optimizer-time.ts): ${OPTIMIZER_PASS_BYTES.norm} + ${OPTIMIZER_PASS_BYTES.adam} + ${OPTIMIZER_PASS_BYTES.copy} bytes a parameter updated `
      + `(norm, Adam, copy) at ${hbm} of the datasheet's HBM bandwidth, and the buffer's ${BUFFER_BYTES} bytes a stage parameter at the datasheet's.`,
      '',
      `| plan | parameters each GPU updates (billions) | tensors | norm alone (ms) | Adam alone (ms) | copy alone (ms) | the step's kernels (ms) | zeroing the buffer (ms) | measured (ms) | predicted (ms) | measured ÷ predicted | with ${OPTIMIZER_BYTES_BEFORE} bytes, no zeroing | the step as the host ran it (ms) |`,
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows.map((r) => `| ${label(r)} | ${(r.kase.parameters / 1e9).toFixed(3)} | ${r.tensors} | ${ms(r.passMs.norm)} | ${ms(r.passMs.adam)} | `
        + `${ms(r.passMs.copy)} | ${ms(r.kernelsMs)} | ${ms(r.passMs.zero)} | ${ms(r.measuredMs)} | ${ms(r.predictedMs)} | `
        + `${ratio(r.measuredMs / r.predictedMs)} | ${ratio(r.measuredMs / r.predictedBeforeMs)} | ${ms(r.hostStepMs)} |`),
      '',
      `- Measured ÷ predicted ${ratio(median(f.overPredicted))} at the median (${range(f.overPredicted)}). Until this measurement trainplan `
      + `charged ${OPTIMIZER_BYTES_BEFORE} bytes a parameter updated and nothing for the zeroing: it left out that the copy into the bf16 weights `
      + 'is a pass of its own that reads the fp32 master weights again (Megatron\'s _copy_main_params_to_model_params), and the buffer\'s reset, '
      + `which with the optimizer distributed over d ranks writes d times the bytes of the shard it updates: every step came out longer than charged, `
      + `${range(f.overPredictedBefore)} (the column before last).`,
      `- The step's kernels move its ${ADAM_BYTES_PER_PARAMETER} bytes a parameter at ${range(f.stepKernelShares)} of the datasheet's bandwidth (their GPU `
      + `time), the calibrated ${hbm}. Timed alone from ${(LARGE_PARAMETERS / 1e9).toFixed(1)} billion parameters, Adam, the copy, and the `
      + `${GRADIENT_CAST_BYTES}-byte cast of 16-bit gradients and ${FP16_UNSCALE_BYTES}-byte fp16 unscale that optimizer-time.ts adds for the plans that `
      + `run them stream at ${range(f.streamingShares)}; the write-only zeroing at ${range(f.zeroShares)}, so it is charged at the datasheet's. `
      + `The norm timed alone reaches ${range(f.normShares)}: its reductions are short enough that the host launching them a tensor group at a `
      + 'time bounds all but the largest shard.',
      `- As the host ran it, the step took ${range(f.hostOverKernelsMs)} ms more than its kernels (its runs differ by up to `
      + `${(f.worstHostSpread * 100).toFixed(0)}%): the norm read back to the host for the clip coefficient, as Megatron reads it, leaves the GPU idle `
      + 'while PyTorch\'s optimizer launches its kernels. That is the framework\'s host time, which trainplan charges only as its fixed cost a '
      + 'kernel; Megatron\'s own launches (Apex\'s multi_tensor_applier, a copy_ a parameter shard in the distributed optimizer) differ.',
      '- Not timed nor charged: the clip\'s scaling of the gradients, which runs only when the norm exceeds the clip.',
    ];
    return {
      markdown,
      readme: [
        `- The optimizer step on that H200 (\`test/validation/kernels/optimizer.py\`: gradient norm, fused Adam, the bf16 copy and the gradient `
        + `buffer's zeroing, ${range(billions)} billion parameters a GPU): measured ÷ predicted ${ratio(median(f.overPredicted))} `
        + `(${range(f.overPredicted)}) on the GPU's time, where the count before it, which missed the copy's second read of the master weights and `
        + `the zeroing, gave ${range(f.overPredictedBefore)}; PyTorch's host launches, with the norm read back, add ${range(f.hostOverKernelsMs)} ms `
        + 'a step, which trainplan does not charge.',
      ],
      summary: [`optimizer steps (H200) ${rows.length} steps  measured ÷ predicted ${ratio(median(f.overPredicted))} (${range(f.overPredicted)})  `
        + `kernels at ${range(f.stepKernelShares)} of HBM, zeroing at ${range(f.zeroShares)}`],
    };
  },
};
