/**
 * The memory section of `trainplan estimate`'s report: the table of one GPU's memory, what its rows hold, and for a
 * plan that does not fit, the switches it leaves off with what each would leave it needing.
 */
import { FRAGMENTATION, heldGradientBytes, type PlanInput } from '@trainplan/planner';
import { OTHER_PART_NAMES as NAMES, stateShardingOf, type EstimateOk, type MemoryJson } from '@trainplan/protocol';
import { formatBytes, formatPercent } from '@trainplan/units';
import { bar } from './bars.ts';
import { renderTable } from './table.ts';

/** The per-GPU memory rows; `total` is compared with the capacity separately. */
export const MEMORY_ROWS = [
  { key: 'weightsBytes', label: 'weights' },
  { key: 'gradientsBytes', label: 'gradients' },
  { key: 'optimizerBytes', label: 'optimizer' },
  { key: 'activationsBytes', label: 'activations' },
  { key: 'otherBytes', label: 'other' },
] as const satisfies readonly { key: keyof MemoryJson; label: string }[];

type Resolved = EstimateOk['resolved'];

const share = (part: number, whole: number): number => (whole > 0 ? part / whole : 0);

/** "stage 7 (the last of 8)": which pipeline stage the figures are of; the estimate reports the most loaded one. */
function stageText(stage: number, pipeline: number): string {
  const where = stage === 0 ? 'the first' : stage === pipeline - 1 ? 'the last' : 'a middle stage';
  return `pipeline stage ${stage} (${where} of ${pipeline}), the most loaded`;
}

/** What decides the gradient buffer's width (planner gradient-accumulation.ts), from the resolved plan. */
const gradientBuffer = (r: Resolved): Pick<PlanInput, 'sharding' | 'precision' | 'gradientAccumulation'> =>
  ({ sharding: stateShardingOf(r), precision: r.precision, gradientAccumulation: r.gradientAccumulation });

/**
 * "other" as the answer splits it (otherParts, planner plan-memory.ts OtherMemoryParts): the runtime reserve, the caching
 * allocator's fragmentation, and where they are not 0, ZeRO-3's gathered unit and what the optimizer step's fp32 gradient
 * copy needs beyond the activations, fragmentation and unit, all freed before the step (QA: the report rebuilt the split
 * from the constants and guessed which the rest was). An answer without the parts (another API's, an older one) is not split.
 */
function otherNote(m: MemoryJson): string | undefined {
  const p = m.otherParts;
  if (p === undefined) return undefined;
  // The parts' names are the protocol's (OTHER_PART_NAMES), which the chat bot words them with too.
  return `  other: ${formatBytes(p.runtimeReserveBytes)} ${NAMES.runtimeReserveBytes} (CUDA context, cuBLAS workspaces, NCCL buffers)`
    + ` + ${formatBytes(p.fragmentationBytes)} ${NAMES.fragmentationBytes} (${formatPercent(FRAGMENTATION)} of the activations)`
    + (p.zero3GatheredBytes > 0 ? ` + ${formatBytes(p.zero3GatheredBytes)} the ${NAMES.zero3GatheredBytes} (its 16-bit gradient, and its weights gathered from the other ranks where there are any)` : '')
    + (p.optimizerStepBytes > 0 ? ` + ${formatBytes(p.optimizerStepBytes)} the ${NAMES.optimizerStepBytes} beyond what forward and backward hold` : '');
}

/**
 * What the rows hold where it is not their name alone (QA: "other" summed four things unsaid, and FP8's copies sat in
 * "weights" unexplained). Megatron's fp32 main gradients are named where they are held (QA: 18 B a parameter against the
 * 16 of the ZeRO paper's baseline, Rajbhandari et al. 2020 §3.1, which counts 16-bit gradients).
 */
function rowNotes(m: MemoryJson, r: Resolved | undefined): string[] {
  const notes: string[] = [];
  if (r?.precision === 'fp8' && r.fp8Params !== true && r.zeroStage !== 3) {
    notes.push('  weights: the 16-bit weights and Transformer Engine\'s FP8 copies of the linear weights with their transposes (2 B per matrix parameter)');
  }
  if (r?.zeroStage === 0 && heldGradientBytes(gradientBuffer(r)) === 4) {
    notes.push('  gradients: fp32 main gradients, as Megatron keeps them (the ZeRO paper\'s baseline counts 16-bit)');
  }
  const other = otherNote(m);
  if (other !== undefined) notes.push(other);
  return notes;
}

/** The memory table of one GPU, which stage it is of, what "other" holds, and whether it fits. */
export function memoryLines(m: MemoryJson, r?: Resolved): string[] {
  const rows = MEMORY_ROWS.map(({ key, label }) => {
    const fraction = share(m[key], m.capacityBytes);
    return [label, formatBytes(m[key]), formatPercent(fraction), bar(fraction)];
  });
  const total = share(m.totalBytes, m.capacityBytes);
  rows.push(['total', formatBytes(m.totalBytes), formatPercent(total), bar(total)]);
  const headroom = m.capacityBytes - m.totalBytes;
  // Over by less than the runtime reserve and the fragmentation allowance, which are estimates, not fitted (plan-memory.ts):
  // published runs this close have run (QA: Llama 3.1 405B on 576 H100, 1.5 GiB over with 5.03 GiB of allowance), so the
  // verdict says how much of the total is allowance rather than a flat no.
  const allowance = m.otherParts === undefined ? undefined : m.otherParts.runtimeReserveBytes + m.otherParts.fragmentationBytes;
  const marginal = !m.fits && allowance !== undefined && -headroom <= allowance
    ? `; within the ${formatBytes(allowance)} allowed for the runtime and fragmentation, which are estimates: measure before ruling it out` : '';
  const fits = m.fits
    ? `yes (${formatBytes(Math.max(0, headroom))} free)`
    : `no (${formatBytes(Math.max(0, -headroom))} over${marginal})`;
  const where = r !== undefined && r.pipeline > 1 && m.stage !== undefined ? ` on ${stageText(m.stage, r.pipeline)}` : '';
  return [
    `Memory per GPU${where} (capacity ${formatBytes(m.capacityBytes)})`,
    ...renderTable(rows, { align: ['left', 'right', 'right', 'left'] }),
    ...rowNotes(m, r),
    `  fits: ${fits}`,
  ];
}

/** A switch a plan leaves off that cuts memory per GPU: the scenario field to set, what it lowers, and the change itself. */
export interface MemorySwitch {
  readonly field: string;
  readonly lowers: string;
  /** Why the plan can need no less with it, where it can (said when its estimate shows it). */
  readonly unless?: string;
  readonly change: { readonly parallelism?: Readonly<Record<string, unknown>>; readonly training?: Readonly<Record<string, unknown>> };
}

/** A switch with the memory its plan needs, estimated; no memory when the changed plan runs no estimate (its reason instead). */
export interface SwitchOutcome {
  readonly memory?: MemoryJson;
  readonly refusal?: string;
}

/**
 * The switches estimated (memorySwitches for the scenario given; absent, memorySwitches of the resolved plan), each one's
 * outcome in their order, and, where none fits alone, all of them together.
 */
export interface SwitchEstimates {
  readonly switches?: readonly MemorySwitch[];
  readonly each: readonly SwitchOutcome[];
  readonly together?: SwitchOutcome;
}

/**
 * The switches this plan leaves off that cut memory per GPU (Korthikanti et al. 2022 for recompute and sequence
 * parallelism, Rajbhandari et al. 2020 for sharding the optimizer states), each as the scenario field to set.
 */
export function memorySwitches(r: Resolved, zeroStageGiven = false): MemorySwitch[] {
  const switches: MemorySwitch[] = [];
  // Selective recompute drops only the attention core, the a·s² scores (Korthikanti et al. 2022 §5), which flash
  // attention never stores: under flash only full recompute lowers the activations.
  if (r.recompute === 'none' && r.attentionKernel !== 'flash') {
    switches.push({ field: 'parallelism.recompute "selective"', lowers: 'activations', change: { parallelism: { recompute: 'selective' } } });
  }
  if (r.recompute !== 'full') switches.push({ field: 'parallelism.recompute "full"', lowers: 'activations', change: { parallelism: { recompute: 'full' } } });
  if (r.tensor > 1 && !r.sequenceParallel) {
    switches.push({ field: 'parallelism.sequenceParallel true', lowers: 'activations ÷ TP', change: { parallelism: { sequenceParallel: true } } });
  }
  if (r.microBatchSize > 1) switches.push({ field: 'training.microBatchSize 1', lowers: 'activations', change: { training: { microBatchSize: 1 } } });
  // The distributed optimizer shards over the data-parallel and context-parallel ranks together (Megatron-Core's dp-cp group).
  // A scenario that gives zeroStage (0 included) is refused with distributedOptimizer too (the contract takes one instead of
  // the other): ZeRO-1 then, which shards the optimizer states over the same ranks (QA: the switch "did not run").
  if (r.data * r.context > 1 && !r.distributedOptimizer && r.zeroStage === 0) {
    switches.push(zeroStageGiven
      ? { field: 'parallelism.zeroStage 1', lowers: 'optimizer states ÷ DP·CP', change: { parallelism: { zeroStage: 1 } } }
      : { field: 'parallelism.distributedOptimizer true', lowers: 'optimizer states ÷ DP·CP', change: { parallelism: { distributedOptimizer: true } } });
  }
  // Megatron's fused main gradients are fp32 under bf16 and fp8 (planner gradient-accumulation.ts reducedGradientBytes);
  // reduced in 16 bits instead, as NVIDIA's performance recipes run (Megatron-Core grad_reduce_in_fp32 False), they halve.
  // ZeRO and fp16 hold 16-bit gradients already.
  if ((r.gradientAccumulation ?? 'fused') === 'fused' && r.precision !== 'fp16' && r.zeroStage === 0) {
    switches.push({
      field: 'training.gradientAccumulation "fused-16-bit"', lowers: 'gradients ÷ 2', change: { training: { gradientAccumulation: 'fused-16-bit' } },
      // planner gradient-accumulation.ts optimizerGradientCopyBytes: Megatron's optimizer casts 16-bit gradients to fp32.
      unless: 'the optimizer step then builds an fp32 copy of the 16-bit gradients',
    });
  }
  return switches;
}

const SPLIT = 'more GPUs per copy of the model: parallelism.pipeline or parallelism.tensor (weights, gradients and optimizer states ÷ TP·PP)';

/**
 * "80.9 GiB (101.1%), still 929 MiB over" or "68.4 GiB (85.5%), fits": the share of the capacity, as the table gives it; a
 * switch that leaves the plan needing no less than `before` says so (QA: 16-bit gradients, "gradients ÷ 2", took 138 GiB to
 * 141 GiB: without the distributed optimizer the step then builds an fp32 copy of all of them).
 */
function outcomeText(o: SwitchOutcome, before: number, unless?: string): string {
  if (o.memory === undefined) return `does not run: ${o.refusal ?? 'refused'}`;
  const m = o.memory;
  const used = `${formatBytes(m.totalBytes)} (${formatPercent(share(m.totalBytes, m.capacityBytes))})`;
  if (m.totalBytes >= before) return `${used}, no less than without it${unless === undefined ? '' : `: ${unless}`}`;
  return m.fits ? `${used}, fits` : `${used}, still ${formatBytes(m.totalBytes - m.capacityBytes)} over`;
}

/**
 * What would make a plan that does not fit fit. With the switches estimated (the CLI estimates the plan with each), each
 * is listed with the memory it leaves (QA: "Lower it with any of" listed full recompute for a plan it left 929 MiB
 * over); where none fits alone, all of them together; where even that does not, splitting the model. Without estimates,
 * a bound: the switches together save at most the activations and all but one replica's optimizer states.
 */
export function memoryRemedyLines(r: Resolved, m: MemoryJson, estimates?: SwitchEstimates): string[] {
  const switches = estimates?.switches ?? memorySwitches(r);
  const over = m.totalBytes - m.capacityBytes;
  // The states as the plan would hold them with every switch estimated on (QA: "together: 148 GiB", then "the states take
  // 211 GiB", the figure before the distributed optimizer sharded them).
  const after = estimates?.together?.memory ?? (switches.length === 1 ? estimates?.each[0]?.memory : undefined);
  const held = after ?? m;
  const states = held.weightsBytes + held.gradientsBytes + held.optimizerBytes;
  // More replicas shrink the states too where they are sharded over them (QA: Llama 3 8B on one H100 named only TP and
  // PP, where NeMo's and DeepSpeed's fine-tuning recipes shard over data-parallel GPUs): the optimizer states ÷ DP·CP with
  // the distributed optimizer or ZeRO-1/2 (Rajbhandari et al. 2020 §5), all three with ZeRO-3.
  const sharded = r.zeroStage === 3
    ? 'more data-parallel GPUs (ZeRO-3: weights, gradients and optimizer states ÷ DP·CP)'
    : 'more data-parallel GPUs with the optimizer states sharded over them (parallelism.distributedOptimizer or zeroStage: ÷ DP·CP)';
  const splitLine = `  the weights, gradients and optimizer states take ${formatBytes(states)} of ${formatBytes(m.capacityBytes)}${after === undefined ? '' : ' with them'}; `
    + `it needs ${SPLIT}, ${sharded}, or GPUs with more memory`;
  if (switches.length === 0) return [`Nothing left to switch on closes the ${formatBytes(over)} over:`, splitLine];
  if (estimates !== undefined) {
    const lines = ['Each switch the plan leaves off, estimated alone:', ...switches.map((s, i) => `  - ${s.field} (${s.lowers}): ${outcomeText(estimates.each[i] ?? {}, m.totalBytes, s.unless)}`)];
    if (estimates.each.some((o) => o.memory?.fits === true)) return lines;
    if (estimates.together !== undefined && switches.length > 1) {
      lines.push(`  - all of them together: ${outcomeText(estimates.together, m.totalBytes)}`);
      if (estimates.together.memory?.fits === true) return lines;
    }
    return [...lines, splitLine];
  }
  const replicas = r.data * r.context;
  const lowering = (part: string): boolean => switches.some((s) => s.lowers.startsWith(part));
  const mostSaved = (lowering('activations') ? m.activationsBytes : 0) + (lowering('optimizer') ? m.optimizerBytes * (1 - 1 / replicas) : 0)
    + (lowering('gradients') ? m.gradientsBytes / 2 : 0);
  if (mostSaved >= over) return ['Switches that lower it (not estimated):', ...switches.map((s) => `  - ${s.field} (${s.lowers})`)];
  return [`The switches left off (${switches.map((s) => s.field).join('; ')}) save at most ${formatBytes(mostSaved)} of the ${formatBytes(over)} over:`, splitLine];
}
