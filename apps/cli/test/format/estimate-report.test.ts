import type { EstimateInfeasible, EstimateOk } from '@trainplan/protocol';
import { GiB, days, formatBytes } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import {
  BREAKDOWN_ROWS, MEMORY_ROWS, estimateReportLines, formatEstimateReport, headerLine, infeasibleLines, memoryRemedyLines,
} from '../../src/format/estimate-report.ts';
import { fixtureEstimate } from '../support/scenarios.ts';

const report = formatEstimateReport(fixtureEstimate);

describe('formatEstimateReport (of a hand-written answer)', () => {
  it('starts with a header line: model, GPU × count, TP/PP/DP/CP/v, micro-batch, global batch, precision, recompute', () => {
    expect(headerLine(fixtureEstimate)).toBe(
      'gpt3-175b (175B parameters) · a100-80gb × 1,024 (128 nodes × 8, hdr-ib-8x) · TP 8 · PP 8 · DP 16 · CP 1 · v 1'
      + ' · micro-batch 1 · global batch 1,536 (96 micro-batches) · bf16 · recompute full',
    );
  });
  it('says "1 micro-batch" in the singular', () => {
    expect(headerLine({ ...fixtureEstimate, resolved: { ...fixtureEstimate.resolved, microBatches: 1 } })).toContain('(1 micro-batch) ·');
  });

  it('names an unfused attention or loss kernel, and says nothing of the defaults (flash, fused)', () => {
    const unfused = { ...fixtureEstimate.resolved, attentionKernel: 'unfused' as const, crossEntropyKernel: 'unfused' as const };
    expect(headerLine({ ...fixtureEstimate, resolved: unfused })).toContain(' · bf16 · unfused attention · unfused cross entropy · recompute full');
    const defaults = { ...fixtureEstimate.resolved, attentionKernel: 'flash' as const, crossEntropyKernel: 'fused' as const };
    expect(headerLine({ ...fixtureEstimate, resolved: defaults })).toBe(headerLine(fixtureEstimate));
  });

  it('names sequence parallelism and the optimizer sharding when they are on', () => {
    const resolved = { ...fixtureEstimate.resolved, sequenceParallel: true, zeroStage: 1 };
    expect(headerLine({ ...fixtureEstimate, resolved })).toMatch(/ · sequence parallel · ZeRO-1$/);
    const distributed = { ...fixtureEstimate.resolved, distributedOptimizer: true };
    expect(headerLine({ ...fixtureEstimate, resolved: distributed })).toMatch(/ · distributed optimizer$/);
  });

  it('tables the headline metrics with their units', () => {
    expect(report).toContain([
      '  step time                20.0 s',
      '  throughput               157 k tokens/s',
      '  model FLOP/s per GPU     150 TFLOP/s',
      '  hardware FLOP/s per GPU  200 TFLOP/s',
      '  MFU                      48.0%',
      '  HFU                      64.0%',
    ].join('\n'));
  });

  it('breaks the step time down into seconds, percent of the step and a bar, noting recompute and the overlap', () => {
    expect(report).toContain([
      'Step time breakdown (20.0 s)',
      '  compute                15.0 s  75.0%  ██████████████████████▌  incl. recompute 3.75 s (25.0% of compute)',
      '  tensor-parallel comm   2.00 s  10.0%  ███',
      '  context-parallel comm     0 s   0.0%',
      '  pipeline bubble        1.50 s   7.5%  ██▎',
      '  pipeline comm          500 ms   2.5%  ▊',
      '  data-parallel comm     900 ms   4.5%  █▍                       2.40 s before overlap',
      '  optimizer              100 ms   0.5%  ▏',
    ].join('\n'));
  });

  it('says the context-parallel exchanges attention hid, all of them or the rest beside what is left exposed', () => {
    const row = (contextParallelCommSeconds: number, contextParallelCommTotalSeconds: number) =>
      formatEstimateReport({ ...fixtureEstimate, breakdown: { ...fixtureEstimate.breakdown, contextParallelCommSeconds, contextParallelCommTotalSeconds } })
        .split('\n').find((l) => l.startsWith('  context-parallel comm'))!;
    expect(row(0, 1.2)).toMatch(/ 0 s +0\.0% +1\.20 s before overlap, all hidden behind attention$/);
    expect(row(0.3, 1.2)).toMatch(/1\.20 s before overlap, the rest hidden behind attention$/);
    expect(row(0, 0)).toMatch(/0\.0%$/);
  });

  it('has one breakdown row per step-time component, in the order of BREAKDOWN_ROWS', () => {
    const labels = BREAKDOWN_ROWS.map((r) => r.label);
    const positions = labels.map((l) => report.indexOf(`\n  ${l} `));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('tables the memory per GPU against its capacity, with a fits line', () => {
    expect(report).toContain([
      'Memory per GPU (capacity 80.0 GiB)',
      '  weights      5.00 GiB   6.3%  █▉',
      '  gradients    10.0 GiB  12.5%  ███▊',
      '  optimizer    30.0 GiB  37.5%  ███████████▎',
      '  activations  5.00 GiB   6.3%  █▉',
      '  other        2.00 GiB   2.5%  ▊',
      '  total        52.0 GiB  65.0%  ███████████████████▌',
      // bf16 without ZeRO: the 10 GiB of gradients are 4 bytes for each of the 5 GiB / 2 B of weights, Megatron's fp32 ones.
      '  gradients: fp32 main gradients, as Megatron keeps them (the ZeRO paper\'s baseline counts 16-bit)',
      // 2.00 GiB of other: the 1.5 GiB runtime reserve and 10% of the 5.00 GiB of activations, nothing more.
      '  other: 1.50 GiB runtime reserve (CUDA context, cuBLAS workspaces, NCCL buffers) + 512 MiB allocator fragmentation (10.0% of the activations)',
      '  fits: yes (28.0 GiB free)',
    ].join('\n'));
    expect(MEMORY_ROWS).toHaveLength(5);
  });

  it('says by how much the memory does not fit', () => {
    const memory = { ...fixtureEstimate.memory, totalBytes: GiB(90), fits: false };
    expect(formatEstimateReport({ ...fixtureEstimate, memory })).toContain('  fits: no (10.0 GiB over)');
  });

  /**
   * Over by less than the allowances (the 1.5 GiB runtime reserve and 10% of the activations, estimates both): said so,
   * since published runs this close have run (QA: Llama 3.1 405B on 576 H100). 5.00 GiB of activations: 2.00 GiB allowed.
   */
  it('a plan over by less than the runtime and fragmentation allowances says so beside the no', () => {
    const at = (totalGiB: number) => formatEstimateReport({ ...fixtureEstimate, memory: { ...fixtureEstimate.memory, totalBytes: GiB(totalGiB), fits: false } });
    const capacityGiB = fixtureEstimate.memory.capacityBytes / GiB(1);
    expect(at(capacityGiB + 1.5)).toContain(`  fits: no (${formatBytes(GiB(1.5))} over; within the ${formatBytes(GiB(2))} allowed for the runtime and fragmentation`);
    expect(at(capacityGiB + 2.5)).toContain(`  fits: no (${formatBytes(GiB(2.5))} over)`);
  });

  it('ends with the time to train and the warnings', () => {
    expect(report.endsWith([
      '',
      'Time to train 300B tokens: 30.0 days, 737 k GPU-hours',
      '',
      'Warnings',
      '  ⚠ the pipeline bubble is large: try more micro-batches or virtual stages',
      '',
    ].join('\n'))).toBe(true);
  });

  it.each([
    [3918.14, '3,918.1 days'],
    [0.000274, '23.7 s'],
  ])('writes %f days to train as "%s", as trainplan nodes does: grouped, and a short run as its time', (d, shown) => {
    const timeToTrain = { ...fixtureEstimate.timeToTrain!, seconds: days(d), days: d };
    expect(estimateReportLines({ ...fixtureEstimate, timeToTrain })).toContain(`Time to train 300B tokens: ${shown}, 737 k GPU-hours`);
  });

  it('leaves out the time to train and the warnings when there are none', () => {
    const { timeToTrain: _, ...rest } = fixtureEstimate;
    const lines = estimateReportLines({ ...rest, warnings: [] });
    expect(lines.join('\n')).not.toMatch(/Time to train|Warnings/);
    expect(lines.at(-1)).toMatch(/^ {2}fits: /);
  });

  it('reports each answer of an array under a numbered heading, separated by a blank line', () => {
    const oom: EstimateInfeasible = { ok: false, reason: 'out-of-memory', message: 'needs 90.0 GiB per GPU' };
    const text = formatEstimateReport([fixtureEstimate, oom]);
    expect(text).toMatch(/^── Scenario 1 of 2 \(input \[0\]\) ──\ngpt3-175b /);
    expect(text.endsWith('\n\n── Scenario 2 of 2 (input [1]) ──\n✗ out-of-memory: needs 90.0 GiB per GPU\n')).toBe(true);
  });
});

describe('formatEstimateReport: what a model given by its shape can make it print', () => {
  // A 4,194,304-token context (QA's hfu.json [2]): attention over every (query, key) pair, as the JSON counts it, is
  // 1,039.6 TFLOP/s a GPU where the H100's BF16 peak is 989.4; 1,039.6 / 989.4 = 1.0507.
  const overPeak: EstimateOk = { ...fixtureEstimate, hardwareTflopsPerGpu: 1039.6, hfu: 1039.6 / 989.4, peakTflopsPerGpu: 989.4 };
  const reason = 'counting attention over every (query, key) pair, as Megatron does; the causal kernels compute about half of them';

  it('never prints a hardware FLOP/s above the peak, or an HFU over 100%, without saying why on the same line', () => {
    const lines = estimateReportLines(overPeak);
    expect(lines).toContain(`  hardware FLOP/s per GPU  1.04 PFLOP/s (over the 989 TFLOP/s peak: ${reason})`);
    expect(lines).toContain(`  HFU                      105.1% (over 100%: ${reason})`);
    // MFU (150 TFLOP/s, 48%) stays under the peak: its lines say nothing more.
    expect(lines).toContain('  model FLOP/s per GPU     150 TFLOP/s');
    expect(lines).toContain('  MFU                      48.0%');
  });

  it('an answer without peakTflopsPerGpu (before that extension) names the peak its HFU is of: 1,039.6 / 1.0507 = 989 TFLOP/s', () => {
    const { peakTflopsPerGpu: _, ...older } = overPeak;
    expect(estimateReportLines(older)).toContain(`  hardware FLOP/s per GPU  1.04 PFLOP/s (over the 989 TFLOP/s peak: ${reason})`);
  });

  it('writes the parameter count with its scale letter against it ("8.07B"), never "8.07 B", which reads as bytes beside "weights 58.0 B"', () => {
    expect(headerLine({ ...fixtureEstimate, parameters: 8.07e9 })).toMatch(/^gpt3-175b \(8\.07B parameters\) · /);
    expect(headerLine({ ...fixtureEstimate, parameters: 172_000 })).toMatch(/^gpt3-175b \(172k parameters\) · /);
  });

  it('groups a step of more than a thousand days by thousands (QA: "step time 1108059 days")', () => {
    const stepTimeSeconds = days(1_108_059.4);
    const breakdown = { ...fixtureEstimate.breakdown, computeSeconds: stepTimeSeconds };
    const lines = estimateReportLines({ ...fixtureEstimate, stepTimeSeconds, breakdown });
    expect(lines).toContain('  step time                1,108,059 days');
    expect(lines).toContain('Step time breakdown (1,108,059 days)');
    expect(lines.find((l) => l.startsWith('  compute '))).toMatch(/^ {2}compute +1,108,059 days /);
  });

  it('writes the control characters of a model\'s name as escapes: the header stays one line and nothing recolours the terminal', () => {
    // QA's bad/name_html.json: a line break and ESC [31m (red) in model.name, repeated by a warning that names the model.
    const name = '<b>x</b>\n\u001b[31mred';
    const e = { ...fixtureEstimate, resolved: { ...fixtureEstimate.resolved, model: name }, warnings: [`longer than ${name}'s`] };
    const text = formatEstimateReport(e);
    expect(text.split('\n')[0]).toMatch(/^<b>x<\/b>\\n\\u001b\[31mred \(175B parameters\) · /);
    expect(text).toContain('  ⚠ longer than <b>x</b>\\n\\u001b[31mred\'s');
    expect(text).not.toContain('\u001b');
    expect(text.split('\n')).toHaveLength(formatEstimateReport(fixtureEstimate).split('\n').length);
  });
});

describe('infeasibleLines', () => {
  it.each<[string, EstimateInfeasible, string[]]>([
    ['out-of-memory', { ok: false, reason: 'out-of-memory', message: 'needs 90 GiB', neededBytes: 1, availableBytes: 0 },
      ['✗ out-of-memory: needs 90 GiB']],
    ['invalid', {
      ok: false, reason: 'invalid', message: '…',
      issues: [{ path: 'parallelism.tensor', message: 'expected an integer ≥ 1, got 0' }, { path: 'model', message: 'unknown preset' }],
    }, ['✗ invalid', '  parallelism.tensor: expected an integer ≥ 1, got 0', '  model: unknown preset']],
    ['indivisible', { ok: false, reason: 'indivisible', message: '…', issues: [{ path: 'training.globalBatchSize', message: 'not a multiple' }] },
      ['✗ indivisible', '  training.globalBatchSize: not a multiple']],
    ['invalid, about the whole input', { ok: false, reason: 'invalid', message: 'm', issues: [{ path: '[3]', message: 'expected a scenario object' }] },
      ['✗ invalid', '  [3]: expected a scenario object']],
  ])('prints %s as ✗ with each field issue on its own line', (_, answer, lines) => {
    expect(infeasibleLines(answer)).toEqual(lines);
  });

  const oom: EstimateInfeasible = { ok: false, reason: 'out-of-memory', message: 'needs 90 GiB', neededBytes: 1, availableBytes: 0 };
  // An out-of-memory answer carries its plan as the protocol now gives it (resolved, memory, parameters).
  const plan = (resolved: Partial<typeof fixtureEstimate.resolved>): EstimateInfeasible =>
    ({ ...oom, memory: fixtureEstimate.memory, parameters: fixtureEstimate.parameters, resolved: { ...fixtureEstimate.resolved, ...resolved } });

  it('out of memory with its plan: the plan\'s line first (the defaults it took in view), then the refusal and what fills the GPU', () => {
    const lines = infeasibleLines(plan({}));
    expect(lines[0]).toBe(headerLine(fixtureEstimate));
    expect(lines.slice(1, 4)).toEqual(['', '✗ out-of-memory: needs 90 GiB', '']);
    expect(lines).toContain(`Memory per GPU (capacity ${formatBytes(fixtureEstimate.memory.capacityBytes)})`);
  });

  it('names only the memory-saving switches the plan leaves off (not estimated: a bound decides whether they can close the gap)', () => {
    const bare = infeasibleLines(plan({ recompute: 'none', sequenceParallel: false, distributedOptimizer: false, zeroStage: 0, tensor: 8, data: 16, microBatchSize: 2 }));
    expect(bare.slice(bare.indexOf('Switches that lower it (not estimated):') + 1)).toEqual([
      '  - parallelism.recompute "selective" (activations)',
      '  - parallelism.recompute "full" (activations)',
      '  - parallelism.sequenceParallel true (activations ÷ TP)',
      '  - training.microBatchSize 1 (activations)',
      '  - parallelism.distributedOptimizer true (optimizer states ÷ DP·CP)',
      // Megatron's fp32 main gradients under bf16, reduced in 16 bits as NVIDIA's recipes run them.
      '  - training.gradientAccumulation "fused-16-bit" (gradients ÷ 2)',
    ]);
    // Under flash attention selective recompute saves nothing (the scores it drops are never stored): only full is offered.
    const sixteen = { gradientAccumulation: 'fused-16-bit' } as const;
    const flash = infeasibleLines(plan({ recompute: 'none', attentionKernel: 'flash', sequenceParallel: true, distributedOptimizer: true, microBatchSize: 1, ...sixteen }));
    expect(flash.slice(flash.indexOf('Switches that lower it (not estimated):') + 1)).toEqual(['  - parallelism.recompute "full" (activations)']);
    const unfused = infeasibleLines(plan({ recompute: 'none', attentionKernel: 'unfused', sequenceParallel: true, distributedOptimizer: true, microBatchSize: 1 }));
    expect(unfused).toContain('  - parallelism.recompute "selective" (activations)');
    // 16-bit gradients already (fp16, ZeRO, or asked): no gradient switch.
    for (const held of [{ precision: 'fp16' }, { zeroStage: 1 }, sixteen] as const) {
      expect(infeasibleLines(plan({ recompute: 'none', ...held })).some((l) => l.includes('gradientAccumulation'))).toBe(false);
    }
    const all = infeasibleLines(plan({ recompute: 'full', sequenceParallel: true, distributedOptimizer: true, microBatchSize: 1, ...sixteen }));
    expect(all.some((l) => l.startsWith('Switches'))).toBe(false);
    expect(all.some((l) => l.startsWith('Nothing left to switch on closes the'))).toBe(true);
  });
  it('with the switches estimated, gives each one\'s total against the capacity, and all together where none fits alone', () => {
    const r = { ...fixtureEstimate.resolved, recompute: 'selective', sequenceParallel: false, tensor: 8, distributedOptimizer: true, microBatchSize: 1, gradientAccumulation: 'fused-16-bit' } as const;
    const over = { ...fixtureEstimate.memory, totalBytes: GiB(90), fits: false };
    const at = (total: number) => ({ memory: { ...fixtureEstimate.memory, totalBytes: GiB(total), fits: total <= 80 } });
    // Full recompute to 84 GiB (4 GiB over, 105% of 80), sequence parallelism to 88 GiB; both to 76 GiB (95%): fits.
    expect(memoryRemedyLines(r, over, { each: [at(84), at(88)], together: at(76) })).toEqual([
      'Each switch the plan leaves off, estimated alone:',
      '  - parallelism.recompute "full" (activations): 84.0 GiB (105.0%), still 4.00 GiB over',
      '  - parallelism.sequenceParallel true (activations ÷ TP): 88.0 GiB (110.0%), still 8.00 GiB over',
      '  - all of them together: 76.0 GiB (95.0%), fits',
    ]);
    // One that fits alone: no "together" line, nothing about splitting the model.
    expect(memoryRemedyLines(r, over, { each: [at(70), at(88)] })).toEqual([
      'Each switch the plan leaves off, estimated alone:',
      '  - parallelism.recompute "full" (activations): 70.0 GiB (87.5%), fits',
      '  - parallelism.sequenceParallel true (activations ÷ TP): 88.0 GiB (110.0%), still 8.00 GiB over',
    ]);
    // Together still over: the model must be split.
    expect(memoryRemedyLines(r, over, { each: [at(84), at(88)], together: at(82) }).at(-1)).toMatch(/it needs more GPUs per copy of the model/);
  });

  // Llama 3 70B at TP 8 on one H100 node, as the planner answers it: 132 GiB over, 56.6 GiB of it activations.
  const statesBound = {
    weightsBytes: GiB(16.4), gradientsBytes: GiB(32.9), optimizerBytes: GiB(98.6), activationsBytes: GiB(56.6), otherBytes: GiB(7.2),
    totalBytes: GiB(211.7), capacityBytes: GiB(79.6), fits: false,
  };
  const onOneNode = { recompute: 'none', sequenceParallel: false, distributedOptimizer: false, zeroStage: 0, tensor: 8, pipeline: 1, data: 1, context: 1, microBatchSize: 1 } as const;
  it('where the switches left off cannot close the gap, says so and points at splitting the model, not at the switches', () => {
    const lines = memoryRemedyLines({ ...fixtureEstimate.resolved, ...onOneNode }, statesBound);
    expect(lines).not.toContain('Switches that lower it (not estimated):');
    // 56.6 GiB of activations + half the 32.9 GiB of fp32 gradients (16-bit ones), short of the 132 GiB over.
    expect(lines[0]!.endsWith(`save at most ${formatBytes(GiB(56.6) + GiB(32.9) / 2)} of the 132 GiB over:`)).toBe(true);
    expect(lines[1]).toMatch(/optimizer states take 148 GiB of 79\.6 GiB; it needs more GPUs per copy of the model: parallelism\.pipeline or parallelism\.tensor/);
  });
  it('names more data-parallel GPUs sharding the states beside splitting the model: all three under ZeRO-3, else the optimizer states', () => {
    const one = memoryRemedyLines({ ...fixtureEstimate.resolved, ...onOneNode, tensor: 1 }, statesBound);
    expect(one[1]).toMatch(/, more data-parallel GPUs with the optimizer states sharded over them \(parallelism\.distributedOptimizer or zeroStage: ÷ DP·CP\), or GPUs with more memory$/);
    const zero3 = memoryRemedyLines({ ...fixtureEstimate.resolved, ...onOneNode, tensor: 1, zeroStage: 3 }, statesBound);
    expect(zero3.at(-1)).toMatch(/more data-parallel GPUs \(ZeRO-3: weights, gradients and optimizer states ÷ DP·CP\)/);
  });
  it('counts what sharding the optimizer over the replicas can save: with 16 of them the same plan is listed switches again', () => {
    const lines = memoryRemedyLines({ ...fixtureEstimate.resolved, ...onOneNode, data: 16 }, statesBound);
    // 56.6 GiB of activations + 15/16 of 98.6 GiB of optimizer states ≥ 132 GiB.
    expect(lines[0]).toBe('Switches that lower it (not estimated):');
    expect(lines).toContain('  - parallelism.distributedOptimizer true (optimizer states ÷ DP·CP)');
  });
});
